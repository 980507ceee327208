import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

/**
 * `form=value;form@site=value` lists: per form, optionally per site. Used for the forms'
 * recipients (`complaint=a@x.example,b@x.example;sales@foodservicese=c@x.example`), retention
 * days and success pages. Recipients and success pages are defaults: staff set their own per site
 * in the back office (`form_settings`, decision 170).
 */
const perFormSchema = z
  .string()
  .trim()
  .transform((value, ctx) => {
    const map: Record<string, string> = {};
    for (const raw of value.split(';')) {
      const entry = raw.trim();
      if (entry === '') continue;
      const eq = entry.indexOf('=');
      const key = eq === -1 ? '' : entry.slice(0, eq).trim().toLowerCase();
      const setting = eq === -1 ? '' : entry.slice(eq + 1).trim();
      if (!/^[a-z-]+(@[a-z0-9-]+)?$/.test(key) || setting === '') {
        ctx.addIssue({ code: 'custom', message: `expected form[@site]=value but got "${entry}"` });
        return z.NEVER;
      }
      map[key] = setting;
    }
    return map;
  });

const flag = z
  .enum(['true', 'false'])
  .default('false')
  .transform((v) => v === 'true');

/** 32 bytes as 64 hexadecimal digits or base64. */
const keySchema = z
  .string()
  .optional()
  .refine((v) => v === undefined || keyBytes(v) !== undefined, {
    message: 'must be 32 bytes as 64 hex digits or base64',
  });

function keyBytes(value: string): Buffer | undefined {
  const v = value.trim();
  const bytes = /^[0-9a-f]{64}$/i.test(v) ? Buffer.from(v, 'hex') : Buffer.from(v, 'base64');
  return bytes.length === 32 ? bytes : undefined;
}

const formsEnv = {
  CAPTCHA_PROVIDER: z.enum(['altcha', 'mtcaptcha']).default('altcha'),
  ALTCHA_HMAC_KEY: z
    .string()
    .optional()
    .refine((v) => v === undefined || v.length >= 32, {
      message: 'must be at least 32 characters',
    }),
  ALTCHA_MAX_NUMBER: z.coerce.number().int().min(100).max(10_000_000).default(50_000),
  MTCAPTCHA_SITE_KEY: z.string().optional(),
  MTCAPTCHA_PRIVATE_KEY: z.string().optional(),
  MTCAPTCHA_CHECK_URL: z.url().default('https://service.mtcaptcha.com/mtcv1/api/checktoken'),
  FORMS_ENCRYPTION_KEY: keySchema,
  SMTP_URL: z
    .string()
    .trim()
    .optional()
    .refine((v) => v === undefined || /^smtps?:\/\//.test(v), {
      message: 'must be an smtp:// or smtps:// URL',
    }),
  MAIL_FROM: z.string().min(3).default('Kattaus <no-reply@kattaus.localhost>'),
  FORM_RECIPIENTS: perFormSchema.prefault(''),
  FORM_DEFAULT_RECIPIENT: z.email().default('asiakaspalvelu@kattaus.localhost'),
  FORM_RETENTION_DAYS: perFormSchema
    .prefault('')
    .refine((m) => Object.values(m).every((v) => /^[1-9]\d{0,4}$/.test(v)), {
      message: 'each value must be a number of days',
    }),
  FORM_SUCCESS_PAGES: perFormSchema.prefault(''),
  FORMS_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(10),
  FORMS_MAX_LARGE_BODIES: z.coerce.number().int().min(1).max(1000).default(4),
  FORMS_BODY_IDLE_SECONDS: z.coerce.number().int().min(1).max(300).default(5),
  DEV_OUTBOX_PAGE: flag,
  DEV_SUBMISSIONS_API: flag,
};

