import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { createServer as createViteServer } from 'vite';

/**
 * `npm run dev`: the app behind the Vite dev server. Islands hot-reload in the browser; a change to
 * server code rebuilds the app in place (the database stays open) and reloads the page.
 */
type AppModule = typeof import('./app.ts');
type ConfigModule = typeof import('../server/config.ts');
type AssetsModule = typeof import('../render/assets.ts');
type DbModule = typeof import('../db/client.ts');
type MigrateModule = typeof import('../db/migrate.ts');
type IslandTextsModule = typeof import('../../scripts/island-texts.ts');

const httpServer = http.createServer();
const vite = await createViteServer({
  server: { middlewareMode: true, hmr: { server: httpServer } },
  appType: 'custom',
});
const load = <T>(id: string) => vite.ssrLoadModule(id) as Promise<T>;

const { loadConfig } = await load<ConfigModule>('/src/server/config.ts');
const config = loadConfig({ NODE_ENV: 'development', ...process.env });
const { openDatabase, databaseOptionsFromConfig } = await load<DbModule>('/src/db/client.ts');
const { runMigrations } = await load<MigrateModule>('/src/db/migrate.ts');
const database = await openDatabase(databaseOptionsFromConfig(config));
await runMigrations(database);

let app: FastifyInstance | undefined;
let route: http.RequestListener | undefined;

async function start() {
  const { buildApp } = await load<AppModule>('/src/app/app.ts');
  const { devAssets } = await load<AssetsModule>('/src/render/assets.ts');
  // Each island's modules, read from the registries at each rebuild (decision 161).
  const { islandModules } = await load<IslandTextsModule>('/scripts/island-texts.ts');
  const { code } = islandModules(vite.config.root);
  let handler: http.RequestListener | undefined;
  const next = await buildApp({
    config,
    database,
    assets: devAssets((island) => {
      const modules = code.get(island);
      if (!modules) throw new Error(`no island ${island} in the registries`);
      return modules;
    }),
    serverFactory: (h) => {
      handler = h as http.RequestListener;
      return http.createServer();
    },
  });
  await next.ready();
  const previous = app;
  app = next;
  route = handler;
  await previous?.close();
}

let reloading: NodeJS.Timeout | undefined;
vite.watcher.on('change', (file) => {
  if (!file.includes('/src/') || /\.module\.css$/.test(file)) return;
  clearTimeout(reloading);
  reloading = setTimeout(() => {
    vite.environments.ssr.moduleGraph.invalidateAll();
    start()
      .then(() => vite.environments.client.hot.send({ type: 'full-reload' }))
      .catch((error: unknown) => console.error('reload failed', error));
  }, 100);
});

await start();
httpServer.on('request', (req, res) => {
  vite.middlewares(req, res, () => route?.(req, res));
});
httpServer.listen(config.port, config.host, () => {
  console.info(`Kattaus (development) on http://localhost:${config.port}`);
});

const stop = async () => {
  await app?.close();
  await vite.close();
  await database.close();
  httpServer.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
