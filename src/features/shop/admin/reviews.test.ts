import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPage, createProduct } from '../../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { shopVisitorFrom } from '../../../../tests/helpers/shop.ts';
import { registerWithAddress } from '../../../../tests/helpers/shop-customer.ts';
import {
  auditCount,
  auditOf,
  type Enrolled,
  enrolledStaff,
  json,
} from '../../../../tests/helpers/staff.ts';
import type { Visitor } from '../../../../tests/helpers/visitor.ts';
import { serverT } from '../../../i18n/catalogues.ts';
import { REVIEW_API } from '../reviews/schemas.ts';
import { PRODUCTS_API } from '../schemas.ts';
import { productReviews } from '../tables.ts';
import { REVIEWS_API, type ReviewRow, type ReviewsList } from './reviews-schemas.ts';

/**
 * Review moderation (decision 148): under pre-moderation (the default) a shopper's review waits,
 * unlisted and uncounted, until a moderator approves it; the author is told it waits. Approving
 * and rejecting (with a reason) are made from the state seen: a repeat writes nothing, a stale
 * state is 409; each change leaves one audit row. A published review rejected later stops
 * counting. Under post-moderation a review shows at once. Only `reviews.moderate` for the shop
 * opens the queue and the changes.
 */
const PASSWORD = 'oikea-salasana-1';
const t = serverT('fi');
let app: TestApp;
let moderator: Enrolled;
let n = 0;

beforeAll(async () => {
  app = await createTestApp();
  await createPage(app.app.db, { siteId: 'lihakauppa', path: '/', type: 'home', title: 'Kauppa' });
  moderator = await enrolledStaff(app.app, [
    { role: 'customer-service', sites: ['lihakauppa'], langs: null },
  ]);
}, 120_000);
afterAll(async () => {
  await app?.close();
});

/** A shop product of its own, and a logged-in customer with a verified address. */
async function product(on: TestApp, name: string) {
  n += 1;
  return createProduct(on.app.db, {
    siteId: 'lihakauppa',
    kind: 'shop-product',
    priceCents: 990,
    name,
    path: `/tuotteet/moderoitava-${n}`,
    code: `88200${String(n).padStart(2, '0')}`,
  });
}

async function shopper(on: TestApp): Promise<Visitor> {
  n += 1;
  const v = await shopVisitorFrom(on, `10.2.0.${n}`);
  await registerWithAddress(v, `arvioija-${n}-${Date.now()}@example.fi`, PASSWORD, '00100');
  return v;
}

const write = (v: Visitor, productId: number, text: string, rating = 5) =>
  v.post(REVIEW_API, json({ productId, rating, text, userName: 'Maija' }));

async function rating(on: TestApp, code: string) {
  const res = await (await shopVisitorFrom(on, '10.2.9.1')).get(
    `${PRODUCTS_API}/${code}?language=fi`,
  );
  expect(res.statusCode, res.body).toBe(200);
  const { averageRating, reviewCount } = res.json() as {
    averageRating: number | null;
    reviewCount: number;
  };
  return { averageRating, reviewCount };
}

async function listed(on: TestApp, productId: number): Promise<string[]> {
  const res = await (await shopVisitorFrom(on, '10.2.9.2')).get(
    `${REVIEW_API}?productId=${productId}`,
  );
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { hits: { text: string }[] }).hits.map((h) => h.text);
}