export interface FormsConfig {
  captchaProvider: 'altcha' | 'mtcaptcha';
  /** Signs ALTCHA challenges; generated once into `DATA_DIR/altcha-hmac-key` when unset. */
  altchaHmacKey: string;
  /** Upper bound of the proof-of-work counter: the work a browser does, on average half this. */
  altchaMaxNumber: number;
  mtcaptcha: { siteKey: string; privateKey: string; checkUrl: string } | undefined;
  /** AES-256-GCM key for submissions at rest; generated into `DATA_DIR/forms-key` when unset. */
  encryptionKey: Buffer;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** `form` or `form@site` → comma-separated addresses; the default of staff's settings. */
  recipients: Record<string, string>;
  defaultRecipient: string;
  /** `form` or `form@site` → days. */
  retentionDays: Record<string, string>;
  /**
   * `form` or `form@site` → path of the page shown after a successful submit, in every language;
   * the default of staff's settings per language.
   */
  successPages: Record<string, string>;
  /** Submissions per client and form endpoint per minute. */
  rateLimit: number;
  /** Requests with a body over 1 MB processed at once; more answer 503 with Retry-After. */
  maxLargeBodies: number;
  /**
   * A body over 1 MB that brings less than 32 KiB in this long (it went quiet, or trickles) is
   * answered 408 and gives its slot back.
   */
  bodyIdleTimeoutMs: number;
  /** The outbox page /dev/outbox outside development. */
  devOutboxPage: boolean;
  /** The JSON list of stored submissions /dev/submissions outside development (browser tests). */
  devSubmissionsApi: boolean;
}

type FormsEnv = z.output<z.ZodObject<typeof formsEnv>>;

/** Generated keys are read or written only when first used, so loading the config touches no file. */
function formsConfig(e: FormsEnv, dataDir: string): FormsConfig {
  const given = e.FORMS_ENCRYPTION_KEY ? keyBytes(e.FORMS_ENCRYPTION_KEY) : undefined;
  let altchaHmacKey = e.ALTCHA_HMAC_KEY || undefined;
  let encryptionKey = given;
  return {
    captchaProvider: e.CAPTCHA_PROVIDER,
    get altchaHmacKey() {
      altchaHmacKey ??= persistentSecret(dataDir, 'altcha-hmac-key');
      return altchaHmacKey;
    },
    altchaMaxNumber: e.ALTCHA_MAX_NUMBER,
    mtcaptcha:
      e.MTCAPTCHA_SITE_KEY && e.MTCAPTCHA_PRIVATE_KEY
        ? {
            siteKey: e.MTCAPTCHA_SITE_KEY,
            privateKey: e.MTCAPTCHA_PRIVATE_KEY,
            checkUrl: e.MTCAPTCHA_CHECK_URL,
          }
        : undefined,
    get encryptionKey() {
      encryptionKey ??= Buffer.from(persistentSecret(dataDir, 'forms-key'), 'base64url').subarray(
        0,
        32,
      );
      return encryptionKey;
    },
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    recipients: e.FORM_RECIPIENTS,
    defaultRecipient: e.FORM_DEFAULT_RECIPIENT,
    retentionDays: e.FORM_RETENTION_DAYS,
    successPages: e.FORM_SUCCESS_PAGES,
    rateLimit: e.FORMS_RATE_LIMIT,
    maxLargeBodies: e.FORMS_MAX_LARGE_BODIES,
    bodyIdleTimeoutMs: e.FORMS_BODY_IDLE_SECONDS * 1000,
    devOutboxPage: e.DEV_OUTBOX_PAGE,
    devSubmissionsApi: e.DEV_SUBMISSIONS_API,
  };
}

/** Paytrail's API, unless `PAYTRAIL_API_URL` points elsewhere (a stand-in in tests). */
const PAYTRAIL_API_URL = 'https://services.paytrail.com';

/** The payment provider (decision 024): the built-in test bank by default, or Paytrail. */
const paymentEnv = {
  PAYMENT_PROVIDER: z.enum(['testbank', 'paytrail']).default('testbank'),
  PAYTRAIL_ACCOUNT: z
    .string()
    .trim()
    .regex(/^\d{1,12}$/, { message: 'must be the Paytrail account number' })
    .optional(),
  PAYTRAIL_SECRET: z.string().optional(),
  PAYTRAIL_API_URL: z.url({ protocol: /^https?$/ }).default(PAYTRAIL_API_URL),
  /** Where the shop hears of paid orders and of payments that came too late (decision 028). */
  SHOP_ORDER_EMAIL: z.email().default('tilaukset@kattaus.localhost'),
  /**
   * Whether a shopper's review waits for a moderator (`pre`) or shows at once and may be taken
   * down afterwards (`post`); decision 148.
   */
  SHOP_REVIEW_MODERATION: z.enum(['pre', 'post']).default('pre'),
};

export interface PaymentConfig {
  provider: 'testbank' | 'paytrail';
  /** Set when the provider is Paytrail: start-up refuses `paytrail` without account and secret. */
  paytrail: { account: string; secret: string; apiUrl: string } | undefined;
  /** The shop's address for order notifications (`SHOP_ORDER_EMAIL`). */
  shopOrderEmail: string;
}

