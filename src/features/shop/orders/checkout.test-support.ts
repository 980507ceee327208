import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { createPage, createShopProducts } from '../../../../tests/factories/index.ts';
import { confirmOrder, type ShownTotals } from '../../../../tests/helpers/shop.ts';
import { registerWithAddress, unverifyEmail } from '../../../../tests/helpers/shop-customer.ts';
import {
  arrive,
  fromAddress,
  type Visitor,
  type VisitTarget,
} from '../../../../tests/helpers/visitor.ts';
import type { Database } from '../../../db/client.ts';
import { products } from '../../content/tables.ts';
import { addDays, helsinkiDate } from '../dates.ts';
import { TEST_BANK_PATH } from '../payment/testbank.server.ts';
import { CART_API } from '../schemas.ts';
import {
  deliveryAreaPostalCodes,
  deliveryAreas,
  deliveryCalendarSlots,
  productWeeklyStock,
} from '../tables.ts';
import { CHECKOUT_HOLD_API, checkoutSchema } from './schemas.ts';

/**
 * A small shop for the checkout's tests: an area delivering every day at 08–12 (cut-off the day
 * before at 23:59, so "in three days" is always open) and the products the tests buy.
 */

export const HOST = 'lihakauppa.localhost';
export const POSTAL_CODE = '00100';
export const SLOT = '08:00-12:00';
export const PASSWORD = 'salasana-joka-on-pitka';

export const CODES = {
  /** Sold per date: `weeklyQuantity` every weekday. */
  perDate: '5900001',
  /** Unlimited. */
  plain: '5900002',
  /** Overall stock 5. */
  stocked: '5900003',
  gift: '5900004',
  /** 60,79: with a gift card of 20,00 the checkout shows 40,79 to pay. */
  box: '5900005',
};

/** A date the slot is open on, `days` from today (Helsinki). */
export const deliveryDate = (days = 3) => addDays(helsinkiDate(new Date()), days);

export async function createCheckoutShop(
  db: Database,
  options: { slotCapacity?: number; weeklyQuantity?: number; stock?: number } = {},
): Promise<{ areaId: number }> {
  await createShopProducts(db, [
    { path: '/tuotteet/paivatuote', code: CODES.perDate, name: 'Päivätuote', priceCents: 1000 },
    { path: '/tuotteet/perustuote', code: CODES.plain, name: 'Perustuote', priceCents: 500 },
    {
      path: '/tuotteet/varastotuote',
      code: CODES.stocked,
      name: 'Varastotuote',
      priceCents: 700,
      stock: options.stock ?? 5,
    },
    {
      path: '/lahjakortit/lahjakortti-20',
      code: CODES.gift,
      name: 'Lahjakortti 20 €',
      priceCents: 2000,
      isGiftCard: true,
    },
    { path: '/tuotteet/lihalaatikko', code: CODES.box, name: 'Lihalaatikko', priceCents: 6079 },
  ]);
  await createPage(db, { siteId: 'lihakauppa', path: '/', type: 'home', title: 'Lihakauppa' });
  const [area] = await db
    .insert(deliveryAreas)
    .values({ siteId: 'lihakauppa', name: 'Testi' })
    .returning();
  if (!area) throw new Error('no area');
  await db
    .insert(deliveryAreaPostalCodes)
    .values({ siteId: 'lihakauppa', postalCode: POSTAL_CODE, areaId: area.id });
  await db.insert(deliveryCalendarSlots).values(
    [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
      areaId: area.id,
      weekday,
      startTime: '08:00',
      endTime: '12:00',
      capacity: options.slotCapacity ?? 1000,
      cutoffDaysBefore: 1,
      cutoffTime: '23:59',
    })),
  );
  await db.insert(productWeeklyStock).values(
    [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
      siteId: 'lihakauppa',
      code: CODES.perDate,
      weekday,
      quantity: options.weeklyQuantity ?? 10,
    })),
  );
  return { areaId: area.id };
}

export const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

let buyers = 0;
/** The e-mail address each buyer registered with. */
export const emailOf = new WeakMap<Visitor, string>();

