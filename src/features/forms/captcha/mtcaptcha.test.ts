import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MtCaptchaProvider } from './mtcaptcha.server.ts';

/** A stand-in for MTCaptcha's token-check API on 127.0.0.1. */
let server: Server;
let checkUrl: string;
const seen: URLSearchParams[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    seen.push(url.searchParams);
    const token = url.searchParams.get('token');
    if (token === 'slow') return setTimeout(() => res.end('{}'), 10_000).unref();
    if (token === 'broken') {
      res.statusCode = 500;
      return res.end('oops');
    }
    res.setHeader('content-type', 'application/json');
    if (url.searchParams.get('privatekey') !== 'private-1') {
      return res.end(JSON.stringify({ success: false, fail_codes: ['invalid-privatekey'] }));
    }
    if (token === 'good') return res.end(JSON.stringify({ success: true, tokeninfo: {} }));
    if (token === 'old') {
      return res.end(JSON.stringify({ success: false, fail_codes: ['token-expired'] }));
    }
    return res.end(JSON.stringify({ success: false, fail_codes: ['token-invalid'] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  checkUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mtcv1/api/checktoken`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('MTCaptcha client', () => {
  const provider = () =>
    new MtCaptchaProvider({ siteKey: 'site-1', privateKey: 'private-1', checkUrl });

  it('accepts a token the API accepts, with the private key, and gives it an identity', async () => {
    const result = await provider().verify('good');
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.id).toMatch(/^[0-9a-f]{64}$/);
    expect(seen.at(-1)?.get('privatekey')).toBe('private-1');
    expect(provider().widget).toEqual({ provider: 'mtcaptcha', siteKey: 'site-1' });
  });

  it('refuses invalid, expired and missing tokens, and a failing API', async () => {
    expect(await provider().verify('forged')).toEqual({ ok: false, reason: 'invalid' });
    expect(await provider().verify('old')).toEqual({ ok: false, reason: 'expired' });
    expect(await provider().verify('')).toEqual({ ok: false, reason: 'missing' });
    expect(await provider().verify('broken')).toEqual({ ok: false, reason: 'unavailable' });
    const wrongKey = new MtCaptchaProvider({ siteKey: 's', privateKey: 'nope', checkUrl });
    expect((await wrongKey.verify('good')).ok).toBe(false);
  });

  it('gives up on a slow API', async () => {
    const started = Date.now();
    expect(await provider().verify('slow')).toEqual({ ok: false, reason: 'unavailable' });
    expect(Date.now() - started).toBeLessThan(8_000);
  }, 15_000);
});
