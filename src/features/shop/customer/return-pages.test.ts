import { describe, expect, it } from 'vitest';
import {
  postForm,
  registerOnPages,
  shopTestApp,
  shopVisitorFrom,
} from '../../../../tests/helpers/shop.ts';
import type { Visitor } from '../../../../tests/helpers/visitor.ts';

/**
 * `paluu` on the login and register pages (decision 029): after a success the shopper goes back
 * to the local page it names (the checkout); anything that is not a local path is ignored. After
 * registering, that is once the mailed link has confirmed the account (decision 075).
 */

const PASSWORD = 'oikea-salasana-1';
const BACK = '/kassa?postinumero=00100';
const t = shopTestApp();
let n = 0;

async function visitor(): Promise<Visitor> {
  n += 1;
  return shopVisitorFrom(t, `10.9.1.${n}`);
}

describe('paluu on the login and register pages', () => {
  it('carries paluu through the pages and goes back there after registering', async () => {
    const v = await visitor();
    const page = await v.get(`/rekisteroidy?paluu=${encodeURIComponent(BACK)}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`name="paluu" value="${BACK}"`);
    expect(page.body).toContain(`href="/kirjaudu?paluu=${encodeURIComponent(BACK)}"`);
    const res = await registerOnPages(v, {
      email: `paluu${n}@example.fi`,
      password: PASSWORD,
      paluu: BACK,
    });
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe(BACK);
    // Logged in, the login page sends straight on.
    const again = await v.get(`/kirjaudu?paluu=${encodeURIComponent(BACK)}`);
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe(BACK);
  });

  it('keeps paluu through a failed login and uses it after the right password', async () => {
    const v = await visitor();
    const email = `paluu${n}@example.fi`;
    await registerOnPages(v, { email, password: PASSWORD });
    await postForm(v, '/oma-tili', { action: 'logout' });
    const w = await visitor();
    await w.get('/kirjaudu');
    const bad = await postForm(w, '/kirjaudu', { email, password: 'väärä-salasana', paluu: BACK });
    expect(bad.statusCode).toBe(401);
    expect(bad.body).toContain(`name="paluu" value="${BACK}"`);
    const ok = await postForm(w, '/kirjaudu', { email, password: PASSWORD, paluu: BACK });
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe(BACK);
  });

  it('ignores a paluu that leaves the site', async () => {
    const v = await visitor();
    const page = await v.get('/rekisteroidy?paluu=https%3A%2F%2Fevil.example%2F');
    expect(page.body).not.toContain('evil.example');
    const res = await registerOnPages(v, {
      email: `paluu${n}@example.fi`,
      password: PASSWORD,
      paluu: '//evil.example/',
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/oma-tili');
  });

  // A browser reads `/./`, `/../` and `/%2e/` away and a tab out: what is left must still be a
  // path of this site, not `//evil.example/`.
  const away = [
    '/.//evil.example/',
    '/..//evil.example/',
    '/%2e//evil.example/',
    '/%2E%2E//evil.example/',
    '/./\\evil.example/',
    '/\t/evil.example/',
    '/kassa/..//evil.example/',
  ];

  it.each(away)(
    'a logged-in shopper opening the login page with paluu %j stays on the site',
    async (paluu) => {
      const v = await visitor();
      await registerOnPages(v, { email: `paluu${n}@example.fi`, password: PASSWORD });
      const res = await v.get(`/kirjaudu?paluu=${encodeURIComponent(paluu)}`);
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/oma-tili');
    },
  );

  it.each(away)('a login or registration posted with paluu %j stays on the site', async (paluu) => {
    const v = await visitor();
    const email = `paluu${n}@example.fi`;
    const page = await v.get(`/rekisteroidy?paluu=${encodeURIComponent(paluu)}`);
    expect(page.body).not.toContain('evil.example');
    const registered = await registerOnPages(v, { email, password: PASSWORD, paluu });
    expect(registered.statusCode, registered.body).toBe(303);
    expect(registered.headers.location).toBe('/oma-tili');
    await postForm(v, '/oma-tili', { action: 'logout' });
    const w = await visitor();
    await w.get('/kirjaudu');
    const loggedIn = await postForm(w, '/kirjaudu', { email, password: PASSWORD, paluu });
    expect(loggedIn.statusCode).toBe(303);
    expect(loggedIn.headers.location).toBe('/oma-tili');
  });
});
