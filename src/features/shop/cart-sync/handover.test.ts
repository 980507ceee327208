import { createHash } from 'node:crypto';
import { count, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPage, createShopProducts } from '../../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { Visitor } from '../../../../tests/helpers/visitor.ts';
import { SESSION_COOKIE } from '../../../server/plugins/sessions.ts';
import { sessions } from '../../../server/tables.ts';
import { CART_API, cartSchema } from '../schemas.ts';
import { cartHandovers, cartLineItems } from '../tables.ts';
import { hashHandoverToken } from './handover.server.ts';

/**
 * The cart hand-over (decision 021): the shop frame's session asks for a one-time token, the
 * shop's top-level session moves the lines with it (summed, capped by stock and 99) after a
 * confirm form, once; unknown, used, expired and malformed tokens are refused and write nothing.
 * Two uses at once run on PostgreSQL only (DATABASE_URL set, as in CI): PGlite has one
 * connection, so nothing would race there.
 */

const onPostgres = Boolean(process.env.DATABASE_URL);
const HOST = 'lihakauppa.localhost';
const A = '7780001';
const B = '7780002';
const FEW = '7780003';
const SOLD_OUT_LATER = '7780004';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.db;
  await createShopProducts(db, [
    { path: '/tuotteet/a', code: A, name: 'Broilerin fileet', priceCents: 695 },
    { path: '/tuotteet/b', code: B, name: 'Jauheliha', priceCents: 489 },
    { path: '/tuotteet/few', code: FEW, name: 'Vähissä', priceCents: 1000, stock: 3 },
    { path: '/tuotteet/later', code: SOLD_OUT_LATER, name: 'Loppuu', priceCents: 500, stock: 5 },
  ]);
  await createPage(db, { siteId: 'lihakauppa', path: '/', type: 'home', title: 'Lihakauppa' });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** The shop frame inside a brand site: its cart calls carry the frame header (decision 020). */
function frameVisitor(): Visitor {
  return new Visitor(t.app, { host: HOST, 'x-kattaus-frame': 'cart-sync' });
}

async function add(visitor: Visitor, code: string, quantity: number) {
  const res = await visitor.post(`${CART_API}/add?language=fi&code=${code}&quantity=${quantity}`);
  expect(res.statusCode, res.body).toBe(200);
}

async function cartOf(visitor: Visitor) {
  const res = await visitor.get(`${CART_API}/load?language=fi`);
  const cart = cartSchema.parse(res.json());
  return Object.fromEntries(cart.lineItems.map((line) => [line.code, line.quantity]));
}

/** A frame session with lines, and a hand-over token for it. */
async function frameWithToken(lines: [string, number][]) {
  const frame = frameVisitor();
  await frame.get('/cart-sync');
  for (const [code, quantity] of lines) await add(frame, code, quantity);
  const res = await frame.post(`${CART_API}/handover`);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { token: string; expiresAt: string; path: string };
  return { frame, ...body };
}

function expectProblem(res: LightMyRequestResponse, status: number) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
}

/** The confirm form's fields as the page rendered them. */
function formFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"/g)) {
    fields[match[1] as string] = (match[2] as string).replaceAll('&amp;', '&');
  }
  return fields;
}

function postForm(visitor: Visitor, fields: Record<string, string>, headers = {}) {
  return visitor.post('/ostoskori/siirto', {
    payload: new URLSearchParams(fields).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'sec-fetch-site': 'same-origin',
      ...headers,
    },
  });
}

async function handoverRows(): Promise<number> {
  const [row] = await t.app.db.select({ n: count() }).from(cartHandovers);
  return row?.n ?? 0;
}

async function sessionRows(): Promise<number> {
  const [row] = await t.app.db.select({ n: count() }).from(sessions);
  return row?.n ?? 0;
}