async function queue(v: Visitor, state = 'pending'): Promise<ReviewsList> {
  const res = await v.get(`${REVIEWS_API}?state=${state}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ReviewsList;
}

const approve = (v: Visitor, id: number, from = 'pending') =>
  v.post(`${REVIEWS_API}/${id}/approve`, json({ from }));
const reject = (v: Visitor, id: number, reason: string, from = 'pending') =>
  v.post(`${REVIEWS_API}/${id}/reject`, json({ from, reason }));

async function reviewIdOf(text: string): Promise<number> {
  const [row] = await app.app.db
    .select({ id: productReviews.id })
    .from(productReviews)
    .where(eq(productReviews.text, text));
  if (!row) throw new Error(`no review "${text}"`);
  return row.id;
}

describe('pre-moderation (the default)', () => {
  it('hides a shopper’s review until approved; only then does the rating change', async () => {
    const item = await product(app, 'Naudan sisäfilee');
    const earlier = await shopper(app);
    await write(earlier, item.id, 'Aiempi arvio', 3);
    await approve(moderator.visitor, await reviewIdOf('Aiempi arvio'));
    expect(await rating(app, item.code)).toEqual({ averageRating: 3, reviewCount: 1 });

    // The shopper writes: the answer says it waits; nothing shows and the rating stays.
    const author = await shopper(app);
    const posted = await write(author, item.id, 'Erinomainen filee', 5);
    expect(posted.statusCode, posted.body).toBe(200);
    expect(posted.json()).toMatchObject({
      state: 'pending',
      review: { text: 'Erinomainen filee' },
    });
    expect(await listed(app, item.id)).toEqual(['Aiempi arvio']);
    expect(await rating(app, item.code)).toEqual({ averageRating: 3, reviewCount: 1 });
    const page = (await (await shopVisitorFrom(app, '10.2.9.3')).get(item.path)).body;
    expect(page).not.toContain('Erinomainen filee');
    // Its author is told it waits, in place of the button.
    const own = (await author.get(item.path)).body;
    expect(own).toContain(t('review.reviewedPending'));
    expect(own).not.toContain('Erinomainen filee');

    // The moderator's queue has it with its product and the verified-purchase mark.
    const waiting = await queue(moderator.visitor);
    const row = waiting.reviews.find((r) => r.text === 'Erinomainen filee');
    expect(row).toMatchObject({
      productId: item.id,
      productName: 'Naudan sisäfilee',
      productUrl: `http://lihakauppa.localhost${item.path}`,
      stars: 5,
      userName: 'Maija',
      isVerified: false,
      state: 'pending',
      rejectionReason: null,
      moderatedBy: null,
    });
    expect(waiting.counts.pending).toBeGreaterThanOrEqual(1);
    const id = row?.id ?? 0;

    // Approved: one audit row; listed, counted, and on the product page.
    const before = await auditCount(app.app);
    const approved = await approve(moderator.visitor, id);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({
      id,
      state: 'published',
      moderatedBy: expect.stringMatching(/^Henkilö \d+$/),
    });
    expect(await auditCount(app.app)).toBe(before + 1);
    const [audit] = (await auditOf(app.app, 'review.approve')).filter(
      (a) => a.subjectId === String(id),
    );
    expect(audit).toMatchObject({
      staffId: moderator.id,
      subjectType: 'review',
      siteId: 'lihakauppa',
      lang: 'fi',
      changes: { state: { before: 'pending', after: 'published' } },
    });
    expect(await listed(app, item.id)).toEqual(['Erinomainen filee', 'Aiempi arvio']);
    expect(await rating(app, item.code)).toEqual({ averageRating: 4, reviewCount: 2 });
    expect((await (await shopVisitorFrom(app, '10.2.9.4')).get(item.path)).body).toContain(
      'Erinomainen filee',
    );
    expect((await author.get(item.path)).body).toContain(t('review.reviewed'));
  });

  it('approving an approved review changes nothing; a stale state is 409 and writes nothing', async () => {
    const item = await product(app, 'Porsaan ulkofilee');
    await write(await shopper(app), item.id, 'Kahdesti hyväksytty');
    const id = await reviewIdOf('Kahdesti hyväksytty');
    expect((await approve(moderator.visitor, id)).statusCode).toBe(200);
    const before = await auditCount(app.app);
    const again = await approve(moderator.visitor, id);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ state: 'published' });
    expect(await auditCount(app.app)).toBe(before);

    // Rejecting it as if it still waited: someone published it meanwhile.
    const stale = await reject(moderator.visitor, id, 'Asiaton', 'pending');
    expect(stale.statusCode).toBe(409);
    expect(stale.headers['content-type']).toContain('application/problem+json');
    expect(stale.json()).toMatchObject({ status: 409, state: 'published' });
    expect(await auditCount(app.app)).toBe(before);
    expect(await rating(app, item.code)).toEqual({ averageRating: 5, reviewCount: 1 });
  });

  it('rejects with a required reason; a published review rejected later stops counting', async () => {
    const item = await product(app, 'Jauheliha');
    await write(await shopper(app), item.id, 'Hyvä jauheliha', 4);
    await write(await shopper(app), item.id, 'Mainos: osta muualta', 1);
    const good = await reviewIdOf('Hyvä jauheliha');
    const spam = await reviewIdOf('Mainos: osta muualta');

    const before = await auditCount(app.app);
    const blank = await reject(moderator.visitor, spam, '   ');
    expect(blank.statusCode).toBe(400);
    expect(blank.json().errors).toEqual({ reason: 'admin.error.required' });
    const long = await reject(moderator.visitor, spam, 'x'.repeat(501));
    expect(long.json().errors).toEqual({ reason: 'admin.error.tooLong' });
    expect(await auditCount(app.app)).toBe(before);

    const rejected = await reject(moderator.visitor, spam, '  Mainos  ');
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json()).toMatchObject({ state: 'rejected', rejectionReason: 'Mainos' });
    const [audit] = (await auditOf(app.app, 'review.reject')).filter(
      (a) => a.subjectId === String(spam),
    );
    expect(audit?.changes).toEqual({
      state: { before: 'pending', after: 'rejected' },
      reason: { after: 'Mainos' },
    });
    expect(await listed(app, item.id)).toEqual([]);

    await approve(moderator.visitor, good);
    expect(await rating(app, item.code)).toEqual({ averageRating: 4, reviewCount: 1 });
    // Taken down after all: no longer listed or counted.
    const down = await reject(moderator.visitor, good, 'Väärä tuote', 'published');
    expect(down.statusCode, down.body).toBe(200);
    expect(await listed(app, item.id)).toEqual([]);
    expect(await rating(app, item.code)).toEqual({ averageRating: null, reviewCount: 0 });
    // Rejecting it again changes nothing, not even the reason.
    const count = await auditCount(app.app);
    const again = await reject(moderator.visitor, good, 'Toinen syy', 'published');
    expect(again.json()).toMatchObject({ state: 'rejected', rejectionReason: 'Väärä tuote' });
    expect(await auditCount(app.app)).toBe(count);
    // And published again: the reason goes.
    const back = await approve(moderator.visitor, good, 'rejected');
    expect(back.json()).toMatchObject({ state: 'published', rejectionReason: null });
    expect(await rating(app, item.code)).toEqual({ averageRating: 4, reviewCount: 1 });
    // The author of the rejected one is told it was not published.
    const rejectedQueue = await queue(moderator.visitor, 'rejected');
    expect(rejectedQueue.reviews.map((r: ReviewRow) => r.id)).toContain(spam);
  });

  it('tells the author of a rejected review that it was not published', async () => {
    const item = await product(app, 'Broilerin fileesuikale');
    const author = await shopper(app);
    await write(author, item.id, 'Hylättävä arvio');
    await reject(moderator.visitor, await reviewIdOf('Hylättävä arvio'), 'Asiaton kieli');
    const html = (await author.get(item.path)).body;
    expect(html).toContain(t('review.reviewedRejected'));
    expect(html).not.toContain('Asiaton kieli');
    expect(html).not.toContain('Kirjoita arvostelu<');
  });

  it('refreshes a product page that anonymous visitors share when a review is approved', async () => {
    const item = await product(app, 'Lampaan kare');
    await write(await shopper(app), item.id, 'Välimuistin ohi');
    const id = await reviewIdOf('Välimuistin ohi');
    const anonymous = () =>
      app.app.inject({ url: item.path, headers: { host: 'lihakauppa.localhost' } });
    await anonymous();
    const cached = await anonymous();
    expect(cached.headers['x-page-cache']).toBe('hit');
    expect(cached.body).not.toContain('Välimuistin ohi');
    await approve(moderator.visitor, id);
    expect((await anonymous()).body).toContain('Välimuistin ohi');
  });
});