/** `PAYMENT_PROVIDER=paytrail` needs the merchant's account and secret. */
function requirePaytrailKeys(
  e: { PAYMENT_PROVIDER: string; PAYTRAIL_ACCOUNT?: string; PAYTRAIL_SECRET?: string },
  ctx: z.RefinementCtx,
) {
  if (e.PAYMENT_PROVIDER !== 'paytrail') return;
  for (const name of ['PAYTRAIL_ACCOUNT', 'PAYTRAIL_SECRET'] as const) {
    if (!e[name]) {
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: 'required when PAYMENT_PROVIDER=paytrail',
      });
    }
  }
}

/**
 * Files on an S3-compatible bucket (decision 031) when `S3_BUCKET` is set; the local folder
 * (`FILES_DIR`, by default `DATA_DIR/files`) otherwise.
 */
const s3Env = {
  S3_BUCKET: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, {
      message: 'must be a bucket name: 3–63 lower-case letters, digits, dots and hyphens',
    })
    .optional(),
  /** An S3-compatible server (MinIO, Ceph, Garage, a cloud's object storage); AWS when unset. */
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_REGION: z
    .string()
    .trim()
    .regex(/^[a-z0-9-]{1,40}$/, { message: 'must be a region name such as eu-north-1' })
    .default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().trim().optional(),
  S3_SECRET_ACCESS_KEY: z.string().trim().optional(),
  S3_FORCE_PATH_STYLE: flag,
  /** A folder inside the bucket for this installation's files (`kattaus/`). */
  S3_PREFIX: z
    .string()
    .trim()
    .regex(/^(?!.*\.\.)(?!.*\/\/)[a-z0-9][a-z0-9/_.-]{0,99}$/, {
      message:
        'must be lower-case letters, digits, "-", "_", "." and "/", starting with a letter or digit',
    })
    .optional(),
};

export interface S3Config {
  bucket: string;
  /** Unset: AWS's own endpoint for the region. */
  endpoint: string | undefined;
  region: string;
  /** Unset: the SDK's default credential chain (AWS_* variables, shared files, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** `bucket` in the path instead of the host name; most S3-compatible servers need it. */
  forcePathStyle: boolean;
  /** Put before every key: '' or ending in '/'. */
  prefix: string;
}

/**
 * The S3 variables go together: any of them without `S3_BUCKET` is a mistake, the two halves of
 * the key pair come together, and `FILES_DIR` names a second store. Files kept in a bucket shared
 * by several processes are sealed with the forms key, which must then be the same in all of them
 * instead of one generated into each process's own data folder.
 */
function requireS3Settings(
  e: Partial<Record<keyof typeof s3Env | 'FILES_DIR' | 'FORMS_ENCRYPTION_KEY', unknown>>,
  ctx: z.RefinementCtx,
) {
  const issue = (name: string, message: string) =>
    ctx.addIssue({ code: 'custom', path: [name], message });
  if (!e.S3_BUCKET) {
    for (const name of [
      'S3_ENDPOINT',
      'S3_ACCESS_KEY_ID',
      'S3_SECRET_ACCESS_KEY',
      'S3_PREFIX',
    ] as const) {
      if (e[name] !== undefined) issue(name, 'set S3_BUCKET too, or leave this unset');
    }
    return;
  }
  if (e.S3_ACCESS_KEY_ID && !e.S3_SECRET_ACCESS_KEY) {
    issue('S3_SECRET_ACCESS_KEY', 'required with S3_ACCESS_KEY_ID');
  }
  if (e.S3_SECRET_ACCESS_KEY && !e.S3_ACCESS_KEY_ID) {
    issue('S3_ACCESS_KEY_ID', 'required with S3_SECRET_ACCESS_KEY');
  }
  if (e.FILES_DIR !== undefined) {
    issue('FILES_DIR', 'files are in S3_BUCKET; unset FILES_DIR or S3_BUCKET');
  }
  if (e.FORMS_ENCRYPTION_KEY === undefined) {
    issue(
      'FORMS_ENCRYPTION_KEY',
      'required with S3_BUCKET: the files in the bucket are sealed with it, so every process needs the same key',
    );
  }
}

function s3Config(e: z.output<z.ZodObject<typeof s3Env>>): S3Config | undefined {
  if (!e.S3_BUCKET) return undefined;
  return {
    bucket: e.S3_BUCKET,
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    credentials:
      e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
        : undefined,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    prefix: e.S3_PREFIX ? `${e.S3_PREFIX.replace(/\/+$/, '')}/` : '',
  };
}

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

