import { databaseOptionsFromConfig, openDatabase } from '../db/client.ts';
import { runMigrations } from '../db/migrate.ts';
import { loadConfig } from '../server/config.ts';

/** `npm run migrate`: applies pending migrations to the configured database and exits. */
const config = loadConfig();
const database = await openDatabase(databaseOptionsFromConfig(config));
try {
  const applied = await runMigrations(database);
  console.info(`${applied} migration(s) applied (${database.engine})`);
} finally {
  await database.close();
}
