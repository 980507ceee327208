import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

/** A long enough secret, so tests that are not about the secret never write one to disk. */
const SECRET = 'a-test-secret-that-is-long-enough-0123456789';

const tempDirs: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'kattaus-config-test-'));
  tempDirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The message of the ConfigError `fn` throws; fails the test when it throws anything else. */
function configErrorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error('expected a ConfigError, but nothing was thrown');
}

describe('loadConfig defaults', () => {
  it('gives every variable a working default for the embedded set-up', () => {
    const config = loadConfig({ SESSION_SECRET: SECRET });
    expect(config.port).toBe(3000);
    expect(config.host).toBe('0.0.0.0');
    expect(config.env).toBe('production');
    expect(config.logLevel).toBe('info');
    expect(config.defaultSite).toBe('konsernifi');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.databasePoolSize).toBe(10);
    expect(config.sessionTtlDays).toBe(30);
    expect(config.requestTimeoutMs).toBe(120_000);
    expect(config.forms.bodyIdleTimeoutMs).toBe(5000);
    expect(config.trustProxy).toBe(false);
    expect(config.staffReauthMs).toBe(300_000);
    expect(config.siteHosts).toEqual({});
    expect(config.sessionSecret).toBe(SECRET);
  });

  it('resolves DATA_DIR to an absolute path', () => {
    const byDefault = loadConfig({ SESSION_SECRET: SECRET });
    expect(path.isAbsolute(byDefault.dataDir)).toBe(true);
    expect(byDefault.dataDir).toBe(path.resolve('data'));

    const relative = loadConfig({ SESSION_SECRET: SECRET, DATA_DIR: 'some/where' });
    expect(relative.dataDir).toBe(path.join(process.cwd(), 'some', 'where'));
  });

  it('reads an empty or blank DATABASE_URL as not set', () => {
    expect(loadConfig({ SESSION_SECRET: SECRET, DATABASE_URL: '' }).databaseUrl).toBeUndefined();
    expect(loadConfig({ SESSION_SECRET: SECRET, DATABASE_URL: '  ' }).databaseUrl).toBeUndefined();
  });

  it('reads empty or blank values of any variable as not set, so defaults apply', () => {
    const config = loadConfig({
      SESSION_SECRET: SECRET,
      PORT: '',
      DATABASE_POOL_SIZE: ' ',
      SESSION_TTL_DAYS: '',
      HOST: '  ',
      LOG_LEVEL: '',
      NODE_ENV: ' ',
      DEFAULT_SITE: '',
      TRUST_PROXY: '',
      SITE_HOSTS: ' ',
    });
    expect(config).toMatchObject({
      port: 3000,
      databasePoolSize: 10,
      sessionTtlDays: 30,
      host: '0.0.0.0',
      logLevel: 'info',
      slowRequestMs: 1000,
      env: 'production',
      defaultSite: 'konsernifi',
      trustProxy: false,
      siteHosts: {},
    });
  });

  it('takes given values', () => {
    const config = loadConfig({
      SESSION_SECRET: SECRET,
      PORT: '8080',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'debug',
      DATABASE_URL: 'postgresql://user@db.example:5432/kattaus',
      DEFAULT_SITE: 'sibylla',
      TRUST_PROXY: '1',
      NODE_ENV: 'test',
      STAFF_REAUTH_SECONDS: '120',
    });
    expect(() => loadConfig({ SESSION_SECRET: SECRET, STAFF_REAUTH_SECONDS: '0' })).toThrow(
      /STAFF_REAUTH_SECONDS/,
    );
    expect(config).toMatchObject({
      staffReauthMs: 120_000,
      port: 8080,
      host: '127.0.0.1',
      logLevel: 'debug',
      databaseUrl: 'postgresql://user@db.example:5432/kattaus',
      defaultSite: 'sibylla',
      trustProxy: 1,
      env: 'test',
    });
    expect(
      loadConfig({ SESSION_SECRET: SECRET, DATABASE_URL: 'postgres://h/db' }).databaseUrl,
    ).toBe('postgres://h/db');
  });
});

