import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPage, createProduct } from '../../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { shopVisitorFrom } from '../../../../tests/helpers/shop.ts';
import {
  registerCustomer,
  unverifyEmail,
  verifyEmail,
} from '../../../../tests/helpers/shop-customer.ts';
import type { Visitor } from '../../../../tests/helpers/visitor.ts';
import { PRODUCTS_API, productDetailSchema } from '../schemas.ts';
import { customers, orderLines, orders, productReviews } from '../tables.ts';
import { REVIEW_LIMITS } from './routes.server.ts';
import { REVIEW_API, reviewPageSchema } from './schemas.ts';

/**
 * The review API (shop spec §3, §5, §7): paging newest first, the language versions sharing
 * their code's reviews, validation, login, one review per customer and product, `isVerified`
 * from a paid order, and the rating in the product detail, of published reviews only (decision
 * 148; moderation itself is tested in `admin/reviews.test.ts`). Concurrent posts run on PostgreSQL
 * only (DATABASE_URL set): PGlite has one connection, so nothing would race there.
 */

const PASSWORD = 'oikea-salasana-1';
let t: TestApp;
let n = 0;
let fi: { id: number; code: string };
let sv: { id: number; code: string };
let other: { id: number; code: string };
let empty: { id: number; code: string };

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.db;
  const shop = { siteId: 'lihakauppa', kind: 'shop-product', priceCents: 695 } as const;
  fi = await createProduct(db, { ...shop, path: '/tuotteet/arvio', code: '8810001' });
  sv = await createProduct(db, {
    ...shop,
    lang: 'sv',
    path: '/produkter/recension',
    code: '8810001',
  });
  other = await createProduct(db, { ...shop, path: '/tuotteet/toinen', code: '8810002' });
  empty = await createProduct(db, { ...shop, path: '/tuotteet/tyhja', code: '8810003' });
  await createPage(db, { siteId: 'lihakauppa', path: '/', type: 'home', title: 'Lihakauppa' });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** A shop visitor from its own client address, so per-address limits count apart. */
async function visitor(): Promise<Visitor> {
  n += 1;
  const ip = `10.1.${Math.floor(n / 250)}.${(n % 250) + 1}`;
  return shopVisitorFrom(t, ip);
}

const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

/**
 * A logged-in customer (a new account) and its id; its e-mail address verified by the registration
 * link (decision 083), or, when `verified` is false, an account made before that, not verified.
 */
async function customer(
  options: { email?: string; verified?: boolean } = {},
): Promise<{ v: Visitor; id: string; email: string }> {
  const v = await visitor();
  const email = options.email ?? `arvostelija${n}@example.fi`;
  await registerCustomer(v, email, PASSWORD);
  if (options.verified === false) await unverifyEmail(v, email);
  const [row] = await t.app.db.select().from(customers).where(eq(customers.email, email));
  if (!row) throw new Error('no customer');
  return { v, id: row.id, email };
}

const post = (v: Visitor, body: Record<string, unknown>, options = {}) =>
  v.post(REVIEW_API, { ...json(body), ...options });

const review = (productId: number, extra: Record<string, unknown> = {}) => ({
  productId,
  rating: 4,
  text: 'Hyvää ja mehevää.',
  userName: 'Maija',
  ...extra,
});

