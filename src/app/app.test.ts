import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieHeader, cookieValue, createTestApp, type TestApp } from '../../tests/helpers/app.ts';
import { arrive } from '../../tests/helpers/visitor.ts';
import { Invalid } from '../server/errors.ts';
import { SESSION_COOKIE } from '../server/plugins/sessions.ts';
import { XSRF_COOKIE } from '../server/plugins/xsrf.ts';
import { sites } from '../sites/registry.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    extend(app) {
      app.post('/api/test/echo', async (request) => ({ ok: true, body: request.body }));
      app.get('/api/test/boom', async () => {
        throw new Error('select * from secret_table where password = 1');
      });
      app.get('/api/test/invalid', async () => {
        throw new Invalid({ 'Data.Email': 'validation.required' });
      });
      app.get('/test/boom-page', async () => {
        throw new Error('a page failed');
      });
    },
  });
});

afterAll(() => t.close());

describe('health', () => {
  it('answers 200 when the database answers', async () => {
    const res = await t.app.inject('/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok' });
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});

describe('sites', () => {
  it.each(sites.map((s) => [s.id, s] as const))(
    '%s answers on <site>.localhost with its title, lang and theme',
    async (id, site) => {
      const res = await t.app.inject({ url: '/', headers: { host: `${id}.localhost:3000` } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      const html = res.body;
      expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
      expect(html).toContain(`<html lang="${site.languages[0]}" data-site="${id}">`);
      expect(html).toContain(`<title>${site.name.replace('&', '&amp;')}</title>`);
      expect(html).toContain(`--color-brand:${site.theme.brand}`);
      expect(html).toMatch(/<svg[^>]+data-logo="/);
      // A site that sells through the shop has the header that syncs its cart (decision 160).
      expect(html).toMatch(/<k-island data-name="site-header(-synced)?"/);
    },
  );

  it('serves the Finnish corporate site on plain localhost, linking to every other site', async () => {
    const res = await t.app.inject({ url: '/', headers: { host: 'localhost:3000' } });
    expect(res.body).toContain('data-site="konsernifi"');
    for (const site of sites) {
      expect(res.body).toContain(`href="http://${site.id}.localhost:3000/"`);
    }
  });

  it('takes the language from the first path segment', async () => {
    const en = await t.app.inject({ url: '/en/', headers: { host: 'sibylla.localhost' } });
    expect(en.body).toContain('<html lang="en"');
    expect(en.body).toContain('>Suomeksi</a>');
    const sv = await t.app.inject({ url: '/sv/', headers: { host: 'sibylla.localhost' } });
    expect(sv.body).toContain('<html lang="sv"');
    expect(sv.body).toContain('data-logo="sibylla-sv"');
    const fi = await t.app.inject({ url: '/', headers: { host: 'sibylla.localhost' } });
    expect(fi.body).toContain('>In English</a>');
    const redirect = await t.app.inject({ url: '/en', headers: { host: 'sibylla.localhost' } });
    expect(redirect.statusCode).toBe(301);
    expect(redirect.headers.location).toBe('/en/');
  });

  it('answers an unknown page with the site’s 404 page in its language', async () => {
    const fi = await t.app.inject({ url: '/ei-ole', headers: { host: 'lihakauppa.localhost' } });
    expect(fi.statusCode).toBe(404);
    expect(fi.body).toContain('Sivua ei löytynyt');
    expect(fi.body).toContain('data-site="lihakauppa"');
    const sv = await t.app.inject({
      url: '/finns-inte',
      headers: { host: 'lithellsse.localhost' },
    });
    expect(sv.statusCode).toBe(404);
    expect(sv.body).toContain('<html lang="sv"');
    expect(sv.body).toContain('Sidan hittades inte');
  });

  it('answers a failing page with the 500 page and no internals', async () => {
    const res = await t.app.inject({
      url: '/test/boom-page',
      headers: { host: 'export.localhost' },
    });
    expect(res.statusCode).toBe(500);
    expect(res.body).toContain('Something went wrong');
    expect(res.body).not.toContain('a page failed');
  });
});

describe('problem+json', () => {
  it('answers an unknown /api path with 404 problem+json', async () => {
    const res = await t.app.inject('/api/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({
      type: '/problems/not-found',
      status: 404,
      title: 'Not found',
    });
  });

  it('hides the details of a 500', async () => {
    const res = await t.app.inject('/api/test/boom');
    expect(res.statusCode).toBe(500);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body).not.toMatch(/secret_table|password|at .*\.ts/);
    expect(res.json()).toMatchObject({ status: 500, title: 'Internal server error' });
  });

  it('names each invalid field', async () => {
    const res = await t.app.inject('/api/test/invalid');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      status: 400,
      errors: { 'Data.Email': 'validation.required' },
    });
  });
});

