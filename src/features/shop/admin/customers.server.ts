import { asc, count, desc, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { containing } from '../../../db/patterns.ts';
import { auditedSearch } from '../../../server/email-hash.ts';
import { NotFound } from '../../../server/errors.ts';
import { sessions } from '../../../server/tables.ts';
import type { Lang } from '../../../sites/types.ts';
import { products } from '../../content/index.server.ts';
import { actorOf, recordAudit } from '../../staff/index.server.ts';
import { requestPasswordReset } from '../customer/accounts.server.ts';
import { resetPageUrl } from '../customer/routes.server.ts';
import { customers, orders, productReviews } from '../tables.ts';
import type { CustomerDetail, CustomerRow } from './customers-schemas.ts';

/**
 * The shop's customers as staff see them (decision 146): found by e-mail address or name, one
 * opened with addresses, orders and reviews (each list and opening a read of personal data,
 * written to the audit log), an account locked with a reason (its sessions end; it cannot log
 * in until opened again) and a password-reset link sent to the customer's own address.
 */

const PAGE_SIZE = 50;
type Customer = typeof customers.$inferSelect;

// Written out: inside a subquery a bare column name would be the subquery's own.
const orderCount = sql<number>`(select count(*)::int from orders o where o.customer_id = customers.id)`;

function rowOf(customer: Customer, orderTotal: number): CustomerRow {
  const a = customer.deliveryAddress;
  return {
    id: customer.id,
    email: customer.email,
    name: a ? `${a.firstName} ${a.lastName}`.trim() : '',
    createdAt: customer.createdAt.toISOString(),
    emailVerified: customer.emailVerifiedAt !== null,
    lockedAt: customer.lockedAt?.toISOString() ?? null,
    orders: orderTotal,
  };
}

const subject = (id: string | null) => ({
  subjectType: 'customer',
  ...(id ? { subjectId: id } : {}),
  siteId: 'lihakauppa',
});

export async function listCustomers(
  request: FastifyRequest,
  query: { q?: string | undefined; offset: number },
) {
  const db = request.server.db;
  const q = query.q?.trim();
  const where = q
    ? sql`(${customers.email} ilike ${containing(q)} or (${customers.deliveryAddress}->>'firstName') || ' ' || (${customers.deliveryAddress}->>'lastName') ilike ${containing(q)})`
    : undefined;
  const [total] = await db.select({ n: count() }).from(customers).where(where);
  const rows = await db
    .select({ customer: customers, orders: orderCount })
    .from(customers)
    .where(where)
    .orderBy(desc(customers.createdAt))
    .limit(PAGE_SIZE)
    .offset(query.offset);
  await recordAudit(db, actorOf(request), {
    action: 'customer.list',
    ...subject(null),
    changes: { query: { after: auditedSearch(request.server.config.forms.encryptionKey, query) } },
  });
  return {
    customers: rows.map((r) => rowOf(r.customer, Number(r.orders))),
    total: Number(total?.n ?? 0),
  };
}

async function customerOf(request: FastifyRequest, id: string): Promise<Customer> {
  const [customer] = await request.server.db.select().from(customers).where(eq(customers.id, id));
  if (!customer) throw new NotFound('No such customer.');
  return customer;
}

/** Opens a customer: a read of personal data, written to the audit log. */
export async function openCustomer(request: FastifyRequest, id: string): Promise<CustomerDetail> {
  const detail = await customerDetail(request, id);
  await recordAudit(request.server.db, actorOf(request), {
    action: 'customer.open',
    ...subject(id),
  });
  return detail;
}

async function customerDetail(request: FastifyRequest, id: string): Promise<CustomerDetail> {
  const db = request.server.db;
  const customer = await customerOf(request, id);
  const orderList = await db
    .select()
    .from(orders)
    .where(eq(orders.customerId, id))
    .orderBy(desc(orders.createdAt))
    .limit(200);
  // The product's name as reviewed (its row in the review's language); none once it is gone.
  const reviews = await db
    .select({ review: productReviews, productName: products.name })
    .from(productReviews)
    .leftJoin(products, eq(products.id, productReviews.productId))
    .where(eq(productReviews.customerId, id))
    .orderBy(asc(productReviews.createdAt));
  return {
    ...rowOf(customer, orderList.length),
    phone: `${customer.phoneCountryCode} ${customer.phoneNumber}`.trim(),
    deliveryAddress: customer.deliveryAddress,
    billingAddress: customer.billingAddress,
    lockedReason: customer.lockedReason,
    orderList: orderList.map((o) => ({
      id: o.id,
      number: o.number,
      createdAt: o.createdAt.toISOString(),
      status: o.status,
      fulfilment: o.fulfilment,
      totalCents: o.totalCents + o.usedGiftCardCents,
    })),
    reviews: reviews.map(({ review: r, productName }) => ({
      id: r.id,
      code: r.code,
      productName,
      rating: r.rating,
      text: r.text,
      createdAt: r.createdAt.toISOString(),
      state: r.state,
    })),
  };
}

/**
 * Locks an account with a reason, ending its sessions in the same transaction, or opens it
 * again. Locking a locked account (or opening an open one) changes nothing.
 */
export async function lockCustomer(
  request: FastifyRequest,
  id: string,
  body: { locked: true; reason: string } | { locked: false },
): Promise<CustomerDetail> {
  await request.server.db.transaction(async (tx) => {
    const [customer] = await tx.select().from(customers).where(eq(customers.id, id)).for('update');
    if (!customer) throw new NotFound('No such customer.');
    if ((customer.lockedAt !== null) === body.locked) return;
    await tx
      .update(customers)
      .set(
        body.locked
          ? { lockedAt: sql`now()`, lockedReason: body.reason, updatedAt: sql`now()` }
          : { lockedAt: null, lockedReason: null, updatedAt: sql`now()` },
      )
      .where(eq(customers.id, id));
    if (body.locked) {
      await tx.delete(sessions).where(sql`${sessions.data}->'customer'->>'id' = ${id}`);
    }
    await recordAudit(tx, actorOf(request), {
      action: body.locked ? 'customer.lock' : 'customer.unlock',
      ...subject(id),
      changes: {
        locked: { before: customer.lockedAt !== null, after: body.locked },
        ...(body.locked ? { reason: { after: body.reason } } : {}),
      },
    });
  });
  return customerDetail(request, id);
}

/**
 * Sends the customer a password-reset link at their own address, in Finnish (the shop's): the
 * link, its mail and the audit row in one transaction, so none is kept without the others.
 */
export async function sendPasswordReset(request: FastifyRequest, id: string): Promise<void> {
  const customer = await customerOf(request, id);
  await requestPasswordReset(request.server.db, {
    email: customer.email,
    lang: 'fi' as Lang,
    resetPageUrl: resetPageUrl(request),
    mailKey: request.server.config.forms.encryptionKey,
    alsoWrite: (tx) =>
      recordAudit(tx, actorOf(request), { action: 'customer.password-reset', ...subject(id) }),
  });
}
