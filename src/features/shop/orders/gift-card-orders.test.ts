import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import type { Visitor } from '../../../../tests/helpers/visitor.ts';
import { openText } from '../../forms/crypto.server.ts';
import { mailOutbox } from '../../forms/tables.ts';
import { cartSchema } from '../schemas.ts';
import { checkoutHolds, giftCards, orders } from '../tables.ts';
import {
  addToCart,
  buyer,
  CODES,
  createCheckoutShop,
  emailOf,
  held,
  json,
  order,
  POSTAL_CODE,
  pathOf,
  testBank,
} from './checkout.test-support.ts';
import { giftCardCodeHash, newGiftCardCode } from './gift-cards.server.ts';
import {
  CHECKOUT_HOLD_API,
  checkoutSchema,
  GIFT_CARD_ADD_API,
  orderAnswerSchema,
} from './schemas.ts';

/**
 * Gift cards bought as products (decision 030), on PGlite: a cart of gift cards only is checked
 * out without a delivery time; paying the order issues one card per unit and mails the codes to
 * the shopper alone; a code bought so pays in another cart. Also: an order paid at once (0,00)
 * gets its mails like a paid one.
 */

let t: TestApp;
const SHOP_EMAIL = 'tilaukset@kattaus.localhost';

beforeAll(async () => {
  t = await createTestApp();
  await createCheckoutShop(t.app.db);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** The mails of an order (subject names its number), opened. */
async function mailsOf(orderNumber: number) {
  const rows = await t.app.db
    .select()
    .from(mailOutbox)
    .where(like(mailOutbox.subject, `%${orderNumber}%`));
  return rows.map((row) => ({
    to: row.recipients,
    subject: row.subject,
    text: openText(t.app.config.forms.encryptionKey, row.sealedBody),
  }));
}

/** A hold of a cart of gift cards only: no postal code, date or time. */
async function mailHold(v: Visitor) {
  const res = await v.post(
    `${CHECKOUT_HOLD_API}?language=fi`,
    json({ useDeliveryAddressForBilling: true }),
  );
  expect(res.statusCode, res.body).toBe(200);
  return checkoutSchema.parse(res.json());
}

const CODE = /LAHJA-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}/g;

describe('a cart of gift cards only', () => {
  it('needs no delivery time; paying issues a card per unit, mailed to the shopper only', async () => {
    const v = await buyer(t.app);
    await addToCart(v, CODES.gift, 2);
    const checkout = await mailHold(v);
    expect(checkout.cart.hasGiftCardsOnly).toBe(true);
    expect(checkout.hold).toMatchObject({ postalCode: null, date: null, time: null });
    expect(checkout.hold?.label).toBe('Sähköpostitse');
    const checkoutId = checkout.hold?.checkoutId ?? '';

    const res = await order(v, checkoutId);
    expect(res.statusCode, res.body).toBe(200);
    const placed = orderAnswerSchema.parse(res.json());
    expect(placed.status).toBe('pending_payment');
    const [row] = await t.app.db.select().from(orders).where(eq(orders.id, placed.orderId));
    expect(row).toMatchObject({
      areaId: null,
      postalCode: null,
      deliveryDate: null,
      startTime: null,
      endTime: null,
      totalCents: 4000,
    });
    // Nothing is issued before the money comes.
    expect(
      await t.app.db.select().from(giftCards).where(eq(giftCards.orderId, placed.orderId)),
    ).toHaveLength(0);

    const back = await testBank(v, placed.next, 'ok');
    expect((await v.get(pathOf(back))).statusCode).toBe(303);
    // The return again and as a callback: no second set of cards.
    expect((await v.get(pathOf(back))).statusCode).toBe(303);
    const callback = await t.app.inject({
      method: 'GET',
      url: `/api/v1/lihakauppa/payment/callback${new URL(back).search}`,
      headers: { host: 'lihakauppa.localhost' },
    });
    expect(callback.statusCode, callback.body).toBe(200);

    const cards = await t.app.db
      .select()
      .from(giftCards)
      .where(eq(giftCards.orderId, placed.orderId));
    expect(cards.map((c) => [c.orderLineCode, c.orderSeq, c.initialCents, c.balanceCents])).toEqual(
      expect.arrayContaining([
        [CODES.gift, 1, 2000, 2000],
        [CODES.gift, 2, 2000, 2000],
      ]),
    );
    expect(cards).toHaveLength(2);
    const validDays = ((cards[0]?.validTo?.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(validDays).toBeGreaterThan(700);
    expect(validDays).toBeLessThan(740);

    const mails = await mailsOf(placed.orderNumber);
    expect(mails.map((m) => m.to).sort()).toEqual(
      [emailOf.get(v), emailOf.get(v), SHOP_EMAIL].sort(),
    );
    const codeMail = mails.find((m) => m.subject.startsWith('Lahjakorttisi'));
    const codes = [...(codeMail?.text.matchAll(CODE) ?? [])].map((m) => m[0]);
    expect(codes).toHaveLength(2);
    expect(codeMail?.text).toContain('arvo 20,00 €');
    // Only the hash is stored, and only the shopper's mail carries the codes.
    expect(cards.map((c) => c.codeHash).sort()).toEqual(codes.map(giftCardCodeHash).sort());
    for (const mail of mails.filter((m) => m !== codeMail)) {
      expect(mail.text).not.toMatch(CODE);
    }
    const confirmation = mails.find((m) => m.to === emailOf.get(v) && m !== codeMail);
    expect(confirmation?.text).toContain('Toimitusaika: Sähköpostitse');

    const page = await v.get(`/kassa/vahvistus?tilaus=${placed.orderId}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Sähköpostitse');
    expect(page.body).toContain(
      `Lahjakorttien koodit on lähetetty sähköpostiisi ${emailOf.get(v)}`,
    );

    // A bought code pays in another shopper's cart.
    const other = await buyer(t.app);
    await addToCart(other, CODES.plain, 1);
    const added = await other.post(`${GIFT_CARD_ADD_API}?language=fi&code=${codes[0]}`);
    expect(added.statusCode, added.body).toBe(200);
    expect(cartSchema.parse(added.json()).usedGiftCardAmount).toBe('5,00');
  });

  it('a cart with goods still needs the delivery time: 400 naming each missing field', async () => {
    const v = await buyer(t.app);
    await addToCart(v, CODES.gift, 1);
    await addToCart(v, CODES.plain, 1);
    const res = await v.post(
      `${CHECKOUT_HOLD_API}?language=fi`,
      json({ useDeliveryAddressForBilling: true }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json().errors).toEqual({
      postalCode: 'validation.required',
      date: 'validation.required',
      time: 'validation.required',
    });
    // With a time it is a usual delivery hold; the gift card rides along.
    const checkoutId = await held(v);
    const placed = orderAnswerSchema.parse((await order(v, checkoutId)).json());
    const [row] = await t.app.db.select().from(orders).where(eq(orders.id, placed.orderId));
    expect(row?.postalCode).toBe(POSTAL_CODE);
    expect(row?.deliveryDate).not.toBeNull();
  });

  it('goods added after the hold without a time drop it: the order is refused, nothing written', async () => {
    const v = await buyer(t.app);
    await addToCart(v, CODES.gift, 1);
    const checkoutId = (await mailHold(v)).hold?.checkoutId ?? '';
    await addToCart(v, CODES.plain, 1);
    expect(
      await t.app.db.select().from(checkoutHolds).where(eq(checkoutHolds.id, checkoutId)),
    ).toHaveLength(0);
    const res = await order(v, checkoutId);
    expect(res.statusCode).toBe(409);
    expect(res.json().errors).toHaveProperty('checkoutId');
    expect(
      await t.app.db.select().from(orders).where(eq(orders.checkoutId, checkoutId)),
    ).toHaveLength(0);
  });

  it('the page without script takes the hold without a time and goes on to the payment', async () => {
    const v = await buyer(t.app);
    await addToCart(v, CODES.gift, 1);
    const page = await v.get(`/kassa?postinumero=${POSTAL_CODE}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Lahjakortit toimitetaan sähköpostitse');
    expect(page.body).not.toContain('id="checkout-slot"');
    const res = await v.post('/kassa', {
      payload: new URLSearchParams({
        _xsrf: v.xsrfToken ?? '',
        postinumero: POSTAL_CODE,
        action: 'hold',
        useDeliveryAddressForBilling: 'on',
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe(`/kassa?postinumero=${POSTAL_CODE}#maksu`);
    const after = await v.get(`/kassa?postinumero=${POSTAL_CODE}`);
    expect(after.body).toContain('data-hold="true">Sähköpostitse');
    // Nothing to change about a mailed card's delivery.
    expect(after.body).not.toContain('Muuta toimitusaikaa');
  });
});

describe('an order paid at once (0,00)', () => {
  it('gets the shopper’s confirmation and the shop’s notification like a paid one', async () => {
    const code = newGiftCardCode();
    await t.app.db.insert(giftCards).values({
      siteId: 'lihakauppa',
      codeHash: giftCardCodeHash(code),
      initialCents: 10_000,
      balanceCents: 10_000,
    });
    const v = await buyer(t.app);
    await addToCart(v, CODES.plain, 2);
    expect((await v.post(`${GIFT_CARD_ADD_API}?language=fi&code=${code}`)).statusCode).toBe(200);
    const checkoutId = await held(v);
    const placed = orderAnswerSchema.parse((await order(v, checkoutId)).json());
    expect(placed.status).toBe('paid');
    const mails = await mailsOf(placed.orderNumber);
    expect(mails.map((m) => m.to).sort()).toEqual([emailOf.get(v), SHOP_EMAIL].sort());
    // Submitting the same checkout again mails nothing more.
    expect(orderAnswerSchema.parse((await order(v, checkoutId)).json()).orderId).toBe(
      placed.orderId,
    );
    expect(await mailsOf(placed.orderNumber)).toHaveLength(2);
  });
});