describe('anti-forgery', () => {
  it('refuses a POST to /api without X-XSRF-TOKEN with 403 problem+json', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/test/echo', payload: { a: 1 } });
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ type: '/problems/xsrf', status: 403 });
  });

  it('passes the same POST with the cookie’s token, and refuses another session’s token', async () => {
    const page = await t.app.inject('/');
    const token = cookieValue(page, XSRF_COOKIE);
    expect(token).toBeTruthy();
    expect(cookieValue(page, SESSION_COOKIE)).toBeTruthy();
    const sessionCookie = page.cookies.find((c) => c.name === SESSION_COOKIE);
    expect(sessionCookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    expect(page.cookies.find((c) => c.name === XSRF_COOKIE)?.httpOnly).toBeFalsy();

    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: { a: 1 },
      headers: { cookie: cookieHeader(page), 'x-xsrf-token': token },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ ok: true, body: { a: 1 } });

    const other = await t.app.inject('/');
    const mixed = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: { a: 1 },
      headers: { cookie: cookieHeader(page), 'x-xsrf-token': cookieValue(other, XSRF_COOKIE) },
    });
    expect(mixed.statusCode).toBe(403);
  });

  it('does not ask a GET for the token', async () => {
    const res = await t.app.inject('/api/test/invalid');
    expect(res.statusCode).toBe(400);
  });
});

describe('request handling', () => {
  it('answers a body over the limit with 413 problem+json', async () => {
    const visitor = await arrive(t.app);
    const res = await visitor.post('/api/test/echo', {
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ text: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.headers['content-type']).toContain('application/problem+json');
  });

  it('answers broken JSON with 400 problem+json', async () => {
    const visitor = await arrive(t.app);
    const res = await visitor.post('/api/test/echo', {
      headers: { 'content-type': 'application/json' },
      payload: '{"a":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, detail: 'The body is not valid JSON.' });
  });

  it('sends security headers with a CSP that allows no inline script', async () => {
    const res = await t.app.inject('/');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('lets the other sites frame the shop (cart sync) and nobody else frame anything', async () => {
    const csp = async (host: string) =>
      String(
        (await t.app.inject({ url: '/health', headers: { host } })).headers[
          'content-security-policy'
        ],
      );
    const shop = await csp('lihakauppa.localhost:3000');
    expect(shop).toMatch(/frame-ancestors 'self'[^;]* sibylla\.localhost:\*/);
    expect(shop).not.toMatch(/frame-ancestors[^;]*lihakauppa\.localhost/);
    const brand = await csp('sibylla.localhost:3000');
    expect(brand).toContain("frame-ancestors 'self';");
    expect(brand).toMatch(/frame-src 'self' lihakauppa\.localhost:\*/);
    expect(brand).not.toMatch(/frame-src[^;]*sibylla/);
  });

  it('keeps a sane request id from the client and replaces a bad one', async () => {
    const kept = await t.app.inject({ url: '/health', headers: { 'x-request-id': 'lb-1234' } });
    expect(kept.headers['x-request-id']).toBe('lb-1234');
    const replaced = await t.app.inject({
      url: '/health',
      headers: { 'x-request-id': '<script>' },
    });
    expect(replaced.headers['x-request-id']).not.toBe('<script>');
  });

  it('serves the site’s favicon', async () => {
    const res = await t.app.inject({ url: '/favicon.svg', headers: { host: 'sibylla.localhost' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('image/svg+xml');
    expect(res.body).toContain('#d52b1e');
    // The initial is drawn, not written: no font is needed to show it.
    expect(res.body).not.toContain('<text');
  });

  it('links the pages to a PNG of the favicon, made once per site', async () => {
    const page = await t.app.inject({ url: '/', headers: { host: 'sibylla.localhost' } });
    expect(page.body).toContain(
      '<link rel="icon" href="/favicon.png" type="image/png" sizes="96x96"/>',
    );
    const res = await t.app.inject({ url: '/favicon.png', headers: { host: 'sibylla.localhost' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 96, 96]);
    // The brand colour fills the corner's inside: sibylla's red.
    const { data } = await sharp(res.rawPayload)
      .extract({ left: 48, top: 4, width: 1, height: 1 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)]).toEqual([0xd5, 0x2b, 0x1e]);
    const again = await t.app.inject({
      url: '/favicon.png',
      headers: { host: 'sibylla.localhost' },
    });
    expect(again.rawPayload.equals(res.rawPayload)).toBe(true);
    const other = await t.app.inject({
      url: '/favicon.png',
      headers: { host: 'lihakauppa.localhost' },
    });
    expect(other.rawPayload.equals(res.rawPayload)).toBe(false);
    // A document without an icon link makes the browser ask for /favicon.ico: the same picture.
    const ico = await t.app.inject({ url: '/favicon.ico', headers: { host: 'sibylla.localhost' } });
    expect([ico.statusCode, ico.headers['content-type']]).toEqual([200, 'image/png']);
    expect(ico.rawPayload.equals(res.rawPayload)).toBe(true);
  });
});