describe('issuing a hand-over token (the shop frame)', () => {
  it('gives a random token for a cart with lines, keeps only its hash, expires in 10 min', async () => {
    const { token, expiresAt, path } = await frameWithToken([[A, 1]]);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(path).toBe(`/ostoskori/siirto?token=${token}`);
    const minutes = (Date.parse(expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(9);
    expect(minutes).toBeLessThanOrEqual(10);
    const rows = await t.app.db
      .select()
      .from(cartHandovers)
      .where(eq(cartHandovers.tokenHash, hashHandoverToken(token)));
    expect(rows).toHaveLength(1);
    const raw = await t.app.db.execute(
      sql`select count(*)::int as n from cart_handovers where token_hash = ${token}`,
    );
    expect((raw as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(0);
  });

  it('refuses an empty cart or no session with 404 problem+json and stores nothing', async () => {
    const before = await handoverRows();
    const fresh = frameVisitor();
    await fresh.get('/cart-sync');
    expectProblem(await fresh.post(`${CART_API}/handover`), 404);
    // A session whose cart was emptied.
    await add(fresh, A, 1);
    expect(
      (await fresh.post(`${CART_API}/changequantity?language=fi&code=${A}&quantity=0`)).statusCode,
    ).toBe(200);
    expectProblem(await fresh.post(`${CART_API}/handover`), 404);
    expect(await handoverRows()).toBe(before);
  });

  it('needs the anti-forgery header and answers only on the shop', async () => {
    const frame = frameVisitor();
    await frame.get('/cart-sync');
    await add(frame, A, 1);
    expectProblem(await frame.post(`${CART_API}/handover`, { xsrf: false }), 403);
    const brand = new Visitor(t.app, { host: 'jyvabroiler.localhost' });
    await brand.get('/');
    expectProblem(await brand.post(`${CART_API}/handover`), 404);
  });
});

describe("the brand site's count after a hand-over (decision 102)", () => {
  const countOf = async (visitor: Visitor) => {
    const res = await visitor.get(`${CART_API}/count?language=fi`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return (res.json() as { lineItemCount: number }).lineItemCount;
  };

  it("counts the shop cart the frame's lines went to, each product once, and only a count", async () => {
    const { frame, token } = await frameWithToken([[A, 1]]);
    expect(await countOf(frame)).toBe(1);
    const shopper = new Visitor(t.app, { host: HOST });
    await shopper.get('/');
    await add(shopper, B, 2);
    expect(await countOf(shopper)).toBe(1);
    const res = await shopper.post(`${CART_API}/claimhandover?language=fi&token=${token}`);
    expect(res.statusCode, res.body).toBe(200);
    // The frame's cart is empty, but the badge counts the shop's: A moved there, B was there.
    expect(await cartOf(frame)).toEqual({});
    expect(await countOf(frame)).toBe(2);
    // An add in the shop shows on the brand site; a product in both carts counts once.
    await add(shopper, FEW, 1);
    await add(frame, A, 1);
    expect(await countOf(frame)).toBe(3);
    // The frame reads a count of that cart, never its lines.
    expect(await cartOf(frame)).toEqual({ [A]: 1 });
    // The shop cart's session ends: the frame counts its own lines again.
    const frameSessionId = createHash('sha256')
      .update(frame.jar.get(SESSION_COOKIE) ?? '')
      .digest('hex');
    const [row] = await t.app.db
      .select({ data: sessions.data })
      .from(sessions)
      .where(eq(sessions.id, frameSessionId));
    expect(row?.data.handedOverTo).toBeTruthy();
    const shopSession = await t.app.db.execute(
      sql`select s.id from sessions s join carts c on c.session_id = s.id
          where c.id = ${String(row?.data.handedOverTo)}`,
    );
    const shopSessionId = (shopSession as unknown as { rows: { id: string }[] }).rows[0]?.id;
    await t.app.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, String(shopSessionId)));
    expect(await countOf(frame)).toBe(1);
  });

  it('is 0 for a fresh visitor, and answers only on the shop', async () => {
    expect(await countOf(frameVisitor())).toBe(0);
    const brand = new Visitor(t.app, { host: 'jyvabroiler.localhost' });
    expectProblem(await brand.get(`${CART_API}/count?language=fi`), 404);
  });
});

describe('using a token on the shop at top level', () => {
  it('shows the waiting lines on GET and changes nothing; the POST moves them, summed', async () => {
    const { frame, path } = await frameWithToken([
      [A, 2],
      [B, 1],
    ]);
    const shopper = new Visitor(t.app, { host: HOST });
    await shopper.get('/');
    await add(shopper, A, 1);

    const page = await shopper.get(path);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toMatch(/private|no-store/);
    expect(page.body).toContain('Broilerin fileet');
    expect(page.body).toContain('Jauheliha');
    expect(page.body).toContain('<meta name="robots" content="noindex"');
    // Showing the form moved nothing.
    expect(await cartOf(shopper)).toEqual({ [A]: 1 });
    expect(await cartOf(frame)).toEqual({ [A]: 2, [B]: 1 });

    const moved = await postForm(shopper, formFields(page.body));
    expect(moved.statusCode, moved.body).toBe(303);
    expect(moved.headers.location).toBe('/ostoskori#tuotteet');
    expect(await cartOf(shopper)).toEqual({ [A]: 3, [B]: 1 });
    // The lines left the frame's cart: the brand site's badge syncs to empty.
    expect(await cartOf(frame)).toEqual({});

    // A second use of the same token: refused, nothing moves again.
    const again = await postForm(shopper, formFields(page.body));
    expect(again.statusCode).toBe(404);
    expect(await cartOf(shopper)).toEqual({ [A]: 3, [B]: 1 });
    expectProblem(
      await shopper.post(
        `${CART_API}/claimhandover?language=fi&token=${formFields(page.body).token}`,
      ),
      404,
    );
    expect(await cartOf(shopper)).toEqual({ [A]: 3, [B]: 1 });
  });

  it('gives a first-time visitor a cart with the lines (the API answers the cart)', async () => {
    const { token } = await frameWithToken([[B, 4]]);
    const shopper = new Visitor(t.app, { host: HOST });
    await shopper.get('/');
    const res = await shopper.post(`${CART_API}/claimhandover?language=fi&token=${token}`);
    expect(res.statusCode, res.body).toBe(200);
    const cart = cartSchema.parse(res.json());
    expect(cart.lineItems.map((line) => [line.code, line.quantity])).toEqual([[B, 4]]);
    expect(await cartOf(shopper)).toEqual({ [B]: 4 });
  });

  it('caps the sum by the stock and 99; a product sold out since is not moved', async () => {
    const { token } = await frameWithToken([
      [FEW, 2],
      [A, 60],
      [SOLD_OUT_LATER, 1],
    ]);
    const shopper = new Visitor(t.app, { host: HOST });
    await shopper.get('/');
    await add(shopper, FEW, 2);
    await add(shopper, A, 50);
    await t.app.db.execute(sql`update products set stock = 0 where code = ${SOLD_OUT_LATER}`);
    try {
      const res = await shopper.post(`${CART_API}/claimhandover?language=fi&token=${token}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(await cartOf(shopper)).toEqual({ [FEW]: 3, [A]: 99 });
    } finally {
      await t.app.db.execute(sql`update products set stock = 5 where code = ${SOLD_OUT_LATER}`);
    }
  });

  it('refuses an expired token with 404 problem+json and writes no session', async () => {
    const { token } = await frameWithToken([[A, 1]]);
    await t.app.db
      .update(cartHandovers)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(cartHandovers.tokenHash, hashHandoverToken(token)));
    const sessionsBefore = await sessionRows();
    const shopper = new Visitor(t.app, { host: HOST });
    await shopper.get('/');
    expectProblem(await shopper.post(`${CART_API}/claimhandover?language=fi&token=${token}`), 404);
    const page = await shopper.get(`/ostoskori/siirto?token=${token}`);
    expect(page.statusCode).toBe(404);
    expect(page.body).not.toContain('name="token"');
    expect(await sessionRows()).toBe(sessionsBefore);
  });

  it('refuses unknown and malformed tokens: 404 and 400 naming the field, nothing written', async () => {
    const sessionsBefore = await sessionRows();
    const [linesBefore] = await t.app.db.select({ n: count() }).from(cartLineItems);
    const shopper = new Visitor(t.app, { host: HOST });
    await shopper.get('/');
    const unknown = 'x'.repeat(43);
    expectProblem(
      await shopper.post(`${CART_API}/claimhandover?language=fi&token=${unknown}`),
      404,
    );
    for (const bad of ['', 'short', `${unknown}x`, 'a%20b'.padEnd(43, 'c')]) {
      const res = await shopper.post(`${CART_API}/claimhandover?language=fi&token=${bad}`);
      expectProblem(res, 400);
      expect((res.json() as { errors: Record<string, string> }).errors).toHaveProperty('token');
    }
    expectProblem(await shopper.post(`${CART_API}/claimhandover?language=fi`), 400);
    const page = await shopper.get(`/ostoskori/siirto?token=${unknown}`);
    expect(page.statusCode).toBe(404);
    expect(await sessionRows()).toBe(sessionsBefore);
    const [linesAfter] = await t.app.db.select({ n: count() }).from(cartLineItems);
    expect(linesAfter?.n).toBe(linesBefore?.n);
  });

  it('refuses the form without its anti-forgery field or from another site', async () => {
    const { frame, path } = await frameWithToken([[A, 1]]);
    const shopper = new Visitor(t.app, { host: HOST });
    const page = await shopper.get(path);
    const fields = formFields(page.body);
    expect((await postForm(shopper, { token: fields.token as string })).statusCode).toBe(403);
    expect((await postForm(shopper, { ...fields, _xsrf: 'forged' })).statusCode).toBe(403);
    expect((await postForm(shopper, fields, { 'sec-fetch-site': 'cross-site' })).statusCode).toBe(
      403,
    );
    expect(await cartOf(frame)).toEqual({ [A]: 1 });
    // The token still works for the real form.
    expect((await postForm(shopper, fields)).statusCode).toBe(303);
    expect(await cartOf(shopper)).toEqual({ [A]: 1 });
  });

  it('is not on the other sites', async () => {
    const brand = new Visitor(t.app, { host: 'jyvabroiler.localhost' });
    expect((await brand.get(`/ostoskori/siirto?token=${'x'.repeat(43)}`)).statusCode).toBe(404);
  });
});

describe('two uses of one token at once (PostgreSQL)', () => {
  it.runIf(onPostgres)('by two visitors: one gets the lines, the other 404', async () => {
    for (let round = 0; round < 10; round++) {
      const { token } = await frameWithToken([
        [A, 2],
        [B, 1],
      ]);
      const one = new Visitor(t.app, { host: HOST });
      const two = new Visitor(t.app, { host: HOST });
      await one.get('/');
      await two.get('/');
      const answers = await Promise.all(
        [one, two].map((v) => v.post(`${CART_API}/claimhandover?language=fi&token=${token}`)),
      );
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 404]);
      const carts = [await cartOf(one), await cartOf(two)];
      expect(carts.filter((c) => Object.keys(c).length > 0)).toEqual([{ [A]: 2, [B]: 1 }]);
    }
  });

  it.runIf(onPostgres)('by one visitor twice (a double submit): the lines move once', async () => {
    for (let round = 0; round < 10; round++) {
      const { token } = await frameWithToken([[B, 3]]);
      const shopper = new Visitor(t.app, { host: HOST });
      await shopper.get('/');
      await add(shopper, B, 1);
      const answers = await Promise.all(
        [1, 2].map(() => shopper.post(`${CART_API}/claimhandover?language=fi&token=${token}`)),
      );
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 404]);
      expect(await cartOf(shopper)).toEqual({ [B]: 4 });
    }
  });
});