/** proxy-addr's names for address ranges, accepted in `TRUST_PROXY` lists. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An IPv4 or IPv6 address, optionally with a prefix length (`10.0.0.0/8`, `fd00::/8`). */
function isAddressOrRange(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * Which hops of `X-Forwarded-For` to believe: `false` none (the socket's peer is the client); a
 * number of proxies in front of the server (`1`: one load balancer; the client is the address it
 * appended); or the proxies' addresses and ranges. `true` would believe every hop, including any the
 * client wrote itself, so anyone could pick their own address and slip past per-address limits: it
 * is refused with a pointer to the two safe forms.
 */
const trustProxySchema = z
  .string()
  .trim()
  .transform((value, ctx): false | number | string[] => {
    const v = value.toLowerCase();
    if (v === 'false' || v === '0') return false;
    if (v === 'true') {
      ctx.addIssue({
        code: 'custom',
        message:
          '"true" would trust every X-Forwarded-For hop, which a client can write itself; give the number of proxies in front of the server (for example 1) or their addresses (10.0.0.0/8,192.168.1.5)',
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(v)) {
      const hops = Number(v);
      if (hops > 10) {
        ctx.addIssue({ code: 'custom', message: 'at most 10 proxies' });
        return z.NEVER;
      }
      return hops;
    }
    const entries = v
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const wrong = entries.find((e) => !isAddressOrRange(e));
    if (entries.length === 0 || wrong !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `expected false, a number of proxies or a list of addresses, but got "${wrong ?? value}"`,
      });
      return z.NEVER;
    }
    return entries;
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
  REDIS_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || /^rediss?:\/\//.test(v), {
      message: 'must be a redis:// or rediss:// URL',
    }),
  REDIS_PREFIX: z
    .string()
    .trim()
    .regex(/^[\w.:-]{1,64}$/, { message: 'letters, digits and . : _ - only, at most 64' })
    .default('kattaus:'),
  SESSION_SECRET: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || v.length >= 32, {
      message: 'must be at least 32 characters',
    }),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(3600).default(120),
  SEARCH_RATE_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(300),
  IMAGE_MISS_RATE_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(120),
  PAGE_CACHE_MB: z.coerce.number().int().min(0).max(100_000).default(64),
  LOG_LEVEL: z.enum(logLevels).default('info'),
  SLOW_REQUEST_MS: z.coerce.number().int().min(1).max(3_600_000).default(1000),
  SITE_HOSTS: siteHostsSchema.prefault(''),
  DEFAULT_SITE: z.string().min(1).default('konsernifi'),
  TRUST_PROXY: trustProxySchema.prefault('false'),
  /** The back office's address in links to staff (the enrolment link the command prints). */
  ADMIN_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Single sign-on for staff with OpenID Connect (decision 134): all three or none. */
  /** How long a password or code given again opens sensitive staff actions (decision 130). */
  STAFF_REAUTH_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
  STAFF_OIDC_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
  STAFF_OIDC_CLIENT_ID: z.string().trim().min(1).optional(),
  STAFF_OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  ...formsEnv,
  ...paymentEnv,
  ...s3Env,
});

/** The variables, with the checks that span several of them. */
const checkedEnvSchema = envSchema.superRefine((e, ctx) => {
  requirePaytrailKeys(e, ctx);
  requireS3Settings(e, ctx);
  requireAllOrNone(
    e,
    ['STAFF_OIDC_ISSUER', 'STAFF_OIDC_CLIENT_ID', 'STAFF_OIDC_CLIENT_SECRET'] as const,
    ctx,
  );
});

/** Variables that only work together: set all of them, or none. */
function requireAllOrNone<K extends string>(
  e: Partial<Record<K, unknown>>,
  names: readonly K[],
  ctx: z.RefinementCtx,
) {
  const set = names.filter((name) => e[name] !== undefined);
  if (set.length === 0 || set.length === names.length) return;
  for (const name of names) {
    if (e[name] === undefined) {
      ctx.addIssue({ code: 'custom', path: [name], message: `required with ${set.join(', ')}` });
    }
  }
}

