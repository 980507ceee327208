import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import {
  CHECKOUT_API,
  CHECKOUT_ORDER_API,
  checkoutSchema,
  orderAnswerSchema,
} from '../../src/features/shop/orders/schemas.ts';
import { centsOfMoney } from '../../src/features/shop/schemas.ts';
import { orders } from '../../src/features/shop/tables.ts';
import { createPage } from '../factories/index.ts';
import { createTestApp, type TestApp, testAppForFile } from './app.ts';
import { mailedConfirmToken } from './shop-customer.ts';
import { arrive, fromAddress, type Visitor } from './visitor.ts';

/** The meat shop's host in the tests. */
export const SHOP_HOST = 'lihakauppa.localhost';

/**
 * A test app with the shop's home page, built before the file's tests and closed after them;
 * `setUp` adds what the file needs more. The handle reads the app once it is built.
 */
export function shopTestApp(setUp?: (t: TestApp) => Promise<void>): TestApp {
  return testAppForFile(async () => {
    const built = await createTestApp();
    await createPage(built.app.db, {
      siteId: 'lihakauppa',
      path: '/',
      type: 'home',
      title: 'Lihakauppa',
    });
    await setUp?.(built);
    return built;
  }, 120_000);
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

/**
 * What the checkout showed the shopper when they confirmed: the cart's total and what its gift
 * cards pay of it, as the contract's money strings. The order must charge exactly this.
 */
export interface ShownTotals {
  total: string;
  usedGiftCardAmount: string;
}

/**
 * The totals the checkout shows `v` now (`GET /checkout`); nothing for a visitor it refuses (the
 * order is then refused too: 0,00 is sent).
 */
export async function shownTotals(v: Visitor): Promise<ShownTotals> {
  const res = await v.get(`${CHECKOUT_API}?language=fi`);
  if (res.statusCode !== 200) return { total: '0,00', usedGiftCardAmount: '0,00' };
  const { cart } = checkoutSchema.parse(res.json());
  return { total: cart.total, usedGiftCardAmount: cart.usedGiftCardAmount };
}

/** What each placed checkout showed when it was confirmed: a repeated submit charges the same. */
const confirmedTotals = new Map<string, ShownTotals>();

/**
 * The one check every test that places an order goes through: the order charges what the
 * shopper was shown at confirmation — its total to pay (after gift cards) and what its gift cards
 * pay — whatever changed meanwhile (coupons, gift cards, prices, VAT, delivery fees).
 */
export async function expectChargedAsShown(
  db: Database,
  orderId: string,
  shown: ShownTotals,
): Promise<void> {
  const [row] = await db
    .select({ totalCents: orders.totalCents, usedGiftCardCents: orders.usedGiftCardCents })
    .from(orders)
    .where(eq(orders.id, orderId));
  const total = centsOfMoney(shown.total) ?? Number.NaN;
  const gift = centsOfMoney(shown.usedGiftCardAmount) ?? Number.NaN;
  expect(row, `order ${orderId}`).toEqual({ totalCents: total - gift, usedGiftCardCents: gift });
}

/**
 * Confirms a held checkout through `POST /checkout/order` as the checkout page does: with the
 * totals it shows (`shown`, read now unless given; a checkout already placed keeps the totals it
 * was confirmed with). An order placed or answered is checked with `expectChargedAsShown`.
 */
export async function confirmOrder(
  v: Visitor,
  checkoutId: string,
  options: { paymentMethodCode?: string; shown?: ShownTotals } = {},
): Promise<LightMyRequestResponse> {
  const shown = options.shown ?? confirmedTotals.get(checkoutId) ?? (await shownTotals(v));
  const res = await v.post(CHECKOUT_ORDER_API, {
    payload: JSON.stringify({
      checkoutId,
      PaymentMethodCode: options.paymentMethodCode ?? 'FI50',
      ...shown,
    }),
    headers: { 'content-type': 'application/json' },
  });
  if (res.statusCode === 200) {
    confirmedTotals.set(checkoutId, confirmedTotals.get(checkoutId) ?? shown);
    const { orderId } = orderAnswerSchema.parse(res.json());
    await expectChargedAsShown(v.app.db, orderId, confirmedTotals.get(checkoutId) ?? shown);
  }
  return res;
}

/** The hidden fields of the checkout page's `purchase-form`, as a browser would post them. */
export function purchaseFormFields(html: string): Record<string, string> {
  const form = /<form id="purchase-form"[^>]*>([\s\S]*?)<\/form>/.exec(html)?.[1] ?? '';
  const fields: Record<string, string> = {};
  for (const match of form.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"/g)) {
    fields[match[1] as string] = (match[2] as string).replaceAll('&amp;', '&');
  }
  return fields;
}

/** The `purchase-form` posted for each checkout: submitting it again posts the same form. */
const postedForms = new Map<string, Record<string, string>>();

/**
 * Confirms the order with the checkout page's `purchase-form` (with or without script, the page
 * posts it): the fields the page at `/kassa?postinumero=<postalCode>` renders, `override` on top;
 * a checkout whose form was posted already is posted again as it was (a repeated submit). An order
 * placed by it (303 on from the checkout) is checked with `expectChargedAsShown` against the
 * totals the page showed.
 */
export async function confirmOrderByForm(
  v: Visitor,
  postalCode: string,
  override: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const again = override.checkoutId ? postedForms.get(override.checkoutId) : undefined;
  const rendered =
    again ?? purchaseFormFields((await v.get(`/kassa?postinumero=${postalCode}`)).body);
  const fields = { ...rendered, ...override };
  if (fields.checkoutId) postedForms.set(fields.checkoutId, fields);
  const res = await postForm(v, '/kassa', fields, fields._xsrf);
  const checkoutId = fields.checkoutId ?? '';
  const location = String(res.headers.location ?? '');
  if (res.statusCode === 303 && !location.startsWith('/kassa?')) {
    const [row] = await v.app.db
      .select({ id: orders.id })
      .from(orders)
      .where(eq(orders.checkoutId, checkoutId));
    expect(row, `an order of checkout ${checkoutId}`).toBeDefined();
    const shown = confirmedTotals.get(checkoutId) ?? {
      total: fields.total ?? '',
      usedGiftCardAmount: fields.usedGiftCardAmount ?? '',
    };
    confirmedTotals.set(checkoutId, shown);
    await expectChargedAsShown(v.app.db, row?.id ?? '', shown);
  }
  return res;
}
