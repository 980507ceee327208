import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { auditOf, type Enrolled, enrolledStaff, json } from '../../../../tests/helpers/staff.ts';
import type { Visitor } from '../../../../tests/helpers/visitor.ts';
import { products } from '../../content/index.server.ts';
import { mailOutbox } from '../../forms/tables.ts';
import { ACCOUNT_API } from '../customer/schemas.ts';
import {
  addToCart,
  buyer,
  CODES,
  createCheckoutShop,
  emailOf,
  held,
  order,
  PASSWORD,
} from '../orders/checkout.test-support.ts';
import { REVIEW_API } from '../reviews/schemas.ts';
import { customers } from '../tables.ts';
import { CUSTOMERS_API, type CustomerDetail } from './customers-schemas.ts';

/**
 * The shop's customers in the back office (decision 146): found, opened with their orders (every
 * read audited), locked with a reason (sessions end, logging in is refused as a wrong password),
 * opened again, and sent a reset link at their own address.
 */
let t: TestApp;
let staff: Enrolled;
let shopper: Visitor;
let customerId = '';

beforeAll(async () => {
  t = await createTestApp();
  await createCheckoutShop(t.app.db);
  shopper = await buyer(t.app);
  await addToCart(shopper, CODES.plain, 1);
  expect((await order(shopper, await held(shopper))).statusCode).toBe(200);
  const [row] = await t.app.db
    .select({ id: customers.id })
    .from(customers)
    .where(eq(customers.email, emailOf.get(shopper) ?? ''));
  customerId = row?.id ?? '';
  const [product] = await t.app.db
    .select({ id: products.id })
    .from(products)
    .where(eq(products.code, CODES.plain));
  const review = await shopper.post(
    REVIEW_API,
    json({ productId: product?.id, rating: 4, text: 'Mureaa.', userName: 'Ostaja' }),
  );
  expect(review.statusCode, review.body).toBe(200);
  staff = await enrolledStaff(t.app, [
    { role: 'customer-service', sites: ['lihakauppa'], langs: null },
  ]);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const logIn = (v: Visitor) =>
  v.post(`${ACCOUNT_API}/login`, json({ email: emailOf.get(v) ?? '', password: PASSWORD }));

describe('customers in the back office', () => {
  it('finds a customer by address and opens them with their order and review; both reads audited', async () => {
    const email = emailOf.get(shopper) ?? '';
    const list = await staff.visitor.get(`${CUSTOMERS_API}?q=${encodeURIComponent(email)}`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().customers).toEqual([
      expect.objectContaining({ id: customerId, email, orders: 1, lockedAt: null }),
    ]);
    const opened = await staff.visitor.get(`${CUSTOMERS_API}/${customerId}`);
    expect(opened.statusCode, opened.body).toBe(200);
    const detail = opened.json() as CustomerDetail;
    expect(detail.orderList).toHaveLength(1);
    expect(detail.deliveryAddress?.streetAddress).toBe('Lihakuja 3');
    expect(detail.reviews).toEqual([
      expect.objectContaining({
        code: CODES.plain,
        productName: 'Perustuote',
        rating: 4,
        text: 'Mureaa.',
      }),
    ]);
    expect(await auditOf(t.app, 'customer.list')).toHaveLength(1);
    expect(await auditOf(t.app, 'customer.open')).toHaveLength(1);
  });

  it('locks an account: its session ends and logging in is refused; opened again, it works', async () => {
    const noReason = await staff.visitor.post(
      `${CUSTOMERS_API}/${customerId}/lock`,
      json({ locked: true, reason: ' ' }),
    );
    expect(noReason.statusCode).toBe(400);
    const locked = await staff.visitor.post(
      `${CUSTOMERS_API}/${customerId}/lock`,
      json({ locked: true, reason: 'Epäilty väärinkäyttö' }),
    );
    expect(locked.statusCode, locked.body).toBe(200);
    expect(locked.json()).toMatchObject({ lockedReason: 'Epäilty väärinkäyttö' });
    const [sessionsLeft] = await t.app.db
      .execute(
        sql`select count(*)::int as n from sessions where data->'customer'->>'id' = ${customerId}`,
      )
      .then((r) => (r as unknown as { rows: { n: number }[] }).rows);
    expect(sessionsLeft?.n).toBe(0);
    expect((await logIn(shopper)).statusCode).toBe(401);
    // Locked twice: nothing more written.
    await staff.visitor.post(
      `${CUSTOMERS_API}/${customerId}/lock`,
      json({ locked: true, reason: 'x' }),
    );
    expect(await auditOf(t.app, 'customer.lock')).toHaveLength(1);
    const opened = await staff.visitor.post(
      `${CUSTOMERS_API}/${customerId}/lock`,
      json({ locked: false }),
    );
    expect(opened.json().lockedAt).toBeNull();
    const again = await logIn(shopper);
    expect(again.statusCode, again.body).toBe(200);
  });

  it('mails a reset link to the customer’s own address', async () => {
    const email = emailOf.get(shopper) ?? '';
    const res = await staff.visitor.post(`${CUSTOMERS_API}/${customerId}/password-reset`);
    expect(res.statusCode, res.body).toBe(200);
    const mails = await t.app.db
      .select({ to: mailOutbox.recipients })
      .from(mailOutbox)
      .where(eq(mailOutbox.recipients, email));
    expect(mails.length).toBeGreaterThan(0);
    expect(await auditOf(t.app, 'customer.password-reset')).toHaveLength(1);
  });

  it('is closed to an editor, and an unknown customer is 404', async () => {
    const editor = await enrolledStaff(t.app, [{ role: 'editor', sites: null, langs: null }]);
    expect((await editor.visitor.get(CUSTOMERS_API)).statusCode).toBe(403);
    expect((await staff.visitor.get(`${CUSTOMERS_API}/${crypto.randomUUID()}`)).statusCode).toBe(
      404,
    );
  });
});