describe('REDIS_URL and REDIS_PREFIX', () => {
  it('Redis is off by default; its keys start with kattaus:', () => {
    const config = loadConfig({ SESSION_SECRET: SECRET });
    expect(config.redisUrl).toBeUndefined();
    expect(config.redisPrefix).toBe('kattaus:');
  });

  it('takes redis:// and rediss:// URLs and a prefix of its own', () => {
    const config = loadConfig({
      SESSION_SECRET: SECRET,
      REDIS_URL: 'rediss://:pw@cache.example:6380/2',
      REDIS_PREFIX: 'staging:',
    });
    expect(config.redisUrl).toBe('rediss://:pw@cache.example:6380/2');
    expect(config.redisPrefix).toBe('staging:');
    expect(loadConfig({ SESSION_SECRET: SECRET, REDIS_URL: ' ' }).redisUrl).toBeUndefined();
  });

  it('refuses other URLs and prefixes with spaces, naming the variable', () => {
    expect(() => loadConfig({ SESSION_SECRET: SECRET, REDIS_URL: 'http://cache:6379' })).toThrow(
      /REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL/,
    );
    expect(() => loadConfig({ SESSION_SECRET: SECRET, REDIS_PREFIX: 'a b' })).toThrow(
      /REDIS_PREFIX/,
    );
  });
});

describe('TRUST_PROXY', () => {
  const trustOf = (value: string) =>
    loadConfig({ SESSION_SECRET: SECRET, TRUST_PROXY: value }).trustProxy;

  it('takes false, a number of proxies or their addresses', () => {
    expect(trustOf('false')).toBe(false);
    expect(trustOf('0')).toBe(false);
    expect(trustOf('1')).toBe(1);
    expect(trustOf(' 2 ')).toBe(2);
    expect(trustOf('10.0.0.0/8, 192.168.1.5,fd00::/8')).toEqual([
      '10.0.0.0/8',
      '192.168.1.5',
      'fd00::/8',
    ]);
    expect(trustOf('loopback,uniquelocal')).toEqual(['loopback', 'uniquelocal']);
  });

  it('refuses true, saying what to give instead', () => {
    const message = configErrorOf(() => trustOf('true'));
    expect(message).toMatch(/TRUST_PROXY: .*number of proxies.*addresses/);
  });
});

describe('loadConfig refuses wrong values, naming the variable', () => {
  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['LOG_LEVEL', 'loud'],
    ['LOG_LEVEL', 'INFO'],
    ['DATABASE_URL', 'mysql://root@localhost/kattaus'],
    ['DATABASE_URL', 'localhost:5432'],
    ['SESSION_SECRET', 'too-short'],
    ['SESSION_SECRET', 'x'.repeat(31)],
    ['REQUEST_TIMEOUT_SECONDS', '0'],
    ['FORMS_BODY_IDLE_SECONDS', '0'],
    ['FORMS_BODY_IDLE_SECONDS', '1.5'],
    ['TRUST_PROXY', 'yes'],
    ['TRUST_PROXY', 'true'],
    ['TRUST_PROXY', '11'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', '10.0.0.1,example.com'],
    ['TRUST_PROXY', '300.1.1.1'],
    ['TRUST_PROXY', '::1/129'],
  ])('%s=%s', (name, value) => {
    const env: Record<string, string> = { SESSION_SECRET: SECRET, [name]: value };
    const message = configErrorOf(() => loadConfig(env));
    expect(message).toMatch(new RegExp(`^\\s+${name}: `, 'm'));
    // Only the wrong variable is named.
    expect(message.trim().split('\n')).toHaveLength(2);
  });

  it('names every wrong variable at once', () => {
    const message = configErrorOf(() =>
      loadConfig({ PORT: 'x', LOG_LEVEL: 'loud', SESSION_SECRET: 'short' }),
    );
    expect(message).toMatch(/^\s+PORT: /m);
    expect(message).toMatch(/^\s+LOG_LEVEL: /m);
    expect(message).toMatch(/^\s+SESSION_SECRET: /m);
  });

  it('accepts a secret of exactly 32 characters', () => {
    const secret = 's'.repeat(32);
    expect(loadConfig({ SESSION_SECRET: secret }).sessionSecret).toBe(secret);
  });
});

