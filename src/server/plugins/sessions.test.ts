import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cookieHeader,
  cookieValue,
  createTestApp,
  type TestApp,
} from '../../../tests/helpers/app.ts';
import { Visitor } from '../../../tests/helpers/visitor.ts';
import { sql } from '../../db/client.ts';
import { keepPersonalAnswersPrivate, SESSION_COOKIE } from './sessions.ts';
import { XSRF_COOKIE, XSRF_HEADER } from './xsrf.ts';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const TTL_DAYS = 7;

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    config: { sessionTtlDays: TTL_DAYS },
    extend(app) {
      app.get('/api/test/session', async (request) => ({ data: await request.session.get() }));
      // An answer made from the session that forgets to say it is personal.
      app.get('/api/test/greeting', async (request, reply) => {
        reply.header('cache-control', 'public, max-age=60');
        return { hello: (await request.session.get()).name ?? 'guest' };
      });
      app.post('/api/test/session', async (request) => {
        await request.session.set(request.body as Record<string, unknown>);
        return { ok: true };
      });
      app.delete('/api/test/session', async (request) => {
        await request.session.clear();
        return { ok: true };
      });
    },
  });
});

afterAll(() => t.close());

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

async function sessionRows(): Promise<{ id: string; data: unknown }[]> {
  const result = (await t.app.db.execute(
    sql`select id, data from sessions order by created_at, id`,
  )) as unknown as { rows: { id: string; data: unknown }[] };
  return result.rows;
}

async function countSessions(): Promise<number> {
  return (await sessionRows()).length;
}

/** A visitor who has been given a session: the session and anti-forgery cookies are in its jar. */
async function newVisitor() {
  const visitor = new Visitor(t.app);
  const first = await visitor.get('/api/test/session');
  expect(first.statusCode).toBe(200);
  expect(visitor.jar.get(SESSION_COOKIE)).toMatch(TOKEN);
  expect(visitor.xsrfToken).toBeTruthy();
  return {
    get token() {
      return visitor.jar.get(SESSION_COOKIE) as string;
    },
    get cookie() {
      return visitor.cookie;
    },
    store: (data: Record<string, unknown>) => visitor.post('/api/test/session', { payload: data }),
    read: () => visitor.get('/api/test/session'),
    clear: () => visitor.delete('/api/test/session'),
  };
}

function sessionCookieOf(res: LightMyRequestResponse) {
  return res.cookies.find((c) => c.name === SESSION_COOKIE);
}

describe('sessions', () => {
  it('gives a new visitor an HttpOnly session cookie and an empty session', async () => {
    const res = await t.app.inject('/api/test/session');
    expect(res.json()).toEqual({ data: {} });
    const cookie = sessionCookieOf(res);
    expect(cookie?.value).toMatch(TOKEN);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.maxAge).toBe(TTL_DAYS * 24 * 60 * 60);
  });

  it('gives every new visitor a different token', async () => {
    const a = await newVisitor();
    const b = await newVisitor();
    expect(a.token).not.toBe(b.token);
  });

  it('brings a stored value back with the session cookie, and not without it', async () => {
    const visitor = await newVisitor();
    const stored = await visitor.store({ cart: 'abc', count: 2, nested: { ok: true } });
    expect(stored.statusCode).toBe(200);

    const withCookie = await visitor.read();
    expect(withCookie.json()).toEqual({ data: { cart: 'abc', count: 2, nested: { ok: true } } });
    // A known session keeps its cookie.
    expect(sessionCookieOf(withCookie)).toBeUndefined();

    const without = await t.app.inject('/api/test/session');
    expect(without.json()).toEqual({ data: {} });
    const fresh = cookieValue(without, SESSION_COOKIE);
    expect(fresh).toMatch(TOKEN);
    expect(fresh).not.toBe(visitor.token);
  });

  it('keeps sessions apart', async () => {
    const a = await newVisitor();
    const b = await newVisitor();
    await a.store({ who: 'a' });
    await b.store({ who: 'b' });
    expect((await a.read()).json()).toEqual({ data: { who: 'a' } });
    expect((await b.read()).json()).toEqual({ data: { who: 'b' } });
  });

  it('replaces the data on a second store, keeping one row', async () => {
    const visitor = await newVisitor();
    await visitor.store({ step: 1, keep: 'x' });
    await visitor.store({ step: 2 });
    expect((await visitor.read()).json()).toEqual({ data: { step: 2 } });
    const rows = (await sessionRows()).filter((r) => r.id === sha256(visitor.token));
    expect(rows).toHaveLength(1);
  });

  it('forgets the data on clear', async () => {
    const visitor = await newVisitor();
    await visitor.store({ a: 1 });
    expect((await visitor.clear()).statusCode).toBe(200);
    expect((await visitor.read()).json()).toEqual({ data: {} });
    expect((await sessionRows()).some((r) => r.id === sha256(visitor.token))).toBe(false);
  });

  it('refuses to store without the anti-forgery token', async () => {
    const visitor = await newVisitor();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test/session',
      payload: { a: 1 },
      headers: { cookie: visitor.cookie },
    });
    expect(res.statusCode).toBe(403);
    expect((await visitor.read()).json()).toEqual({ data: {} });
  });
});

