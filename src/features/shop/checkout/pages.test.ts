import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { confirmOrderByForm, purchaseFormFields } from '../../../../tests/helpers/shop.ts';
import { arrive, type Visitor } from '../../../../tests/helpers/visitor.ts';
import {
  addToCart,
  buyer,
  CODES,
  createCheckoutShop,
  deliveryDate,
  HOST,
  hold,
  POSTAL_CODE,
  SLOT,
} from '../orders/checkout.test-support.ts';
import { giftCardCodeHash } from '../orders/gift-cards.server.ts';
import { cancelledReturnPath } from '../orders/payment-returns.server.ts';
import { CHECKOUT_API, checkoutSchema, GIFT_CARD_ADD_API } from '../orders/schemas.ts';
import { checkoutHolds, giftCards, orders } from '../tables.ts';

/**
 * The checkout page `/kassa` (decision 029) on PGlite: login required, noindex and no-store, the
 * steps' plain forms (the hold and purchase-form), the failed-submit pattern after a refused post
 * (303 back, the summary, the title prefixed, the choice kept), and the order placed through the
 * same use cases as the JSON route, on to the payment or, for 0,00 €, the confirmation.
 */

let t: TestApp;
const date = deliveryDate();

beforeAll(async () => {
  t = await createTestApp();
  await createCheckoutShop(t.app.db, { slotCapacity: 1000 });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

function form(v: Visitor, fields: Record<string, string>, xsrf = v.xsrfToken ?? '') {
  return v.post('/kassa', {
    payload: new URLSearchParams({ _xsrf: xsrf, postinumero: POSTAL_CODE, ...fields }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

const title = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';

async function currentCheckout(v: Visitor) {
  const res = await v.get(`${CHECKOUT_API}?language=fi`);
  expect(res.statusCode, res.body).toBe(200);
  return checkoutSchema.parse(res.json());
}

describe('/kassa', () => {
  it('sends a visitor to log in with paluu back to the checkout', async () => {
    const v = await arrive(t.app, '/', { host: HOST });
    const res = await v.get(`/kassa?postinumero=${POSTAL_CODE}`);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(
      `/kirjaudu?paluu=${encodeURIComponent(`/kassa?postinumero=${POSTAL_CODE}`)}`,
    );
  });

  it('is the shop only', async () => {
    const v = await arrive(t.app, '/', { host: 'sibylla.localhost' });
    expect((await v.get('/kassa')).statusCode).toBe(404);
  });

  it("renders the steps for a customer: noindex, no-store, the cart's delivery times", async () => {
    const v = await buyer(t.app);
    await addToCart(v, CODES.plain, 2);
    const res = await v.get(`/kassa?postinumero=${POSTAL_CODE}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('<meta name="robots" content="noindex"/>');
    expect(title(res.body)).toMatch(/^Kassa/);
    expect(res.body).toContain('id="toimitus"');
    expect(res.body).toContain('id="maksu"');
    expect(res.body).toContain(`value="${date} ${SLOT}"`);
    expect(res.body).toContain('id="purchase-form"');
    expect(res.body).toContain('Lihakuja 3');
    // Without postinumero: the customer's own delivery postal code.
    const own = await v.get('/kassa');
    expect(own.statusCode).toBe(303);
    expect(own.headers.location).toBe(`/kassa?postinumero=${POSTAL_CODE}#toimitus`);
  });

  it("tells after a cancelled payment's return that the payment was cancelled, once the lines are back", async () => {
    const v = await buyer(t.app);
    await addToCart(v, CODES.plain);
    const cancelled =
      'Maksu peruttiin, eikä tilausta vahvistettu. Tuotteet ovat taas ostoskorissasi';
    const plain = await v.get(`/kassa?postinumero=${POSTAL_CODE}`);
    expect(plain.body).not.toContain(cancelled);
    const back = cancelledReturnPath({
      postalCode: POSTAL_CODE,
      deliveryAddress: { postalCode: POSTAL_CODE },
    }).replace(/#.*$/, '');
    const res = await v.get(back);
    expect(res.statusCode, res.body).toBe(200);
    const notice =
      /<p[^>]*role="status"[^>]*data-notice="payment-cancelled"[^>]*>([^<]*)<\/p>/.exec(res.body);
    expect(notice?.[1]).toContain(cancelled);
    // The notice comes before both steps, so it is seen on whichever step the page opens.
    expect(res.body.indexOf(cancelled)).toBeLessThan(res.body.indexOf('id="toimitus"'));
  });

  it('asks for a postal code it cannot read, with the failed-submit pattern', async () => {
    const v = await buyer(t.app);
    await addToCart(v, CODES.plain);
    const res = await v.get('/kassa?postinumero=abc');
    expect(res.statusCode).toBe(200);
    expect(title(res.body)).toMatch(/^Virhe: Kassa/);
    expect(res.body).toContain('id="error-summary"');
    expect(res.body).toContain('value="abc"');
  });

  it('a hold post without a time comes back with the summary, the title prefixed and the date kept', async () => {
    const v = await buyer(t.app);
    await addToCart(v, CODES.plain);
    const res = await form(v, { action: 'hold', date });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/kassa?postinumero=${POSTAL_CODE}`);
    const page = await v.get(`/kassa?postinumero=${POSTAL_CODE}`);
    expect(title(page.body)).toMatch(/^Virhe: Kassa/);
    expect(page.body).toContain('id="error-summary"');
    expect(page.body).toContain('Valitse toimitusaika.');
    // The billing box was not sent (unticked): it stays unticked.
    expect(page.body).not.toMatch(/name="useDeliveryAddressForBilling" checked=""/);
    // Shown once: a reload is the plain page again.
    const again = await v.get(`/kassa?postinumero=${POSTAL_CODE}`);
    expect(again.body).not.toContain('id="error-summary"');
  });

  it('refuses a post without the right anti-forgery field and holds nothing', async () => {
    const v = await buyer(t.app);
    await addToCart(v, CODES.plain);
    const res = await form(v, { action: 'hold', slot: `${date} ${SLOT}` }, 'väärä');
    expect(res.statusCode).toBe(303);
    expect((await currentCheckout(v)).hold).toBeNull();
    const page = await v.get(`/kassa?postinumero=${POSTAL_CODE}`);
    expect(page.body).toContain('Sivun voimassaolo päättyi');
  });

  it('takes the hold from the plain form, then places the order and goes to the test bank', async () => {
    const v = await buyer(t.app);
    await addToCart(v, CODES.plain, 2);
    const held = await form(v, { action: 'hold', slot: `${date} ${SLOT}` });
    expect(held.statusCode, held.body).toBe(303);
    expect(held.headers.location).toBe(`/kassa?postinumero=${POSTAL_CODE}#maksu`);
    const { hold: h } = await currentCheckout(v);
    expect(h?.date).toBe(date);
    expect(h?.time).toBe(SLOT);
    expect(h?.useDeliveryAddressForBilling).toBe(false);
    const page = await v.get(`/kassa?postinumero=${POSTAL_CODE}`);
    expect(page.body).toContain(`name="checkoutId" value="${h?.checkoutId}"`);
    expect(purchaseFormFields(page.body)).toMatchObject({
      total: '10,00',
      usedGiftCardAmount: '0,00',
    });
    const paid = await confirmOrderByForm(v, POSTAL_CODE);
    expect(paid.statusCode, paid.body).toBe(303);
    expect(paid.headers.location).toContain('/maksu/testipankki');
    const [row] = await t.app.db
      .select()
      .from(orders)
      .where(eq(orders.checkoutId, h?.checkoutId ?? ''));
    expect(row?.status).toBe('pending_payment');
    // The same checkout again: the same order, the same payment page.
    const again = await confirmOrderByForm(v, POSTAL_CODE, { checkoutId: h?.checkoutId ?? '' });
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe(paid.headers.location);
    const all = await t.app.db
      .select()
      .from(orders)
      .where(eq(orders.checkoutId, h?.checkoutId ?? ''));
    expect(all).toHaveLength(1);
  });

  it('a purchase without a live hold comes back to the delivery step', async () => {
    const v = await buyer(t.app);
    await addToCart(v, CODES.plain);
    const res = await confirmOrderByForm(v, POSTAL_CODE, {
      checkoutId: '0b8f2f8e-4b0c-4a53-9b1e-2f1d5e8d9a10',
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/kassa?postinumero=${POSTAL_CODE}`);
    const page = await v.get(`/kassa?postinumero=${POSTAL_CODE}`);
    expect(page.body).toContain('Toimitusajan varaus ehti vanhentua.');
  });

  it('a sold-out line refuses the hold, naming the product, and keeps the choice', async () => {
    const v = await buyer(t.app);
    await addToCart(v, CODES.perDate, 10);
    const other = await buyer(t.app);
    await addToCart(other, CODES.perDate, 1);
    // The other cart holds one of the ten sold on the date.
    expect((await hold(other, date)).statusCode).toBe(200);
    const res = await form(v, {
      action: 'hold',
      slot: `${date} ${SLOT}`,
      useDeliveryAddressForBilling: 'on',
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/kassa?postinumero=${POSTAL_CODE}`);
    const page = await v.get(`/kassa?postinumero=${POSTAL_CODE}`);
    expect(page.body).toContain('Tuote on juuri nyt loppuunmyyty');
    expect(page.body).toContain('Päivätuote');
    // The refused date is no longer offered; the billing box stays as sent.
    expect(page.body).toMatch(/name="useDeliveryAddressForBilling" checked=""/);
    const holds = await t.app.db.select().from(checkoutHolds);
    expect(holds.filter((row) => row.postalCode === POSTAL_CODE).length).toBeGreaterThan(0);
  });

  it('a cart paid by a gift card: purchase-form places a paid order and goes to the confirmation', async () => {
    const v = await buyer(t.app);
    await addToCart(v, CODES.plain);
    const code = `KASSA-${Date.now()}`;
    await t.app.db.insert(giftCards).values({
      siteId: 'lihakauppa',
      codeHash: giftCardCodeHash(code),
      initialCents: 10_000,
      balanceCents: 10_000,
    });
    const added = await v.post(`${GIFT_CARD_ADD_API}?language=fi&code=${code}`);
    expect(added.statusCode, added.body).toBe(200);
    expect((await form(v, { action: 'hold', slot: `${date} ${SLOT}` })).statusCode).toBe(303);
    const { cart, hold: h } = await currentCheckout(v);
    expect(cart.usedGiftCardAmount).toBe(cart.total);
    const page = await v.get(`/kassa?postinumero=${POSTAL_CODE}`);
    expect(page.body).toContain('Vahvista tilaus');
    expect(page.body).toContain('data-sum="payable">0,00');
    const res = await confirmOrderByForm(v, POSTAL_CODE);
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toContain('/kassa/vahvistus?tilaus=');
    const [row] = await t.app.db
      .select()
      .from(orders)
      .where(eq(orders.checkoutId, h?.checkoutId ?? ''));
    expect(row?.status).toBe('paid');
  });

  it('purchase-form posts the totals it shows: a gift card spent meanwhile refuses the order and the page shows the new total', async () => {
    const code = `KASSA-JAETTU-${Date.now()}`;
    await t.app.db.insert(giftCards).values({
      siteId: 'lihakauppa',
      codeHash: giftCardCodeHash(code),
      initialCents: 1000,
      balanceCents: 1000,
    });
    const v = await buyer(t.app);
    const other = await buyer(t.app);
    for (const shopper of [v, other]) {
      await addToCart(shopper, CODES.plain, 4);
      await shopper.post(`${GIFT_CARD_ADD_API}?language=fi&code=${code}`);
      expect((await form(shopper, { action: 'hold', slot: `${date} ${SLOT}` })).statusCode).toBe(
        303,
      );
    }
    const shown = purchaseFormFields((await v.get(`/kassa?postinumero=${POSTAL_CODE}`)).body);
    expect(shown).toMatchObject({ total: '20,00', usedGiftCardAmount: '10,00' });
    // Another order spends the card first.
    expect((await confirmOrderByForm(other, POSTAL_CODE)).headers.location).toContain(
      '/maksu/testipankki',
    );
    const refused = await confirmOrderByForm(v, POSTAL_CODE, shown);
    expect(refused.statusCode).toBe(303);
    expect(refused.headers.location).toBe(`/kassa?postinumero=${POSTAL_CODE}`);
    const page = await v.get(`/kassa?postinumero=${POSTAL_CODE}`);
    expect(page.body).toContain('Lahjakortilla on ehditty maksaa toinen tilaus');
    expect(purchaseFormFields(page.body)).toMatchObject({
      checkoutId: shown.checkoutId,
      total: '20,00',
      usedGiftCardAmount: '0,00',
    });
    expect(
      await t.app.db
        .select()
        .from(orders)
        .where(eq(orders.checkoutId, shown.checkoutId ?? '')),
    ).toEqual([]);
  });
});