describe('who may moderate', () => {
  it('refuses staff without reviews.moderate for the shop (403), before the body is read', async () => {
    const item = await product(app, 'Kalkkuna');
    await write(await shopper(app), item.id, 'Kielletty moderointi');
    const id = await reviewIdOf('Kielletty moderointi');
    const shopless = await enrolledStaff(app.app, [
      { role: 'customer-service', sites: ['jyvabroiler'], langs: null },
    ]);
    const editor = await enrolledStaff(app.app, [{ role: 'editor', sites: null, langs: null }]);
    const before = await auditCount(app.app);
    for (const v of [shopless.visitor, editor.visitor]) {
      expect((await v.get(REVIEWS_API)).statusCode).toBe(403);
      const refused = await v.post(`${REVIEWS_API}/${id}/approve`, json({}));
      expect(refused.statusCode).toBe(403);
      expect(refused.headers['content-type']).toContain('application/problem+json');
      expect((await reject(v, id, 'Ei')).statusCode).toBe(403);
    }
    expect(await auditCount(app.app)).toBe(before);
    expect((await queue(moderator.visitor)).reviews.map((r) => r.id)).toContain(id);
    // Without a session: 401.
    expect((await app.app.inject({ url: REVIEWS_API })).statusCode).toBe(401);
  });

  it('gives the permission to administrators, customer service and shop staff (migration 0030)', async () => {
    for (const role of ['admin', 'customer-service', 'shop-staff']) {
      const person = await enrolledStaff(app.app, [{ role, sites: null, langs: null }]);
      expect((await person.visitor.get(REVIEWS_API)).statusCode, role).toBe(200);
    }
  });

  it('answers 404 for a review that does not exist, 400 for a bad state', async () => {
    expect((await approve(moderator.visitor, 999_999)).statusCode).toBe(404);
    expect((await moderator.visitor.get(`${REVIEWS_API}?state=waiting`)).statusCode).toBe(400);
    expect(
      (await moderator.visitor.post(`${REVIEWS_API}/1/approve`, json({ from: 'published' })))
        .statusCode,
    ).toBe(400);
  });
});