async function pageOf(query: string) {
  const res = await (await visitor()).get(`${REVIEW_API}?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return reviewPageSchema.parse(res.json());
}

/** A paid (or other) order of the customer with one line of the code. */
async function order(customerId: string, code: string, status: 'paid' | 'pending_payment') {
  const address = {
    firstName: 'Maija',
    lastName: 'M',
    streetAddress: 'Katu 1',
    postalCode: '00100',
    city: 'Helsinki',
  };
  const [row] = await t.app.db
    .insert(orders)
    .values({
      checkoutId: randomUUID(),
      siteId: 'lihakauppa',
      language: 'fi',
      customerId,
      status,
      email: 'x@example.fi',
      phoneNumber: '+35850123123',
      deliveryAddress: address,
      billingAddress: address,
      postalCode: '00100',
      deliveryDate: '2026-12-01',
      startTime: '10:00',
      endTime: '12:00',
      subTotalCents: 695,
      vatCents: 82,
      totalCents: 695,
    })
    .returning();
  if (!row) throw new Error('no order');
  await t.app.db.insert(orderLines).values({
    orderId: row.id,
    code,
    name: 'Tuote',
    quantity: 1,
    unitPriceCents: 695,
    linePriceWithoutDiscountsCents: 695,
    linePriceCents: 695,
    vatBasisPoints: 1350,
  });
}

describe('writing a review', () => {
  it('writes a logged-in customer’s review, trimmed; it waits for a moderator, then shows first', async () => {
    const { v } = await customer();
    const res = await post(
      v,
      review(empty.id, { text: '  <b>Hyvä</b> & maukas  ', userName: ' Matti ', rating: 5 }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      productId: empty.id,
      state: 'pending',
      review: { stars: 5, text: '<b>Hyvä</b> & maukas', userName: 'Matti', isVerified: false },
    });
    // Pre-moderation is the shop's default (decision 148): not listed until approved, which is
    // done here in the database; the back office's moderation has tests of its own.
    expect((await pageOf(`productId=${empty.id}`)).hits).toEqual([]);
    await t.app.db
      .update(productReviews)
      .set({ state: 'published' })
      .where(eq(productReviews.id, res.json().review.id));
    const page = await pageOf(`productId=${empty.id}`);
    expect(page.hits[0]).toMatchObject({ text: '<b>Hyvä</b> & maukas', userName: 'Matti' });
  });

  it('answers a visitor 401 problem and writes nothing', async () => {
    const before = await t.app.db.$count(productReviews);
    const res = await post(await visitor(), review(fi.id));
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(await t.app.db.$count(productReviews)).toBe(before);
  });

  it('refuses a post without the anti-forgery header', async () => {
    const { v } = await customer();
    const res = await post(v, review(fi.id), { xsrf: false });
    expect(res.statusCode).toBe(403);
  });

  it('names each invalid field with the spec’s texts and writes nothing', async () => {
    const { v } = await customer();
    const before = await t.app.db.$count(productReviews);
    const blank = await post(v, review(fi.id, { rating: 0, text: '   ', userName: '' }));
    expect(blank.statusCode).toBe(400);
    expect(blank.headers['content-type']).toContain('application/problem+json');
    expect(blank.json().errors).toEqual({
      rating: 'review.error.rating',
      text: 'review.error.required',
      userName: 'review.error.required',
    });
    const bad = await post(
      v,
      review(fi.id, { rating: 6, text: 'x'.repeat(501), userName: 'y'.repeat(61) }),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({
      rating: 'review.error.rating',
      text: 'form.error.tooLong',
      userName: 'form.error.tooLong',
    });
    const fraction = await post(v, review(fi.id, { rating: 2.5 }));
    expect(fraction.json().errors).toEqual({ rating: 'review.error.rating' });
    const nul = await post(v, review(fi.id, { text: 'hyvä\u0000' }));
    expect(nul.statusCode).toBe(400);
    expect(Object.keys(nul.json().errors)).toEqual(['text']);
    expect(await t.app.db.$count(productReviews)).toBe(before);
    // 500 characters after trimming are fine.
    const longest = await post(v, review(other.id, { text: ` ${'ä'.repeat(500)} ` }));
    expect(longest.statusCode, longest.body).toBe(200);
  });

  it('limits posts per client address: the 21st in a minute is 429 problem', async () => {
    const { v } = await customer();
    const limit = REVIEW_LIMITS.post.max;
    for (let i = 0; i < limit; i++) {
      expect((await post(v, review(fi.id, { rating: 0 }))).statusCode).toBe(400);
    }
    const over = await post(v, review(fi.id));
    expect(over.statusCode).toBe(429);
    expect(over.headers['content-type']).toContain('application/problem+json');
  });

  it('answers 404 for a product the shop does not have', async () => {
    const { v } = await customer();
    const res = await post(v, review(999_999_999));
    expect(res.statusCode).toBe(404);
  });

  it('keeps one review per customer and product, across language versions: 409', async () => {
    const { v, id } = await customer();
    expect((await post(v, review(fi.id))).statusCode).toBe(200);
    const again = await post(v, review(fi.id, { text: 'Toinen kerta.' }));
    expect(again.statusCode).toBe(409);
    expect(again.headers['content-type']).toContain('application/problem+json');
    const swedish = await post(v, review(sv.id, { text: 'På svenska.' }));
    expect(swedish.statusCode).toBe(409);
    const rows = await t.app.db
      .select()
      .from(productReviews)
      .where(eq(productReviews.customerId, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.text).toBe('Hyvää ja mehevää.');
  });

  it('is refused to an account whose e-mail address is not verified (403 naming email); verified, it is written', async () => {
    const { v, email } = await customer({ verified: false });
    const before = await t.app.db.$count(productReviews);
    const refused = await post(v, review(fi.id));
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.headers['content-type']).toContain('application/problem+json');
    expect(refused.json().errors).toEqual({ email: 'review.error.verifyEmail' });
    expect(await t.app.db.$count(productReviews)).toBe(before);
    await verifyEmail(v, email);
    expect((await post(v, review(fi.id))).statusCode).toBe(200);
  });

  it('a new account on the same mailbox (a +alias) cannot review the same product again: 409', async () => {
    const product = await createProduct(t.app.db, {
      siteId: 'lihakauppa',
      kind: 'shop-product',
      priceCents: 695,
      path: '/tuotteet/yksi-postilaatikko',
      code: '8810009',
    });
    const mailbox = `arvioija.${Date.now()}`;
    const first = await customer({ email: `${mailbox}@gmail.com` });
    expect((await post(first.v, review(product.id))).statusCode).toBe(200);
    const alias = await customer({ email: `${mailbox.replace('.', '')}+toka@googlemail.com` });
    const again = await post(alias.v, review(product.id));
    expect(again.statusCode, again.body).toBe(409);
    // Another product is another review.
    expect((await post(alias.v, review(other.id))).statusCode).toBe(200);
  });

  it('marks a review verified only when the customer has a paid order of the code', async () => {
    const buyer = await customer();
    await order(buyer.id, other.code, 'paid');
    const waiting = await customer();
    await order(waiting.id, other.code, 'pending_payment');
    const elsewhere = await customer();
    await order(elsewhere.id, empty.code, 'paid');
    const answers = await Promise.all(
      [buyer, waiting, elsewhere].map(async ({ v }) => (await post(v, review(other.id))).json()),
    );
    expect(answers.map((a) => a.review.isVerified)).toEqual([true, false, false]);
  });
});

describe('reading reviews', () => {
  let code: string;
  let productId: number;
  let svId: number;
  let single: { id: number; code: string };

  beforeAll(async () => {
    code = '8810050';
    const shop = { siteId: 'lihakauppa', kind: 'shop-product', priceCents: 100, code } as const;
    productId = (await createProduct(t.app.db, { ...shop, path: '/tuotteet/monta' })).id;
    svId = (await createProduct(t.app.db, { ...shop, lang: 'sv', path: '/produkter/manga' })).id;
    const start = Date.parse('2026-01-01T10:00:00Z');
    // 20 reviews an hour apart: review i written at start + i hours, rating 1..5 in turn.
    await t.app.db.insert(productReviews).values(
      Array.from({ length: 20 }, (_, i) => ({
        siteId: 'lihakauppa',
        productId: i % 2 === 0 ? productId : svId,
        code,
        customerId: null,
        language: i % 2 === 0 ? 'fi' : 'sv',
        userName: `Kirjoittaja ${i}`,
        rating: (i % 5) + 1,
        text: `Arvio ${i}`,
        state: 'published' as const,
        createdAt: new Date(start + i * 3_600_000),
      })),
    );
    // A waiting and a rejected review, newest of all: neither is listed nor counted.
    await t.app.db.insert(productReviews).values(
      (['pending', 'rejected'] as const).map((state, i) => ({
        siteId: 'lihakauppa',
        productId,
        code,
        customerId: null,
        language: 'fi',
        userName: `Moderoitava ${i}`,
        rating: 1,
        text: `Ei näy ${state}`,
        state,
        rejectionReason: state === 'rejected' ? 'Asiaton' : null,
        createdAt: new Date(start + 30 * 3_600_000),
      })),
    );
    // A product with one review of its own, whatever the writing tests leave elsewhere.
    single = await createProduct(t.app.db, {
      siteId: 'lihakauppa',
      kind: 'shop-product',
      priceCents: 100,
      code: '8810051',
      path: '/tuotteet/yksi',
    });
    await t.app.db.insert(productReviews).values({
      siteId: 'lihakauppa',
      productId: single.id,
      code: single.code,
      customerId: null,
      language: 'fi',
      userName: 'Yksi',
      rating: 5,
      text: 'Ainoa arvio',
      state: 'published',
    });
  });

  it('pages 9 at a time, newest first, with hasMore and totalCount', async () => {
    const first = await pageOf(`productId=${productId}&language=fi`);
    expect(first).toMatchObject({ totalCount: 20, hasMore: true, productId });
    expect(first.hits.map((h) => h.text)).toEqual(
      Array.from({ length: 9 }, (_, i) => `Arvio ${19 - i}`),
    );
    const second = await pageOf(`productId=${productId}&page=2`);
    expect(second.hits.map((h) => h.text)[0]).toBe('Arvio 10');
    expect(second.hasMore).toBe(true);
    const third = await pageOf(`productId=${productId}&page=3`);
    expect(third.hits.map((h) => h.text)).toEqual(['Arvio 1', 'Arvio 0']);
    expect(third.hasMore).toBe(false);
    const beyond = await pageOf(`productId=${productId}&page=4`);
    expect(beyond).toMatchObject({ hits: [], hasMore: false, totalCount: 20 });
    const sized = await pageOf(`productId=${productId}&pageSize=20`);
    expect(sized.hits).toHaveLength(20);
    expect(sized.hasMore).toBe(false);
  });

  it('shows the same reviews on every language version of the product', async () => {
    const fromSwedish = await pageOf(`productId=${svId}&language=sv`);
    const fromFinnish = await pageOf(`productId=${productId}`);
    expect(fromSwedish.hits).toEqual(fromFinnish.hits);
    expect(fromSwedish.productId).toBe(svId);
  });

  it('answers an empty page for a product without reviews', async () => {
    const quiet = await createProduct(t.app.db, {
      siteId: 'lihakauppa',
      kind: 'shop-product',
      path: '/tuotteet/hiljainen',
      code: '8810060',
    });
    expect(await pageOf(`productId=${quiet.id}`)).toEqual({
      hits: [],
      hasMore: false,
      totalCount: 0,
      productId: quiet.id,
    });
    const res = await (await visitor()).get(`${REVIEW_API}?productId=999999999`);
    expect(res.statusCode).toBe(404);
  });

  it('refuses bad parameters with 400 naming them', async () => {
    const v = await visitor();
    const res = await v.get(`${REVIEW_API}?productId=x&page=0&pageSize=51&language=de`);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(Object.keys(res.json().errors).sort()).toEqual([
      'language',
      'page',
      'pageSize',
      'productId',
    ]);
    const missing = await v.get(REVIEW_API);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toHaveProperty('productId');
  });

  it('gives the product detail its average rating and review count, of published reviews', async () => {
    const res = await (await visitor()).get(`${PRODUCTS_API}/${code}?language=fi`);
    expect(res.statusCode, res.body).toBe(200);
    // Ratings 1..5 four times over: the average is 3.
    expect(productDetailSchema.parse(res.json())).toMatchObject({
      averageRating: 3,
      reviewCount: 20,
    });
    const one = await (await visitor()).get(`${PRODUCTS_API}/${single.code}?language=fi`);
    expect(one.json()).toMatchObject({ reviewCount: 1, averageRating: 5 });
  });

  it('renders the first page, the rating and its JSON-LD on the product page', async () => {
    const v = await visitor();
    const res = await v.get('/tuotteet/monta');
    expect(res.statusCode, res.body).toBe(200);
    const html = res.body;
    expect(html).toContain('id="reviews"');
    expect(html).toContain('Arvio 19');
    expect(html).toContain('Arvio 11');
    expect(html).not.toContain('Ei näy');
    expect(html).not.toContain('Arvio 10<');
    expect(html).toContain('href="?page=2#reviews"');
    // A visitor is offered the login, coming back here.
    expect(html).toContain(
      'href="/kirjaudu?paluu=%2Ftuotteet%2Fmonta">Kirjaudu sisään kirjoittaaksesi arvostelun<',
    );
    const ld = [...html.matchAll(/<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/gs)]
      .flatMap((m) => JSON.parse(m[1] ?? 'null'))
      .find((d) => d?.['@type'] === 'Product');
    expect(ld?.aggregateRating).toMatchObject({ ratingValue: 3, reviewCount: 20 });
  });

  it('shows every page up to `page` when the product page is opened with it', async () => {
    const html = (await (await visitor()).get('/tuotteet/monta?page=2')).body;
    expect(html).toContain('Arvio 10<');
    expect(html).toContain('Arvio 2<');
    expect(html).not.toContain('Arvio 1<');
    expect(html).toContain('href="?page=3#reviews"');
  });

  it('offers a logged-in customer the review button instead of the login link', async () => {
    const { v } = await customer();
    const html = (await v.get('/tuotteet/monta')).body;
    expect(html).toContain('aria-haspopup="dialog" aria-expanded="false">Kirjoita arvostelu<');
    expect(html).not.toContain('Kirjaudu sisään kirjoittaaksesi arvostelun');
  });

  it('has no JSON-LD rating for a product without reviews', async () => {
    const quiet = await createProduct(t.app.db, {
      siteId: 'lihakauppa',
      kind: 'shop-product',
      priceCents: 100,
      path: '/tuotteet/ei-arvioita',
      code: '8810070',
    });
    const html = (await (await visitor()).get(quiet.path)).body;
    expect(html).toContain('id="reviews"');
    expect(html).not.toContain('aggregateRating');
  });

  it('is on the shop only', async () => {
    const res = await t.app.inject({
      url: `${REVIEW_API}?productId=${productId}`,
      headers: { host: 'sibylla.localhost' },
    });
    expect(res.statusCode).toBe(404);
  });
});

describe.runIf(process.env.DATABASE_URL)('concurrent posts (PostgreSQL)', () => {
  it('10 concurrent posts by one customer for one product write one review', async () => {
    const code = '8810099';
    const product = await createProduct(t.app.db, {
      siteId: 'lihakauppa',
      kind: 'shop-product',
      priceCents: 100,
      path: '/tuotteet/kilpa',
      code,
    });
    const { v, id } = await customer();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(v, review(product.id, { text: `Yritys ${i}` }))),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(409)]);
    const rows = await t.app.db
      .select()
      .from(productReviews)
      .where(eq(productReviews.customerId, id));
    expect(rows).toHaveLength(1);
  });
});
