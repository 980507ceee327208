import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/helpers/app.ts';
import type { Config } from './config.ts';
import { isPrivateAddress } from './trust-proxy.ts';

const apps: TestApp[] = [];

/** An app with `TRUST_PROXY` set, a route answering the client address and a rate-limited one. */
async function appTrusting(trustProxy: Config['trustProxy']) {
  const t = await createTestApp({
    config: { trustProxy },
    extend(app) {
      app.get('/api/test/ip', { config: { session: false } }, async (request) => ({
        ip: request.ip,
        protocol: request.protocol,
      }));
      app.get(
        '/api/test/limited',
        { config: { session: false, rateLimit: { max: 3, timeWindow: 60_000 } } },
        async () => ({ ok: true }),
      );
    },
  });
  apps.push(t);
  return t;
}

let none: TestApp;
let oneHop: TestApp;
let listed: TestApp;

beforeAll(async () => {
  none = await appTrusting(false);
  oneHop = await appTrusting(1);
  listed = await appTrusting(['10.1.2.3', '192.168.0.0/16']);
});
afterAll(async () => {
  for (const t of apps) await t.close();
});

async function ipSeenBy(t: TestApp, remoteAddress: string, forwardedFor?: string) {
  const res = await t.app.inject({
    url: '/api/test/ip',
    remoteAddress,
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor, 'x-forwarded-proto': 'https' } : {},
  });
  return res.json() as { ip: string; protocol: string };
}

describe('the client address behind proxies', () => {
  it('without TRUST_PROXY is the connection’s peer, whatever the client writes', async () => {
    expect((await ipSeenBy(none, '10.1.2.3', '203.0.113.7')).ip).toBe('10.1.2.3');
  });

  it('with one proxy is the hop the load balancer appended, not the hops before it', async () => {
    const seen = await ipSeenBy(oneHop, '10.1.2.3', '198.51.100.66, 203.0.113.7');
    expect(seen).toEqual({ ip: '203.0.113.7', protocol: 'https' });
  });

  it('with one proxy believes nothing from a client that reaches the server directly', async () => {
    const seen = await ipSeenBy(oneHop, '198.51.100.9', '203.0.113.7');
    expect(seen).toEqual({ ip: '198.51.100.9', protocol: 'http' });
  });

  it('with listed proxies believes the hops they appended and no further', async () => {
    expect((await ipSeenBy(listed, '10.1.2.3', '198.51.100.66, 203.0.113.7')).ip).toBe(
      '203.0.113.7',
    );
    // A chain of two listed proxies: the address the outer one saw.
    expect((await ipSeenBy(listed, '10.1.2.3', '198.51.100.66, 203.0.113.7, 192.168.4.4')).ip).toBe(
      '203.0.113.7',
    );
    // A peer that is not a listed proxy is the client itself.
    expect((await ipSeenBy(listed, '10.9.9.9', '203.0.113.7')).ip).toBe('10.9.9.9');
  });

  it.each([
    ['one proxy', () => oneHop],
    ['listed proxies', () => listed],
  ])(
    'with %s, a made-up X-Forwarded-For does not escape a per-address limit',
    async (_name, app) => {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await app().app.inject({
          url: '/api/test/limited',
          remoteAddress: '10.1.2.3',
          // The client writes a new address each time; the load balancer appends the real one.
          headers: { 'x-forwarded-for': `198.51.100.${i + 1}, 203.0.113.50` },
        });
        statuses.push(res.statusCode);
        if (res.statusCode === 429) {
          expect(res.headers['content-type']).toContain('application/problem+json');
        }
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    },
  );
});

describe('private addresses', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.20.30.40', true],
    ['172.31.255.1', true],
    ['172.32.0.1', false],
    ['192.168.1.1', true],
    ['::1', true],
    ['::ffff:10.0.0.1', true],
    ['::ffff:8.8.8.8', false],
    ['fd12::1', true],
    ['2001:db8::1', false],
    ['203.0.113.7', false],
    ['', false],
  ])('%s is private: %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});
