import { parseArgs } from 'node:util';
import { databaseOptionsFromConfig, openDatabase } from '../db/client.ts';
import { runMigrations } from '../db/migrate.ts';
import { COMMAND_LINE, createStaff } from '../features/staff/index.server.ts';
import { staffCreateSchema } from '../features/staff/index.ts';
import { ConfigError, loadConfig } from '../server/config.ts';
import { AppError } from '../server/errors.ts';

/**
 * `npm run staff -- create --email maija@example.fi --name "Maija Meikäläinen" --role admin`:
 * adds a staff member to the configured database and prints their one-time enrolment link
 * (72 hours), which sets the password and the authenticator (decision 130). Nothing else makes
 * the first administrator: no account exists by default and none has a default password.
 * `--sites jyvabroiler,sibylla` and `--langs fi,sv` limit the role (all by default); `--lang`
 * is the person's own language (fi).
 */
const USAGE =
  'usage: npm run staff -- create --email <address> --role <role> [--name <name>] [--lang fi|sv|en] [--sites a,b] [--langs fi,sv]';

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      role: { type: 'string' },
      lang: { type: 'string', default: 'fi' },
      sites: { type: 'string' },
      langs: { type: 'string' },
    },
  });
  if (positionals[0] !== 'create' || !values.email || !values.role) {
    console.error(USAGE);
    return 2;
  }
  const list = (v: string | undefined) =>
    v
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : null;
  const parsed = staffCreateSchema.safeParse({
    email: values.email,
    name: values.name ?? values.email.split('@')[0],
    lang: values.lang,
    grants: [{ role: values.role, sites: list(values.sites), langs: list(values.langs) }],
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      console.error(`${issue.path.join('.')}: ${issue.message}`);
    }
    return 2;
  }
  const config = loadConfig();
  const database = await openDatabase(databaseOptionsFromConfig(config));
  try {
    await runMigrations(database);
    const made = await createStaff(database.db, parsed.data, {
      actor: COMMAND_LINE,
      adminUrl: config.adminUrl ?? `http://localhost:${config.port}/admin`,
    });
    console.info(`Staff member ${parsed.data.email} added (${values.role}).`);
    console.info(`One-time enrolment link, valid until ${made.expiresAt.toISOString()}:`);
    console.info(made.enrolmentUrl);
    return 0;
  } catch (error) {
    if (error instanceof AppError) {
      const fields = (error.extra?.errors ?? {}) as Record<string, string>;
      console.error(error.detail ?? error.title, Object.keys(fields).length ? fields : '');
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exitCode = 1;
  } else throw error;
}
