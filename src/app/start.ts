import { fileURLToPath } from 'node:url';
import closeWithGrace from 'close-with-grace';
import { manifestAssets } from '../render/assets.ts';
import { ConfigError, loadConfig } from '../server/config.ts';
import { buildApp } from './app.ts';

/** Loads the configuration, builds the app and listens until SIGTERM (see main.ts). */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // The client build sits beside this bundle (dist/client next to dist/server), wherever that is.
  const clientDir = fileURLToPath(new URL('../client', import.meta.url));
  const app = await buildApp({ config, assets: manifestAssets(clientDir) });
  // On SIGTERM or SIGINT: stop accepting, finish the requests in flight, close the database.
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
  });
  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
