import { afterAll, beforeAll } from 'vitest';
import { createPage } from '../factories/index.ts';
import { createTestApp, type TestApp } from './app.ts';
import { mailedConfirmToken } from './shop-customer.ts';
import { arrive, fromAddress, type Visitor } from './visitor.ts';

/** The meat shop's host in the tests. */
export const SHOP_HOST = 'lihakauppa.localhost';

/**
 * A test app with the shop's home page, built before the file's tests and closed after them;
 * `setUp` adds what the file needs more. The handle reads the app once it is built.
 */
export function shopTestApp(setUp?: (t: TestApp) => Promise<void>): TestApp {
  let built: TestApp | undefined;
  beforeAll(async () => {
    built = await createTestApp();
    await createPage(built.app.db, {
      siteId: 'lihakauppa',
      path: '/',
      type: 'home',
      title: 'Lihakauppa',
    });
    await setUp?.(built);
  }, 120_000);
  afterAll(async () => {
    await built?.close();
  });
  const current = (): TestApp => {
    if (!built) throw new Error('the shop test app is built in beforeAll');
    return built;
  };
  return {
    get app() {
      return current().app;
    },
    get database() {
      return current().database;
    },
    close: () => current().close(),
  };
}

/** A shop visitor that has arrived at the home page, every request from client address `ip`. */
export async function shopVisitorFrom(t: TestApp, ip: string): Promise<Visitor> {
  return fromAddress(await arrive(t.app, '/', { host: SHOP_HOST }), ip);
}

/** A form post as the page without script sends it, with the visitor's anti-forgery field. */
export function postForm(
  v: Visitor,
  url: string,
  fields: Record<string, string>,
  xsrf = v.xsrfToken ?? '',
) {
  return v.post(url, {
    payload: new URLSearchParams({ _xsrf: xsrf, ...fields }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

/**
 * Registers on the pages without script, as a shopper does: the register form (with `paluu` when
 * given), then the mailed link's page and its button. Answers the confirmation's answer (303 to
 * `paluu` or Oma tili, logged in).
 */
export async function registerOnPages(
  v: Visitor,
  fields: { email: string; password: string; paluu?: string },
) {
  const sent = await postForm(v, '/rekisteroidy', fields);
  if (sent.statusCode !== 200) {
    throw new Error(`register answered ${sent.statusCode}: ${sent.body.slice(0, 500)}`);
  }
  const token = await mailedConfirmToken(v, fields.email);
  await v.get(`/rekisteroidy/vahvista?token=${token}`);
  return postForm(v, '/rekisteroidy/vahvista', { token });
}