describe('SITE_HOSTS', () => {
  it('parses site=host[,host] entries separated by semicolons', () => {
    const config = loadConfig({
      SESSION_SECRET: SECRET,
      SITE_HOSTS: 'a=x.example,y.example;b=z.example',
    });
    expect(config.siteHosts).toEqual({ a: ['x.example', 'y.example'], b: ['z.example'] });
  });

  it('trims spaces and lower-cases host names', () => {
    const config = loadConfig({
      SESSION_SECRET: SECRET,
      SITE_HOSTS: ' sibylla = WWW.Sibylla.Example , sibylla.example ; lihakauppa=Shop.Example ',
    });
    expect(config.siteHosts).toEqual({
      sibylla: ['www.sibylla.example', 'sibylla.example'],
      lihakauppa: ['shop.example'],
    });
  });

  it('lower-cases and trims site ids', () => {
    const config = loadConfig({ SESSION_SECRET: SECRET, SITE_HOSTS: '  Sibylla =x.example' });
    expect(config.siteHosts).toEqual({ sibylla: ['x.example'] });
  });

  it('skips empty entries', () => {
    for (const value of [
      'a=x.example;',
      'a=x.example;;b=y.example',
      ';a=x.example; ;b=y.example;',
    ]) {
      const config = loadConfig({ SESSION_SECRET: SECRET, SITE_HOSTS: value });
      expect(config.siteHosts, value).toEqual(
        value.includes('b=') ? { a: ['x.example'], b: ['y.example'] } : { a: ['x.example'] },
      );
    }
    expect(loadConfig({ SESSION_SECRET: SECRET, SITE_HOSTS: ';;' }).siteHosts).toEqual({});
  });

  it.each([
    'sibylla',
    '=x.example',
    'sibylla=',
    'sibylla= , ',
    'sibylla=,;b=y.example',
    'sibylla=x.example=y.example',
    'sibylla==x.example',
    'a=x.example;sibylla=x=y',
  ])('refuses the malformed value %j', (value) => {
    const message = configErrorOf(() => loadConfig({ SESSION_SECRET: SECRET, SITE_HOSTS: value }));
    expect(message).toMatch(/^\s+SITE_HOSTS: /m);
  });
});

describe('SESSION_SECRET when unset', () => {
  it('generates a secret and keeps it in DATA_DIR with mode 0600', () => {
    const dir = tempDir();
    const first = loadConfig({ DATA_DIR: dir });
    expect(first.sessionSecret.length).toBeGreaterThanOrEqual(32);

    const file = path.join(dir, 'session-secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(first.sessionSecret);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const second = loadConfig({ DATA_DIR: dir });
    expect(second.sessionSecret).toBe(first.sessionSecret);
  });

  it('treats an empty SESSION_SECRET as unset', () => {
    const dir = tempDir();
    const config = loadConfig({ DATA_DIR: dir, SESSION_SECRET: '' });
    expect(config.sessionSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dir, 'session-secret'), 'utf8').trim()).toBe(
      config.sessionSecret,
    );
  });

  it('creates a missing DATA_DIR and gives each data folder its own secret', () => {
    const a = path.join(tempDir(), 'nested', 'data');
    const b = tempDir();
    const secretA = loadConfig({ DATA_DIR: a }).sessionSecret;
    const secretB = loadConfig({ DATA_DIR: b }).sessionSecret;
    expect(statSync(path.join(a, 'session-secret')).isFile()).toBe(true);
    expect(secretA).not.toBe(secretB);
  });

  it('keeps a secret that is already in DATA_DIR', () => {
    const dir = tempDir();
    const existing = 'e'.repeat(40);
    writeFileSync(path.join(dir, 'session-secret'), `${existing}\n`, { mode: 0o600 });
    expect(loadConfig({ DATA_DIR: dir }).sessionSecret).toBe(existing);
    expect(readFileSync(path.join(dir, 'session-secret'), 'utf8')).toBe(`${existing}\n`);
    expect(readdirSync(dir)).toEqual(['session-secret']);
  });

  it('replaces a too short secret in DATA_DIR with a new one in a 0600 file', () => {
    const dir = tempDir();
    const file = path.join(dir, 'session-secret');
    writeFileSync(file, 'short', { mode: 0o644 });
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.sessionSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(file, 'utf8').trim()).toBe(config.sessionSecret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // No temporary file is left behind.
    expect(readdirSync(dir)).toEqual(['session-secret']);
    expect(loadConfig({ DATA_DIR: dir }).sessionSecret).toBe(config.sessionSecret);
  });

  it('uses a given SESSION_SECRET without touching DATA_DIR', () => {
    const dir = tempDir();
    expect(loadConfig({ DATA_DIR: dir, SESSION_SECRET: SECRET }).sessionSecret).toBe(SECRET);
    expect(() => statSync(path.join(dir, 'session-secret'))).toThrow();
  });
});

