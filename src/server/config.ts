import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * `SITE_HOSTS` adds public host names to sites, for example
 * `sibylla=www.sibylla.example,sibylla.example;lihakauppa=shop.example`.
 * Every site also answers on `<site>.localhost` without configuration.
 */
const siteHostsSchema = z
  .string()
  .trim()
  .transform((value, ctx) => {
    const map: Record<string, string[]> = {};
    if (value === '') return map;
    for (const entry of value.split(';')) {
      const [site, hosts] = entry.split('=');
      if (!site?.trim() || !hosts?.trim()) {
        ctx.addIssue({ code: 'custom', message: `expected site=host[,host] but got "${entry}"` });
        return z.NEVER;
      }
      map[site.trim()] = hosts
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean);
    }
    return map;
  });

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
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
  const parsed = envSchema.safeParse(env);
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

/** A secret generated on first start and kept in the data folder, so sessions survive restarts. */
function persistentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch {
    // Not there yet: generate below.
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600, flag: 'w' });
  return secret;
}