describe('post-moderation (SHOP_REVIEW_MODERATION=post)', () => {
  let post: TestApp;
  beforeAll(async () => {
    post = await createTestApp({ config: { reviewModeration: 'post' } });
  }, 120_000);
  afterAll(async () => {
    await post?.close();
  });

  it('publishes a review at once; a moderator who rejects it takes it out of the rating', async () => {
    const item = await product(post, 'Savukinkku');
    const author = await shopper(post);
    const posted = await write(author, item.id, 'Heti näkyvä arvio', 2);
    expect(posted.json()).toMatchObject({ state: 'published' });
    expect(await listed(post, item.id)).toEqual(['Heti näkyvä arvio']);
    expect(await rating(post, item.code)).toEqual({ averageRating: 2, reviewCount: 1 });
    expect((await author.get(item.path)).body).toContain(t('review.reviewed'));

    const staff = await enrolledStaff(post.app, [{ role: 'shop-staff', sites: null, langs: null }]);
    const published = await queue(staff.visitor, 'published');
    const id = published.reviews.find((r) => r.text === 'Heti näkyvä arvio')?.id ?? 0;
    expect((await reject(staff.visitor, id, 'Loukkaava', 'published')).statusCode).toBe(200);
    expect(await listed(post, item.id)).toEqual([]);
    expect(await rating(post, item.code)).toEqual({ averageRating: null, reviewCount: 0 });
  });
});