describe('PAYMENT_PROVIDER', () => {
  it('is the built-in test bank by default', () => {
    expect(loadConfig({ SESSION_SECRET: SECRET }).payment).toEqual({
      provider: 'testbank',
      paytrail: undefined,
      shopOrderEmail: 'tilaukset@kattaus.localhost',
    });
  });

  it("SHOP_ORDER_EMAIL names the shop's order address; not an address is refused", () => {
    expect(
      loadConfig({ SESSION_SECRET: SECRET, SHOP_ORDER_EMAIL: 'kauppa@example.fi' }).payment
        .shopOrderEmail,
    ).toBe('kauppa@example.fi');
    expect(
      configErrorOf(() => loadConfig({ SESSION_SECRET: SECRET, SHOP_ORDER_EMAIL: 'kauppa' })),
    ).toMatch(/^\s+SHOP_ORDER_EMAIL: /m);
  });

  it("takes Paytrail's account, secret and API address", () => {
    const env = {
      SESSION_SECRET: SECRET,
      PAYMENT_PROVIDER: 'paytrail',
      PAYTRAIL_ACCOUNT: '375917',
      PAYTRAIL_SECRET: 'SAIPPUAKAUPPIAS',
    };
    expect(loadConfig(env).payment).toEqual({
      provider: 'paytrail',
      paytrail: {
        account: '375917',
        secret: 'SAIPPUAKAUPPIAS',
        apiUrl: 'https://services.paytrail.com',
      },
      shopOrderEmail: 'tilaukset@kattaus.localhost',
    });
    expect(
      loadConfig({ ...env, PAYTRAIL_API_URL: 'http://127.0.0.1:4010' }).payment.paytrail?.apiUrl,
    ).toBe('http://127.0.0.1:4010');
  });

  it('refuses paytrail without its account and secret at start-up, naming both', () => {
    const message = configErrorOf(() =>
      loadConfig({ SESSION_SECRET: SECRET, PAYMENT_PROVIDER: 'paytrail' }),
    );
    expect(message).toMatch(/^\s+PAYTRAIL_ACCOUNT: required when PAYMENT_PROVIDER=paytrail/m);
    expect(message).toMatch(/^\s+PAYTRAIL_SECRET: required when PAYMENT_PROVIDER=paytrail/m);
    expect(
      configErrorOf(() =>
        loadConfig({
          SESSION_SECRET: SECRET,
          PAYMENT_PROVIDER: 'paytrail',
          PAYTRAIL_ACCOUNT: '375917',
          PAYTRAIL_SECRET: ' ',
        }),
      ),
    ).toMatch(/^\s+PAYTRAIL_SECRET: /m);
  });

  it.each([
    ['PAYMENT_PROVIDER', 'stripe'],
    ['PAYTRAIL_ACCOUNT', 'abc'],
    ['PAYTRAIL_API_URL', 'ftp://paytrail.example'],
  ])('refuses %s=%s', (name, value) => {
    expect(configErrorOf(() => loadConfig({ SESSION_SECRET: SECRET, [name]: value }))).toMatch(
      new RegExp(`^\\s+${name}: `, 'm'),
    );
  });
});

