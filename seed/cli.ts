import '../scripts/empty-css-imports.ts';
import { parseArgs } from 'node:util';
import { databaseOptionsFromConfig, openDatabase } from '../src/db/client.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { ConfigError, loadConfig } from '../src/server/config.ts';
import { openFileStore } from '../src/server/file-store.ts';

const { seed } = await import('./seed.ts');

/** Not the migration lock's key: seeding waits for migrations, not the other way round. */
const SEED_LOCK_KEY = 7_240_312;
const { isEmpty } = await import('./write.ts');

/**
 * `npm run seed [-- --scale N] [--if-empty] [--sites a,b] [--images-per-kind N]`: migrates the
 * configured database and writes the demo content (replacing the content tables). `--if-empty`
 * does nothing when pages exist, which is how `npm start` seeds a fresh machine once;
 * `--images-per-kind` draws at most N pictures per kind (quick throw-away databases).
 */
async function main() {
  const { values } = parseArgs({
    options: {
      'if-empty': { type: 'boolean', default: false },
      scale: { type: 'string' },
      sites: { type: 'string' },
      'images-per-kind': { type: 'string' },
    },
  });
  const scale = values.scale === undefined ? undefined : Number(values.scale);
  if (scale !== undefined && (!Number.isInteger(scale) || scale < 0)) {
    throw new ConfigError(`--scale must be a whole number, got "${values.scale}"`);
  }
  const perKind =
    values['images-per-kind'] === undefined ? undefined : Number(values['images-per-kind']);
  if (perKind !== undefined && (!Number.isInteger(perKind) || perKind < 1)) {
    throw new ConfigError(
      `--images-per-kind must be a positive whole number, got "${values['images-per-kind']}"`,
    );
  }
  const config = loadConfig();
  const database = await openDatabase(databaseOptionsFromConfig(config));
  const files = await openFileStore(config);
  try {
    await runMigrations(database);
    const started = performance.now();
    // Two servers starting at once on one PostgreSQL seed one after the other; the second finds
    // content and, with --if-empty, leaves it.
    const result = await database.withAdvisoryLock(SEED_LOCK_KEY, async (db) => {
      if (values['if-empty'] && !(await isEmpty(db))) return undefined;
      console.info(`seed: writing demo content (${database.engine})…`);
      return seed(
        { db, files },
        {
          ...(scale ? { scale } : {}),
          ...(values.sites ? { sites: values.sites.split(',').map((s) => s.trim()) } : {}),
          ...(perKind ? { imagesPerKind: perKind } : {}),
          log: (message) => console.info(`seed: ${message}`),
        },
      );
    });
    if (!result) {
      console.info('seed: content exists, nothing to do');
      return;
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.info(
      `seed: done in ${seconds} s (generate ${result.millis.generate} ms, write ${result.millis.write} ms); ` +
        `${result.images} images, ${result.searchable} searchable items` +
        (result.scaleDocuments ? ` (${result.scaleDocuments} for scale)` : ''),
    );
    console.info(
      Object.entries(result.counts)
        .map(([table, n]) => `  ${table}: ${n}`)
        .join('\n'),
    );
  } finally {
    files.close?.();
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