/**
 * A logged-in customer with a delivery address (Lihakuja 3 unless `streetAddress` is given), from
 * a client address of its own. Its e-mail address is verified by the registration link (decision
 * 083) unless `verified` is false: then it is an account made before that, not verified.
 */
export async function buyer(
  app: VisitTarget,
  options: { streetAddress?: string; email?: string; verified?: boolean } = {},
): Promise<Visitor> {
  buyers += 1;
  const n = buyers;
  const ip = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  const v = fromAddress(await arrive(app, '/', { host: HOST }), ip);
  const email = options.email ?? `ostaja${n}-${Math.random().toString(36).slice(2)}@example.fi`;
  await registerWithAddress(v, email, PASSWORD, POSTAL_CODE, options.streetAddress);
  if (options.verified === false) await unverifyEmail(v, email);
  emailOf.set(v, email);
  return v;
}

export async function addToCart(v: Visitor, code: string, quantity = 1) {
  const res = await v.post(`${CART_API}/add?language=fi&code=${code}&quantity=${quantity}`);
  expect(res.statusCode, res.body).toBe(200);
}

export function hold(v: Visitor, date = deliveryDate(), time = SLOT) {
  return v.post(
    `${CHECKOUT_HOLD_API}?language=fi`,
    json({ postalCode: POSTAL_CODE, date, time, useDeliveryAddressForBilling: true }),
  );
}

/** Takes a hold that must succeed; answers its checkout id. */
export async function held(v: Visitor, date = deliveryDate()): Promise<string> {
  const res = await retryBusy(() => hold(v, date));
  expect(res.statusCode, res.body).toBe(200);
  const id = checkoutSchema.parse(res.json()).hold?.checkoutId;
  if (!id) throw new Error('no hold in the answer');
  return id;
}

/**
 * Confirms the checkout with the totals it shows (`confirmOrder`: the order must charge them).
 * `shown` is what the shopper saw, when that was read earlier than now.
 */
export function order(
  v: Visitor,
  checkoutId: string,
  paymentMethodCode = 'FI50',
  shown?: ShownTotals,
) {
  return confirmOrder(v, checkoutId, { paymentMethodCode, ...(shown ? { shown } : {}) });
}

/** A product's overall stock (null: unlimited). */
export async function stockOf(db: Database, code: string): Promise<number | null> {
  const [row] = await db
    .select({ stock: products.stock })
    .from(products)
    .where(eq(products.code, code));
  return row?.stock ?? null;
}

/** The path and query of an absolute URL. */
export const pathOf = (href: string) => {
  const url = new URL(href);
  return `${url.pathname}${url.search}`;
};

/** The hidden fields of a rendered form. */
export function formFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"/g)) {
    fields[match[1] as string] = (match[2] as string).replaceAll('&amp;', '&');
  }
  return fields;
}

/** Opens the test bank's page of `next` and presses a button; answers the return URL. */
export async function testBank(shopper: Visitor, next: string, decision: 'ok' | 'fail') {
  expect(new URL(next).pathname).toBe(TEST_BANK_PATH);
  const page = await shopper.get(pathOf(next));
  expect(page.statusCode).toBe(200);
  const fields = formFields(page.body);
  const res = await shopper.post(TEST_BANK_PATH, {
    payload: new URLSearchParams({ ...fields, paatos: decision }).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'sec-fetch-site': 'same-origin',
    },
  });
  expect(res.statusCode).toBe(303);
  return String(res.headers.location);
}

/**
 * Sends again, as a shopper's browser would, while the server answers 503 busy (decision 081),
 * after the `Retry-After` it names; at most `tries` times. Races on a loaded machine meet the
 * busy answer; what they prove is what happens to the orders that get through.
 */
export async function retryBusy<T extends { statusCode: number; headers: Record<string, unknown> }>(
  send: () => Promise<T>,
  tries = 10,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const answer = await send();
    if (answer.statusCode !== 503 || attempt >= tries) return answer;
    const seconds = Number(answer.headers['retry-after']) || 1;
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}
