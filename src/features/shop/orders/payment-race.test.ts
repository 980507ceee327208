import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { products } from '../../content/tables.ts';
import { mailOutbox } from '../../forms/tables.ts';
import { testBank } from '../payment/providers.server.ts';
import type { TestBankTicket } from '../payment/testbank.server.ts';
import { CART_API, cartSchema } from '../schemas.ts';
import { giftCards, orderPayments, orders } from '../tables.ts';
import {
  addToCart,
  buyer,
  CODES,
  createCheckoutShop,
  HOST,
  held,
  order,
  stockOf,
} from './checkout.test-support.ts';
import { PAYMENT_CALLBACK_PATH } from './payments.server.ts';
import { orderAnswerSchema } from './schemas.ts';

/**
 * The payment's returns at once, on a real PostgreSQL server (several connections, real row
 * locks): runs only when DATABASE_URL is set. PGlite has one connection, so nothing would race.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
let t: TestApp;
const SHOP_EMAIL = 'tilaukset@kattaus.localhost';

beforeAll(async () => {
  if (!onPostgres) return;
  t = await createTestApp();
  await createCheckoutShop(t.app.db, { weeklyQuantity: 100 });
  await t.app.db.update(products).set({ stock: 100 }).where(eq(products.code, CODES.stocked));
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/**
 * A placed order (with `giftCards` gift cards bought besides the goods) and the signed `ok` and
 * `fail` returns of its test bank payment.
 */
async function placedWithReturns(giftCards = 0) {
  const shopper = await buyer(t.app);
  await addToCart(shopper, CODES.stocked, 3);
  await addToCart(shopper, CODES.plain, 1);
  if (giftCards > 0) await addToCart(shopper, CODES.gift, giftCards);
  const res = await order(shopper, await held(shopper));
  expect(res.statusCode, res.body).toBe(200);
  const answer = orderAnswerSchema.parse(res.json());
  const bank = testBank(t.app);
  const ticket = bank.openTicket(new URL(answer.next).searchParams.get('maksu')) as TestBankTicket;
  expect(ticket).toBeDefined();
  const query = (status: 'ok' | 'fail') => new URL(bank.returnUrl(ticket, status)).search;
  return { shopper, answer, ok: query('ok'), fail: query('fail') };
}

/** The gift cards an order issued. */
const cardsOf = (orderId: string) =>
  t.app.db.select().from(giftCards).where(eq(giftCards.orderId, orderId));

const callback = (search: string) =>
  t.app.inject({
    method: 'GET',
    url: `${PAYMENT_CALLBACK_PATH}${search}`,
    headers: { host: HOST },
  });

describe('payment returns at once (PostgreSQL)', () => {
  it.runIf(onPostgres)(
    'one ok callback delivered 10 times at once: paid once, one mail to the shopper, one to the shop',
    async () => {
      const { answer, ok } = await placedWithReturns();
      const answers = await Promise.all(Array.from({ length: 10 }, () => callback(ok)));
      expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
      const [row] = await t.app.db.select().from(orders).where(eq(orders.id, answer.orderId));
      expect(row?.status).toBe('paid');
      const mails = await t.app.db
        .select({ recipients: mailOutbox.recipients })
        .from(mailOutbox)
        .where(like(mailOutbox.subject, `%${answer.orderNumber}%`));
      expect(mails.map((m) => m.recipients).sort()).toEqual([row?.email, SHOP_EMAIL].sort());
    },
  );

  it.runIf(onPostgres)(
    'the same for an order with two gift cards: the cards issued once, their codes mailed once',
    async () => {
      const { answer, ok } = await placedWithReturns(2);
      const answers = await Promise.all(Array.from({ length: 10 }, () => callback(ok)));
      expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
      expect(await cardsOf(answer.orderId)).toHaveLength(2);
      const mails = await t.app.db
        .select({ subject: mailOutbox.subject })
        .from(mailOutbox)
        .where(like(mailOutbox.subject, `%${answer.orderNumber}%`));
      expect(mails.filter((m) => m.subject.startsWith('Lahjakorttisi'))).toHaveLength(1);
      expect(mails).toHaveLength(3);
    },
  );

  it.runIf(onPostgres)(
    'fail and ok racing, many times: one consistent outcome, given back at most once',
    async () => {
      for (let round = 0; round < 5; round++) {
        const before = await stockOf(t.app.db, CODES.stocked);
        const { shopper, answer, ok, fail } = await placedWithReturns(1);
        const placedStock = await stockOf(t.app.db, CODES.stocked);
        expect(placedStock).toBe((before ?? 0) - 3);
        const calls = Array.from({ length: 6 }, (_, i) =>
          callback(i % 2 === round % 2 ? ok : fail),
        );
        const answers = await Promise.all(calls);
        expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(200));
        const [row] = await t.app.db.select().from(orders).where(eq(orders.id, answer.orderId));
        const [attempt] = await t.app.db
          .select()
          .from(orderPayments)
          .where(eq(orderPayments.orderId, answer.orderId));
        const mails = await t.app.db
          .select({ recipients: mailOutbox.recipients, subject: mailOutbox.subject })
          .from(mailOutbox)
          .where(like(mailOutbox.subject, `%${answer.orderNumber}%`));
        expect(attempt?.status).toBe('ok');
        if (row?.status === 'paid') {
          // The ok came first: the fails changed nothing.
          expect(await stockOf(t.app.db, CODES.stocked)).toBe(placedStock);
          expect(mails).toHaveLength(3);
          expect(await cardsOf(answer.orderId)).toHaveLength(1);
        } else {
          // A fail came first: cancelled and given back once; the late ok went to the shop.
          expect(row?.status).toBe('cancelled');
          expect(await stockOf(t.app.db, CODES.stocked)).toBe(before);
          expect(mails.map((m) => m.recipients)).toEqual([SHOP_EMAIL]);
          expect(await cardsOf(answer.orderId)).toHaveLength(0);
          const cart = cartSchema.parse((await shopper.get(`${CART_API}/load?language=fi`)).json());
          expect(cart.lineItems.find((l) => l.code === CODES.stocked)?.quantity).toBe(3);
        }
      }
    },
  );
});