describe('S3_BUCKET and its variables', () => {
  const KEY = '33'.repeat(32);
  const bucket = { SESSION_SECRET: SECRET, S3_BUCKET: 'kattaus-files', FORMS_ENCRYPTION_KEY: KEY };

  it('leaves the files in the local folder when unset', () => {
    const config = loadConfig({ SESSION_SECRET: SECRET });
    expect(config.s3).toBeUndefined();
    expect(config.filesDir).toBe(path.join(config.dataDir, 'files'));
  });

  it('takes the bucket with sensible defaults: AWS, us-east-1, the default credentials', () => {
    expect(loadConfig(bucket).s3).toEqual({
      bucket: 'kattaus-files',
      endpoint: undefined,
      region: 'us-east-1',
      credentials: undefined,
      forcePathStyle: false,
      prefix: '',
    });
  });

  it('takes an S3-compatible server, its key pair, path style and a prefix', () => {
    const config = loadConfig({
      ...bucket,
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_REGION: 'eu-north-1',
      S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
      S3_SECRET_ACCESS_KEY: 'secret/with+chars',
      S3_FORCE_PATH_STYLE: 'true',
      S3_PREFIX: 'kattaus/prod',
    });
    expect(config.s3).toEqual({
      bucket: 'kattaus-files',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-north-1',
      credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret/with+chars' },
      forcePathStyle: true,
      prefix: 'kattaus/prod/',
    });
  });

  it.each([
    ['S3_BUCKET', 'Kattaus_Files'],
    ['S3_BUCKET', 'ab'],
    ['S3_ENDPOINT', 'minio:9000'],
    ['S3_ENDPOINT', 'ftp://minio.example'],
    ['S3_REGION', 'EU North'],
    ['S3_FORCE_PATH_STYLE', 'yes'],
    ['S3_PREFIX', '/leading'],
    ['S3_PREFIX', 'a/../b'],
    ['S3_PREFIX', 'Upper'],
    ['S3_PREFIX', 'a//b'],
  ])('refuses %s=%s, naming it', (name, value) => {
    const message = configErrorOf(() => loadConfig({ ...bucket, [name]: value }));
    expect(message).toMatch(new RegExp(`^\\s+${name}: `, 'm'));
  });

  it('refuses the other S3 variables without S3_BUCKET', () => {
    const message = configErrorOf(() =>
      loadConfig({
        SESSION_SECRET: SECRET,
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_ACCESS_KEY_ID: 'a',
        S3_SECRET_ACCESS_KEY: 'b',
        S3_PREFIX: 'x',
      }),
    );
    for (const name of ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_PREFIX']) {
      expect(message).toMatch(new RegExp(`^\\s+${name}: set S3_BUCKET too`, 'm'));
    }
  });

  it('refuses half a key pair, naming the missing half', () => {
    expect(configErrorOf(() => loadConfig({ ...bucket, S3_ACCESS_KEY_ID: 'a' }))).toMatch(
      /^\s+S3_SECRET_ACCESS_KEY: required with S3_ACCESS_KEY_ID/m,
    );
    expect(configErrorOf(() => loadConfig({ ...bucket, S3_SECRET_ACCESS_KEY: 'b' }))).toMatch(
      /^\s+S3_ACCESS_KEY_ID: required with S3_SECRET_ACCESS_KEY/m,
    );
  });

  it('refuses FILES_DIR beside a bucket, and a bucket without FORMS_ENCRYPTION_KEY', () => {
    expect(configErrorOf(() => loadConfig({ ...bucket, FILES_DIR: '/srv/files' }))).toMatch(
      /^\s+FILES_DIR: /m,
    );
    const dir = tempDir();
    const message = configErrorOf(() =>
      loadConfig({ SESSION_SECRET: SECRET, S3_BUCKET: 'kattaus-files', DATA_DIR: dir }),
    );
    expect(message).toMatch(/^\s+FORMS_ENCRYPTION_KEY: required with S3_BUCKET/m);
    // Refused before any key was generated into the data folder.
    expect(readdirSync(dir)).toEqual([]);
  });
});