describe('a cookie the server did not issue', () => {
  it.each([
    'garbled',
    'x'.repeat(42),
    'x'.repeat(44),
    `${'x'.repeat(42)}.`,
    `${'x'.repeat(42)}=`,
    '',
  ])('%j gets a fresh session with a new cookie', async (value) => {
    const res = await t.app.inject({
      url: '/api/test/session',
      headers: { cookie: `${SESSION_COOKIE}=${value}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: {} });
    const fresh = cookieValue(res, SESSION_COOKIE);
    expect(fresh).toMatch(TOKEN);
    expect(fresh).not.toBe(value);
  });

  it('the row id from a copy of the table does not open the session', async () => {
    const visitor = await newVisitor();
    await visitor.store({ secret: 'mine' });
    const res = await t.app.inject({
      url: '/api/test/session',
      headers: { cookie: `${SESSION_COOKIE}=${sha256(visitor.token)}` },
    });
    expect(res.json()).toEqual({ data: {} });
    expect(cookieValue(res, SESSION_COOKIE)).toMatch(TOKEN);
  });

  it('a planted token never carries data: the first store moves the session to a new token', async () => {
    const planted = 'p'.repeat(43);
    const page = await t.app.inject({
      url: '/api/test/session',
      headers: { cookie: `${SESSION_COOKIE}=${planted}` },
    });
    const xsrf = cookieValue(page, XSRF_COOKIE);
    const stored = await t.app.inject({
      method: 'POST',
      url: '/api/test/session',
      payload: { cart: 'victim' },
      headers: {
        cookie: `${SESSION_COOKIE}=${planted}; ${XSRF_COOKIE}=${xsrf}`,
        [XSRF_HEADER]: xsrf,
      },
    });
    expect(stored.statusCode).toBe(200);
    const issued = cookieValue(stored, SESSION_COOKIE);
    expect(issued).toMatch(TOKEN);
    expect(issued).not.toBe(planted);
    // The anti-forgery cookie follows the new token.
    expect(cookieValue(stored, XSRF_COOKIE)).toBeTruthy();
    expect(cookieValue(stored, XSRF_COOKIE)).not.toBe(xsrf);
    const attacker = await t.app.inject({
      url: '/api/test/session',
      headers: { cookie: `${SESSION_COOKIE}=${planted}` },
    });
    expect(attacker.json()).toEqual({ data: {} });
    const victim = await t.app.inject({
      url: '/api/test/session',
      headers: { cookie: `${SESSION_COOKIE}=${issued}` },
    });
    expect(victim.json()).toEqual({ data: { cart: 'victim' } });
  });

  it('renews the cookie’s lifetime on every store, keeping the token of a stored session', async () => {
    const visitor = await newVisitor();
    await visitor.store({ a: 1 });
    const token = visitor.token;
    const again = await visitor.store({ a: 2 });
    const renewed = sessionCookieOf(again);
    expect(renewed?.value).toBe(token);
    expect(renewed?.maxAge).toBe(TTL_DAYS * 24 * 60 * 60);
  });

  it('a well-formed but unknown token reads as an empty session', async () => {
    const visitor = await newVisitor();
    await visitor.store({ secret: 'mine' });
    // Same shape as a real token, one character off.
    const last = visitor.token.at(-1) === 'A' ? 'B' : 'A';
    const forged = `${visitor.token.slice(0, -1)}${last}`;
    const res = await t.app.inject({
      url: '/api/test/session',
      headers: { cookie: `${SESSION_COOKIE}=${forged}` },
    });
    expect(res.json()).toEqual({ data: {} });
  });
});

describe('the session table', () => {
  it('keys the row by the SHA-256 of the token and never stores the token', async () => {
    const visitor = await newVisitor();
    await visitor.store({ marker: 'row-key-test' });
    const rows = await sessionRows();
    const mine = rows.filter((r) => JSON.stringify(r.data).includes('row-key-test'));
    expect(mine).toHaveLength(1);
    expect(mine[0]?.id).toBe(sha256(visitor.token));
    expect(mine[0]?.data).toEqual({ marker: 'row-key-test' });
    for (const row of rows) {
      expect(row.id).not.toBe(visitor.token);
      expect(JSON.stringify(row)).not.toContain(visitor.token);
    }
  });

  it('sets the expiry a session lifetime ahead', async () => {
    const visitor = await newVisitor();
    await visitor.store({ a: 1 });
    const result = (await t.app.db.execute(
      sql`select extract(epoch from (expires_at - now()))::float8 as seconds
          from sessions where id = ${sha256(visitor.token)}`,
    )) as unknown as { rows: { seconds: number | string }[] };
    const seconds = Number(result.rows[0]?.seconds);
    const ttl = TTL_DAYS * 24 * 60 * 60;
    expect(seconds).toBeGreaterThan(ttl - 3600);
    expect(seconds).toBeLessThanOrEqual(ttl);
  });

  it('reads an expired row as an empty session', async () => {
    const visitor = await newVisitor();
    await visitor.store({ cart: 'old' });
    expect((await visitor.read()).json()).toEqual({ data: { cart: 'old' } });
    await t.app.db.execute(
      sql`update sessions set expires_at = now() - interval '1 minute'
          where id = ${sha256(visitor.token)}`,
    );
    expect((await visitor.read()).json()).toEqual({ data: {} });
  });

  it('gets no row from visiting pages', async () => {
    const before = await countSessions();
    const pages = [
      { url: '/', headers: { host: 'konsernifi.localhost' } },
      { url: '/', headers: { host: 'lihakauppa.localhost' } },
      { url: '/en/', headers: { host: 'sibylla.localhost' } },
      { url: '/ei-ole', headers: { host: 'sibylla.localhost' } },
      { url: '/health' },
      { url: '/api/test/session' },
    ];
    let cookies = '';
    for (const page of pages) {
      const res = await t.app.inject(page);
      expect(res.statusCode).toBeLessThan(500);
      if (!cookies) cookies = cookieHeader(res);
    }
    const home = await t.app.inject({ url: '/', headers: { cookie: cookies } });
    expect(home.statusCode).toBe(200);
    expect(await countSessions()).toBe(before);
  });

  it('sets no session cookie on the health check', async () => {
    const res = await t.app.inject('/health');
    expect(sessionCookieOf(res)).toBeUndefined();
  });
});

describe('caching of answers that belong to one visitor', () => {
  it('sends a page that sets cookies as private', async () => {
    const first = await t.app.inject({ url: '/', headers: { host: 'sibylla.localhost' } });
    expect(first.statusCode).toBe(200);
    expect(first.headers['set-cookie']).toBeDefined();
    expect(first.headers['cache-control']).toBe('private, no-cache');
    // The same page for a visitor whose cookies are already set, with nothing stored, is the
    // same for everyone.
    const again = await t.app.inject({
      url: '/',
      headers: { host: 'sibylla.localhost', cookie: cookieHeader(first) },
    });
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(again.headers['cache-control']).toBe('no-cache');
  });

  it('sends an answer made from a stored session as private, cookies or not', async () => {
    const visitor = await newVisitor();
    await visitor.store({ name: 'Maija' });
    const res = await t.app.inject({
      url: '/api/test/greeting',
      headers: { cookie: visitor.cookie },
    });
    expect(res.json()).toEqual({ hello: 'Maija' });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('private, max-age=60');
    // A visitor with cookies but nothing stored gets the public answer.
    const guest = await newVisitor();
    const other = await t.app.inject({
      url: '/api/test/greeting',
      headers: { cookie: guest.cookie },
    });
    expect(other.json()).toEqual({ hello: 'guest' });
    expect(other.headers['cache-control']).toBe('public, max-age=60');
  });

  it('sends an API answer that sets cookies as private', async () => {
    const res = await t.app.inject('/api/test/session');
    expect(res.headers['set-cookie']).toBeDefined();
    expect(res.headers['cache-control']).toBe('private');
  });

  it.each([
    ['public, max-age=60', 'private, max-age=60'],
    ['public, s-maxage=600, max-age=60', 'private, max-age=60'],
    ['no-cache', 'private, no-cache'],
    [undefined, 'private'],
    ['private, no-cache', 'private, no-cache'],
    ['no-store', 'no-store'],
  ])('turns %j with a cookie into %j', (given, expected) => {
    const headers = new Map<string, unknown>([['set-cookie', 'a=b']]);
    if (given) headers.set('cache-control', given);
    const reply = {
      getHeader: (name: string) => headers.get(name),
      header: (name: string, value: unknown) => headers.set(name, value),
    };
    keepPersonalAnswersPrivate({ session: undefined } as never, reply as never);
    expect(headers.get('cache-control')).toBe(expected);
  });
});
