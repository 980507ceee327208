import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { arrive } from '../../../../tests/helpers/visitor.ts';
import { recipes } from '../tables.ts';
import { RECIPE_BANNER_CLOSE_PATH, RECIPE_BANNER_COOKIE } from './config.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  for (const siteId of ['jyvabroiler', 'ammattilaiset']) {
    await t.app.db.insert(recipes).values({
      siteId,
      lang: 'fi',
      path: '/reseptit/banneri',
      title: 'Banneriresepti',
      yield: 4,
      totalTimeMinutes: 20,
      translationKey: `banner-test-${siteId}`,
    });
  }
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const page = (host: string, cookie?: string) =>
  t.app.inject({
    method: 'GET',
    url: '/reseptit/banneri',
    headers: { host, ...(cookie ? { cookie } : {}) },
  });

describe('recipe banner', () => {
  it('shows on a recipe page with the default text linking to the professional-kitchen site', async () => {
    const res = await page('jyvabroiler.localhost');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('data-recipe-banner');
    expect(res.body).toContain('Tutustu ammattikeittiöiden resepteihin');
    expect(res.body).toMatch(/href="http:\/\/ammattilaiset\.localhost[^"]*"/);
  });

  it('is not on the professional-kitchen site itself', async () => {
    const res = await page('ammattilaiset.localhost');
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('data-recipe-banner');
  });

  it('closes without script: a 30-day cookie, back to the page, then not rendered at all', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: RECIPE_BANNER_CLOSE_PATH,
      headers: {
        host: 'jyvabroiler.localhost',
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'return=%2Freseptit%2Fbanneri',
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/reseptit/banneri');
    const cookie = res.cookies.find((c) => c.name === RECIPE_BANNER_COOKIE);
    expect(cookie?.value).toBe('closed');
    expect(cookie?.maxAge).toBe(30 * 24 * 60 * 60);
    const after = await page('jyvabroiler.localhost', `${RECIPE_BANNER_COOKIE}=closed`);
    expect(after.statusCode).toBe(200);
    expect(after.body).not.toContain('data-recipe-banner');
  });

  const close = (payload: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: RECIPE_BANNER_CLOSE_PATH,
      headers: {
        host: 'jyvabroiler.localhost',
        'content-type': 'application/x-www-form-urlencoded',
        ...headers,
      },
      payload,
    });

  it.each([
    '/\t/evil.example/',
    '/\n/evil.example/',
    '/.//evil.example/',
    '/%2e//evil.example/',
    '/\u007f/evil.example/',
  ])('closes and goes back to this site for the return path %j', async (back) => {
    const res = await close(new URLSearchParams({ return: back }).toString());
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/');
  });

  it('refuses a close posted from another site (403, no cookie)', async () => {
    const forged: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example' },
    ];
    for (const headers of forged) {
      const res = await close('return=%2Freseptit%2Fbanneri', headers);
      expect(res.statusCode).toBe(403);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.cookies.find((c) => c.name === RECIPE_BANNER_COOKIE)).toBeUndefined();
    }
  });

  it('refuses a close with a wrong anti-forgery field, takes one with the right one', async () => {
    const visitor = await arrive(t.app, '/reseptit/banneri', { host: 'jyvabroiler.localhost' });
    const send = (xsrf: string) =>
      visitor.post(RECIPE_BANNER_CLOSE_PATH, {
        payload: new URLSearchParams({ _xsrf: xsrf, return: '/reseptit/banneri' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        xsrf: false,
      });
    const wrong = await send('x'.repeat(43));
    expect(wrong.statusCode).toBe(403);
    const right = await send(visitor.xsrfToken ?? '');
    expect(right.statusCode).toBe(303);
    expect(right.headers.location).toBe('/reseptit/banneri');
  });
});
