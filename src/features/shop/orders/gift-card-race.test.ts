import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { type ShownTotals, shownTotals } from '../../../../tests/helpers/shop.ts';
import { arrive, fromAddress, type Visitor } from '../../../../tests/helpers/visitor.ts';
import { openSameDatabase } from '../../../../tests/setup/database.ts';
import type { DatabaseHandle } from '../../../db/client.ts';
import { ACCOUNT_API } from '../customer/schemas.ts';
import { giftCards, orders } from '../tables.ts';
import {
  addToCart,
  buyer,
  CODES,
  createCheckoutShop,
  emailOf,
  HOST,
  held,
  json,
  order,
  PASSWORD,
} from './checkout.test-support.ts';
import { giftCardCodeHash } from './gift-cards.server.ts';
import { CHECKOUT_API, checkoutSchema, GIFT_CARD_ADD_API, orderAnswerSchema } from './schemas.ts';

/**
 * One customer checks out the same gift card in six browsers at once, through two server
 * processes on one PostgreSQL database (two apps, each with its own connection pool): the card
 * pays one order; the others are refused with 409 naming `giftCards`, never placed at a higher
 * total than the one their checkout showed. PostgreSQL only (DATABASE_URL): PGlite has one
 * connection, so nothing races there.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
const SESSIONS = 6;
const CARD = 'LAHJA-RACE-2000';
let t: TestApp;
let second: TestApp;
let secondDatabase: DatabaseHandle;

beforeAll(async () => {
  if (!onPostgres) return;
  t = await createTestApp();
  await createCheckoutShop(t.app.db, { slotCapacity: 1000 });
  await t.app.db.insert(giftCards).values({
    siteId: 'lihakauppa',
    codeHash: giftCardCodeHash(CARD),
    initialCents: 2000,
    balanceCents: 2000,
  });
  secondDatabase = await openSameDatabase(t.database);
  second = await createTestApp({ database: secondDatabase });
}, 120_000);
afterAll(async () => {
  await second?.close();
  await secondDatabase?.close();
  await t?.close();
});

describe('one gift card in six checkouts at once (PostgreSQL, two processes)', () => {
  it.runIf(onPostgres)(
    'one order gets the card; the others are refused naming giftCards and their carts show the card spent',
    async () => {
      // The account's browsers, half on each process, each logged in (the last login keeps the
      // saved cart; the others start carts of their own).
      const first = await buyer(t.app);
      const browsers: Visitor[] = [first];
      for (let i = 1; i < SESSIONS; i++) {
        const app = i % 2 === 0 ? t.app : second.app;
        const v = fromAddress(await arrive(app, '/', { host: HOST }), `10.77.0.${i}`);
        const login = await v.post(
          `${ACCOUNT_API}/login`,
          json({ email: emailOf.get(first), password: PASSWORD }),
        );
        expect(login.statusCode, login.body).toBe(200);
        browsers.push(v);
      }
      const ids: string[] = [];
      const shown: ShownTotals[] = [];
      for (const v of browsers) {
        await addToCart(v, CODES.box);
        const added = await v.post(`${GIFT_CARD_ADD_API}?language=fi&code=${CARD}`);
        expect(added.statusCode, added.body).toBe(200);
        ids.push(await held(v));
        shown.push(await shownTotals(v));
      }
      expect(new Set(shown.map((s) => JSON.stringify(s)))).toEqual(
        new Set([JSON.stringify({ total: '60,79', usedGiftCardAmount: '20,00' })]),
      );

      const answers = await Promise.all(
        browsers.map((v, i) => order(v, ids[i] as string, 'FI50', shown[i])),
      );
      const statuses = answers.map((a) => a.statusCode);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(SESSIONS - 1);
      const placed = answers
        .filter((a) => a.statusCode === 200)
        .map((a) => orderAnswerSchema.parse(a.json()).orderId);
      for (const [i, answer] of answers.entries()) {
        if (answer.statusCode !== 409) continue;
        expect(answer.json().errors).toEqual({ giftCards: 'shop.checkout.giftCardChanged' });
        const v = browsers[i] as Visitor;
        const now = checkoutSchema.parse((await v.get(`${CHECKOUT_API}?language=fi`)).json());
        expect(now.cart).toMatchObject({ total: '60,79', usedGiftCardAmount: '0,00' });
        expect(now.hold?.checkoutId).toBe(ids[i]);
      }
      const rows = await t.app.db.select().from(orders).where(inArray(orders.checkoutId, ids));
      expect(rows.map((r) => r.id)).toEqual(placed);
      expect(rows[0]).toMatchObject({ totalCents: 4079, usedGiftCardCents: 2000 });
      const [card] = await t.app.db
        .select({ balance: giftCards.balanceCents })
        .from(giftCards)
        .where(eq(giftCards.codeHash, giftCardCodeHash(CARD)));
      expect(card?.balance).toBe(0);
    },
    120_000,
  );
});