export type Env = z.input<typeof envSchema>;

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  /** The local file store (uploads, images and their resized variants) when `s3` is unset. */
  filesDir: string;
  /** The files on an S3-compatible bucket instead of `filesDir` (`S3_BUCKET`). */
  s3: S3Config | undefined;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /**
   * Redis, through which the processes behind one load balancer share rate limits and the upload
   * gate (`REDIS_URL`); unset: each process counts in its own memory.
   */
  redisUrl: string | undefined;
  /** Prefix of every key this deployment writes to Redis (`REDIS_PREFIX`). */
  redisPrefix: string;
  sessionSecret: string;
  sessionTtlDays: number;
  /** The whole request (headers and body) must arrive within this; otherwise 408. */
  requestTimeoutMs: number;
  /** Search and facet requests per client and minute, all endpoints together. */
  searchRateLimit: number;
  /** Image requests per client and minute that are not in the variant cache. */
  imageMissRateLimit: number;
  /** Bytes the page cache of anonymous visitors' pages may hold (decision 033); 0: off. */
  pageCacheBytes: number;
  logLevel: (typeof logLevels)[number];
  /** A request that takes this long or longer is logged as slow (warn); faster ones at debug. */
  slowRequestMs: number;
  siteHosts: Record<string, string[]>;
  defaultSite: string;
  /**
   * Which `X-Forwarded-For` hops to believe for the client's address: none, the last `n` (the
   * number of proxies), or those appended by the listed proxy addresses (`TRUST_PROXY`).
   */
  trustProxy: false | number | string[];
  /**
   * The back office's address (`ADMIN_URL`, e.g. `https://www.example.fi/admin`) for links sent
   * to staff; unset: the address a request came to, or `http://localhost:PORT/admin`.
   */
  adminUrl: string | undefined;
  /**
   * How long after the password or a code was last given sensitive staff actions stay open
   * (`STAFF_REAUTH_SECONDS`, 5 minutes unless set), in milliseconds.
   */
  staffReauthMs: number;
  /** Staff single sign-on (`STAFF_OIDC_*`); unset: password sign-in only. */
  staffOidc: { issuer: string; clientId: string; clientSecret: string } | undefined;
  forms: FormsConfig;
  payment: PaymentConfig;
  /**
   * The shop's review moderation (`SHOP_REVIEW_MODERATION`, decision 148): `pre` keeps a new
   * review hidden until staff approve it, `post` publishes it at once.
   */
  reviewModeration: 'pre' | 'post';
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
  const parsed = checkedEnvSchema.safeParse(given);
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
    s3: s3Config(e),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    sessionSecret: e.SESSION_SECRET || persistentSecret(dataDir),
    sessionTtlDays: e.SESSION_TTL_DAYS,
    requestTimeoutMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
    searchRateLimit: e.SEARCH_RATE_LIMIT,
    imageMissRateLimit: e.IMAGE_MISS_RATE_LIMIT,
    pageCacheBytes: e.PAGE_CACHE_MB * 1024 * 1024,
    logLevel: e.LOG_LEVEL,
    slowRequestMs: e.SLOW_REQUEST_MS,
    siteHosts: e.SITE_HOSTS,
    defaultSite: e.DEFAULT_SITE,
    trustProxy: e.TRUST_PROXY,
    adminUrl: e.ADMIN_URL,
    staffReauthMs: e.STAFF_REAUTH_SECONDS * 1000,
    staffOidc:
      e.STAFF_OIDC_ISSUER && e.STAFF_OIDC_CLIENT_ID && e.STAFF_OIDC_CLIENT_SECRET
        ? {
            issuer: e.STAFF_OIDC_ISSUER,
            clientId: e.STAFF_OIDC_CLIENT_ID,
            clientSecret: e.STAFF_OIDC_CLIENT_SECRET,
          }
        : undefined,
    forms: formsConfig(e, dataDir),
    payment: {
      provider: e.PAYMENT_PROVIDER,
      paytrail:
        e.PAYMENT_PROVIDER === 'paytrail' && e.PAYTRAIL_ACCOUNT && e.PAYTRAIL_SECRET
          ? { account: e.PAYTRAIL_ACCOUNT, secret: e.PAYTRAIL_SECRET, apiUrl: e.PAYTRAIL_API_URL }
          : undefined,
      shopOrderEmail: e.SHOP_ORDER_EMAIL,
    },
    reviewModeration: e.SHOP_REVIEW_MODERATION,
  };
}

/**
 * A secret generated on first start and kept in the data folder, so sessions survive restarts.
 * Processes starting at once on a fresh folder agree on one secret: each writes its candidate to
 * a temporary file and hard-links it into place, which fails with EEXIST for all but the first,
 * and the others read the winner's. Unlike writing the file itself with flag 'wx', no process can
 * see it created but still empty.
 */
function persistentSecret(dataDir: string, name = 'session-secret'): string {
  const file = path.join(dataDir, name);
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
