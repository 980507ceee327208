import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * `SITE_HOSTS` adds public host names to sites, for example
 * `sibylla=www.sibylla.example,sibylla.example;lihakauppa=shop.example`.
 * Every site also answers on `<site>.localhost` without configuration. Site ids are trimmed and
 * lower-cased; empty entries (a trailing `;`, `;;`) are skipped.
 */
const siteHostsSchema = z
  .string()
  .trim()
  .transform((value, ctx) => {
    const map: Record<string, string[]> = {};
    for (const raw of value.split(';')) {
      const entry = raw.trim();
      if (entry === '') continue;
      const eq = entry.indexOf('=');
      const site = eq === -1 ? '' : entry.slice(0, eq).trim().toLowerCase();
      const list = eq === -1 ? '' : entry.slice(eq + 1);
      const hosts = list
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean);
      if (!site || list.includes('=') || hosts.length === 0) {
        ctx.addIssue({ code: 'custom', message: `expected site=host[,host] but got "${entry}"` });
        return z.NEVER;
      }
      map[site] = hosts;
    }
    return map;
  });

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  FILES_DIR: z.string().min(1).optional(),
  DATABASE_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), {
      message: 'must be a postgres:// or postgresql:// URL',
    }),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  SESSION_SECRET: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || v.length >= 32, {
      message: 'must be at least 32 characters',
    }),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  LOG_LEVEL: z.enum(logLevels).default('info'),
  SITE_HOSTS: siteHostsSchema.prefault(''),
  DEFAULT_SITE: z.string().min(1).default('konsernifi'),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  /** The local file store (uploads, images and their resized variants). */
  filesDir: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  sessionSecret: string;
  sessionTtlDays: number;
  logLevel: (typeof logLevels)[number];
  siteHosts: Record<string, string[]>;
  defaultSite: string;
  trustProxy: boolean;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment once at start-up; a wrong value stops the process with a clear message. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty or blank variable (`PORT=`) means "not set", so its default applies; otherwise
  // z.coerce would read '' as 0.
  const given = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ''),
  );
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || 'env'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    filesDir: e.FILES_DIR ? path.resolve(e.FILES_DIR) : path.join(dataDir, 'files'),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    sessionSecret: e.SESSION_SECRET || persistentSecret(dataDir),
    sessionTtlDays: e.SESSION_TTL_DAYS,
    logLevel: e.LOG_LEVEL,
    siteHosts: e.SITE_HOSTS,
    defaultSite: e.DEFAULT_SITE,
    trustProxy: e.TRUST_PROXY,
  };
}

/**
 * A secret generated on first start and kept in the data folder, so sessions survive restarts.
 * Processes starting at once on a fresh folder agree on one secret: each writes its candidate to
 * a temporary file and hard-links it into place, which fails with EEXIST for all but the first,
 * and the others read the winner's. Unlike writing the file itself with flag 'wx', no process can
 * see it created but still empty.
 */
function persistentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  const temp = `${file}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temp, secret, { mode: 0o600, flag: 'wx' });
  try {
    try {
      linkSync(temp, file);
      return secret;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
    // A damaged (too short) secret: replace it atomically, which also gives it mode 0600.
    renameSync(temp, file);
    return secret;
  } finally {
    rmSync(temp, { force: true });
  }
}
