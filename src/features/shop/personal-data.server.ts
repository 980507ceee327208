import { asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import type { PersonRecord, PersonSubject } from '../../server/personal-data.ts';
import { sessions } from '../../server/tables.ts';
import { SHOP_SITE_ID } from '../../sites/shop.ts';
import { mailboxKey } from './customer/limit-keys.server.ts';
import {
  type CustomerAddress,
  customerRegistrations,
  customers,
  orderEvents,
  orderLines,
  orders,
  productReviews,
} from './tables.ts';

/**
 * The shop's part of a personal-data request (decision 159): the person's customer account (and
 * registrations still waiting for confirmation), their orders and their reviews, found by their
 * address; erased as bookkeeping allows. An order keeps what the Finnish Accounting Act asks of a
 * sale (its number, dates, lines, amounts and VAT, payments and refunds) and loses the person:
 * address, name, phone, notes, the account and the session that placed it.
 */

type Reader = Pick<Database, 'select'>;

const REGISTRATION = 'registration:';

/** The accounts with the address and the registrations waiting for it. */
export async function findCustomerAccounts(
  db: Reader,
  subject: PersonSubject,
): Promise<PersonRecord[]> {
  const accounts = await db
    .select()
    .from(customers)
    .where(sql`lower(${customers.email}) = ${subject.address}`);
  const waiting = await db
    .select()
    .from(customerRegistrations)
    .where(sql`lower(${customerRegistrations.email}) = ${subject.address}`)
    .orderBy(asc(customerRegistrations.createdAt));
  return [
    ...accounts.map(({ passwordHash: _secret, ...row }) => ({
      id: row.id,
      siteId: SHOP_SITE_ID,
      lang: null,
      at: row.createdAt.toISOString(),
      summary: row.email,
      data: { kind: 'account', ...row },
    })),
    ...waiting.map((row) => ({
      id: `${REGISTRATION}${row.tokenHash}`,
      siteId: SHOP_SITE_ID,
      lang: null,
      at: row.createdAt.toISOString(),
      summary: row.email,
      data: {
        kind: 'registration',
        email: row.email,
        createdAt: row.createdAt,
        expiresAt: row.expiresAt,
      },
    })),
  ];
}

const accountIds = (ids: readonly string[]) => ids.filter((id) => !id.startsWith(REGISTRATION));

/** The orders placed with the address or by the accounts, with their lines and timeline. */
export async function findOrders(
  db: Reader,
  subject: PersonSubject,
  customerIds: readonly string[],
): Promise<PersonRecord[]> {
  const ids = accountIds(customerIds);
  const rows = await db
    .select()
    .from(orders)
    .where(
      or(
        sql`lower(${orders.email}) = ${subject.address}`,
        ids.length ? inArray(orders.customerId, ids) : undefined,
      ),
    )
    .orderBy(asc(orders.createdAt), asc(orders.number));
  const orderIds = rows.map((o) => o.id);
  const lines = orderIds.length
    ? await db.select().from(orderLines).where(inArray(orderLines.orderId, orderIds))
    : [];
  const events = orderIds.length
    ? await db
        .select()
        .from(orderEvents)
        .where(inArray(orderEvents.orderId, orderIds))
        .orderBy(asc(orderEvents.id))
    : [];
  // The placing session's key is the server's, not anything about the person.
  return rows.map(({ sessionId: _session, ...order }) => ({
    id: order.id,
    siteId: order.siteId,
    lang: order.language,
    at: order.createdAt.toISOString(),
    summary: String(order.number),
    data: {
      ...order,
      lines: lines.filter((l) => l.orderId === order.id),
      events: events.filter((e) => e.orderId === order.id),
    },
  }));
}

/** The reviews written from the accounts or from the address's mailbox (decision 082). */
export async function findReviews(
  db: Reader,
  subject: PersonSubject,
  customerIds: readonly string[],
  limitKeySecret: string,
): Promise<PersonRecord[]> {
  const ids = accountIds(customerIds);
  const rows = await db
    .select()
    .from(productReviews)
    .where(
      or(
        eq(productReviews.reviewerKey, mailboxKey(limitKeySecret, subject.address)),
        ids.length ? inArray(productReviews.customerId, ids) : undefined,
      ),
    )
    .orderBy(asc(productReviews.createdAt), asc(productReviews.id));
  // The mailbox key is a keyed hash for the one-review limit (decision 082), not their data.
  return rows.map(({ reviewerKey: _key, ...review }) => ({
    id: String(review.id),
    siteId: review.siteId,
    lang: review.language,
    at: review.createdAt.toISOString(),
    summary: `${review.code}, ${review.rating}/5`,
    data: { ...review },
  }));
}

/** Deletes the reviews (the products' ratings follow: only published reviews count). */
export async function eraseReviews(tx: Transaction, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const gone = await tx
    .delete(productReviews)
    .where(inArray(productReviews.id, ids.map(Number)))
    .returning({ id: productReviews.id });
  return gone.length;
}

const NOBODY: CustomerAddress = {
  firstName: '',
  lastName: '',
  streetAddress: '',
  postalCode: '',
  city: '',
};

/**
 * Takes the person out of their orders and keeps the sale: the address, phone, names, the
 * shopper's note, the account and the placing session go (that session is ended); the staff's
 * notes and the mail recipients on the timeline go too. Number, dates, lines, amounts, VAT,
 * coupons, payments and refunds stay for bookkeeping. The delivery's postal code column stays
 * with the delivery slot it booked (an area, not a person). Answers the orders changed and the
 * sessions ended.
 */
export async function anonymiseOrders(
  tx: Transaction,
  ids: readonly string[],
): Promise<{ orders: number; sessions: number }> {
  if (ids.length === 0) return { orders: 0, sessions: 0 };
  const placing = await tx
    .select({ sessionId: orders.sessionId })
    .from(orders)
    .where(inArray(orders.id, [...ids]));
  const changed = await tx
    .update(orders)
    .set({
      email: '',
      phoneNumber: '',
      deliveryAddress: NOBODY,
      billingAddress: NOBODY,
      additionalInformation: '',
      customerId: null,
      sessionId: null,
      updatedAt: sql`now()`,
    })
    .where(inArray(orders.id, [...ids]))
    .returning({ id: orders.id });
  await tx
    .update(orderEvents)
    .set({ text: null, detail: sql`${orderEvents.detail} - 'to'` })
    .where(inArray(orderEvents.orderId, [...ids]));
  const sessionIds = [...new Set(placing.flatMap((p) => (p.sessionId ? [p.sessionId] : [])))];
  const ended = sessionIds.length
    ? await tx
        .delete(sessions)
        .where(inArray(sessions.id, sessionIds))
        .returning({ id: sessions.id })
    : [];
  return { orders: changed.length, sessions: ended.length };
}

/**
 * Deletes the accounts (their carts, tokens and saved addresses go with them by cascade; their
 * orders and reviews were dealt with first) after ending every session signed in to them, and the
 * registrations waiting for the address. Answers the accounts and registrations deleted and the
 * sessions ended.
 */
export async function eraseCustomerAccounts(
  tx: Transaction,
  ids: readonly string[],
): Promise<{ accounts: number; sessions: number }> {
  const accounts = accountIds(ids);
  const registrations = ids
    .filter((id) => id.startsWith(REGISTRATION))
    .map((id) => id.slice(REGISTRATION.length));
  const ended = accounts.length
    ? await tx
        .delete(sessions)
        .where(inArray(sql`${sessions.data} -> 'customer' ->> 'id'`, accounts))
        .returning({ id: sessions.id })
    : [];
  const goneAccounts = accounts.length
    ? await tx
        .delete(customers)
        .where(inArray(customers.id, accounts))
        .returning({ id: customers.id })
    : [];
  const goneRegistrations = registrations.length
    ? await tx
        .delete(customerRegistrations)
        .where(inArray(customerRegistrations.tokenHash, registrations))
        .returning({ id: customerRegistrations.tokenHash })
    : [];
  return {
    accounts: goneAccounts.length + goneRegistrations.length,
    sessions: ended.length,
  };
}
