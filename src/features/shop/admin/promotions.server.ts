import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database, Transaction } from '../../../db/client.ts';
import { containing } from '../../../db/patterns.ts';
import { Conflict, Forbidden, NotFound } from '../../../server/errors.ts';
import { SHOP_SITE_ID } from '../../../sites/shop.ts';
import { actorOf, recordAudit, staffMembers } from '../../staff/index.server.ts';
import {
  GIFT_CARD_VALID_MONTHS,
  giftCardCodeHash,
  newGiftCardCode,
} from '../orders/gift-cards.server.ts';
import { coupons, giftCardAdjustments, giftCards, orderGiftCards, orders } from '../tables.ts';
import type { CouponFields, CouponRow, GiftCard } from './promotions-schemas.ts';

/**
 * Coupons and gift cards as shop staff keep them (decision 144). A coupon is edited on the
 * version the staff member saw; a limit below the uses already made is refused with the count.
 * A gift card is found only by its code (kept hashed); issuing shows the new code once, and
 * every balance change by staff is a row with its reason beside the orders' uses. Each change
 * writes its audit row in the same transaction.
 */

const PAGE_SIZE = 50;

function staffOf(request: FastifyRequest) {
  const staff = request.staff;
  if (!staff) throw new Forbidden();
  return staff;
}

const couponRow = (row: typeof coupons.$inferSelect): CouponRow => ({
  id: row.id,
  siteId: row.siteId,
  code: row.code,
  description: row.description,
  percentOff: row.percentOff,
  amountOffCents: row.amountOffCents,
  productGroup: row.productGroup,
  minOrderCents: row.minOrderCents,
  validFrom: row.validFrom?.toISOString() ?? null,
  validTo: row.validTo?.toISOString() ?? null,
  maxUses: row.maxUses,
  usedCount: row.usedCount,
  maxUsesPerCustomer: row.maxUsesPerCustomer,
  combinable: row.combinable,
  active: row.active,
  version: row.version,
});

export async function listCoupons(
  request: FastifyRequest,
  query: { q?: string | undefined; offset: number },
) {
  const db = request.server.db;
  const where = and(
    eq(coupons.siteId, SHOP_SITE_ID),
    query.q ? sql`${coupons.code} ilike ${containing(query.q.toUpperCase())}` : undefined,
  );
  const [total] = await db.select({ n: count() }).from(coupons).where(where);
  const rows = await db
    .select()
    .from(coupons)
    .where(where)
    .orderBy(desc(coupons.active), asc(coupons.code))
    .limit(PAGE_SIZE)
    .offset(query.offset);
  return { coupons: rows.map(couponRow), total: Number(total?.n ?? 0) };
}

const fieldsOf = (c: CouponFields) => ({
  ...c,
  validFrom: c.validFrom ? new Date(c.validFrom) : null,
  validTo: c.validTo ? new Date(c.validTo) : null,
});

async function codeTaken(tx: Transaction, code: string, id: number | null) {
  const [other] = await tx
    .select({ id: coupons.id })
    .from(coupons)
    .where(and(eq(coupons.siteId, SHOP_SITE_ID), eq(coupons.code, code)));
  if (other && other.id !== id) throw new Conflict(`The code ${code} is in use.`);
}

export async function createCoupon(
  request: FastifyRequest,
  fields: CouponFields,
): Promise<CouponRow> {
  return request.server.db.transaction(async (tx) => {
    await codeTaken(tx, fields.code, null);
    const [row] = await tx
      .insert(coupons)
      .values({ siteId: SHOP_SITE_ID, ...fieldsOf(fields) })
      .returning();
    if (!row) throw new Error('coupon insert returned no row');
    await recordAudit(tx, actorOf(request), {
      action: 'coupon.create',
      subjectType: 'coupon',
      subjectId: String(row.id),
      siteId: SHOP_SITE_ID,
      changes: { coupon: { after: fields } },
    });
    return couponRow(row);
  });
}

/**
 * Edits a coupon on the version the staff member saw (409 otherwise). A total limit below the
 * uses already made is refused with the count: used is used.
 */
export async function editCoupon(
  request: FastifyRequest,
  id: number,
  fields: CouponFields,
  version: number,
): Promise<CouponRow> {
  return request.server.db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(coupons)
      .where(and(eq(coupons.id, id), eq(coupons.siteId, SHOP_SITE_ID)))
      .for('update');
    if (!current) throw new NotFound('No such coupon.');
    if (current.version !== version) {
      throw new Conflict('Someone changed the coupon since it was opened. Open it again.');
    }
    if (fields.maxUses !== null && fields.maxUses < current.usedCount) {
      throw new Conflict(
        `The coupon has been used ${current.usedCount} times: the limit cannot be lower.`,
      );
    }
    await codeTaken(tx, fields.code, id);
    const next = fieldsOf(fields);
    const [row] = await tx
      .update(coupons)
      .set({ ...next, version: current.version + 1 })
      .where(eq(coupons.id, id))
      .returning();
    if (!row) throw new Error('coupon update returned no row');
    const before = couponRow(current);
    const after = couponRow(row);
    const changes: Record<string, { before: unknown; after: unknown }> = {};
    for (const key of Object.keys(fields) as (keyof CouponFields)[]) {
      if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
        changes[key] = { before: before[key], after: after[key] };
      }
    }
    await recordAudit(tx, actorOf(request), {
      action: 'coupon.edit',
      subjectType: 'coupon',
      subjectId: String(id),
      siteId: SHOP_SITE_ID,
      changes,
    });
    return after;
  });
}

/** A card with its history: orders' uses and staff adjustments, oldest first. */
async function giftCardOf(db: Database | Transaction, id: number): Promise<GiftCard> {
  const [card] = await db.select().from(giftCards).where(eq(giftCards.id, id));
  if (!card) throw new NotFound('No such gift card.');
  const [bought] = card.orderId
    ? await db.select({ number: orders.number }).from(orders).where(eq(orders.id, card.orderId))
    : [];
  const uses = await db
    .select({
      use: orderGiftCards,
      number: orders.number,
      status: orders.status,
      at: orders.createdAt,
    })
    .from(orderGiftCards)
    .innerJoin(orders, eq(orders.id, orderGiftCards.orderId))
    .where(eq(orderGiftCards.giftCardId, id));
  const adjustments = await db
    .select({ adjustment: giftCardAdjustments, staff: staffMembers.name })
    .from(giftCardAdjustments)
    .leftJoin(staffMembers, eq(staffMembers.id, giftCardAdjustments.staffId))
    .where(eq(giftCardAdjustments.giftCardId, id))
    .orderBy(asc(giftCardAdjustments.id));
  const history: GiftCard['history'] = [
    ...uses.map((u) => ({
      at: u.at.toISOString(),
      kind: 'order' as const,
      deltaCents: -u.use.amountCents,
      orderNumber: u.number,
      orderStatus: u.status,
      reason: null,
      staff: null,
    })),
    ...adjustments.map(({ adjustment, staff }) => ({
      at: adjustment.at.toISOString(),
      kind: 'adjustment' as const,
      deltaCents: adjustment.deltaCents,
      orderNumber: null,
      orderStatus: null,
      reason: adjustment.reason,
      staff: staff ?? null,
    })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  return {
    id: card.id,
    siteId: card.siteId,
    initialCents: card.initialCents,
    balanceCents: card.balanceCents,
    validTo: card.validTo?.toISOString() ?? null,
    createdAt: card.createdAt.toISOString(),
    boughtWith: bought?.number ?? null,
    history,
  };
}

/** Finds a card by its code (any case, spaces ignored); a read written to the audit log. */
export async function findGiftCard(request: FastifyRequest, code: string): Promise<GiftCard> {
  const db = request.server.db;
  const normalised = code.replace(/\s+/g, '').toUpperCase();
  const [card] = await db
    .select({ id: giftCards.id })
    .from(giftCards)
    .where(
      and(eq(giftCards.siteId, SHOP_SITE_ID), eq(giftCards.codeHash, giftCardCodeHash(normalised))),
    );
  if (!card) throw new NotFound('No gift card has this code.');
  await recordAudit(db, actorOf(request), {
    action: 'gift-card.find',
    subjectType: 'gift-card',
    subjectId: String(card.id),
    siteId: SHOP_SITE_ID,
  });
  return giftCardOf(db, card.id);
}

/** Issues a card by hand (a goodwill gesture, a replacement): its code is answered once. */
export async function issueGiftCard(
  request: FastifyRequest,
  body: { amountCents: number; validTo: string | null; reason: string },
): Promise<{ code: string; card: GiftCard }> {
  const staff = staffOf(request);
  const code = newGiftCardCode();
  // To the end of the last day in Helsinki, or as long as a bought card is valid.
  const validTo = body.validTo
    ? sql`((${body.validTo}::date + 1)::timestamp at time zone 'Europe/Helsinki')`
    : sql`now() + make_interval(months => ${GIFT_CARD_VALID_MONTHS})`;
  return request.server.db.transaction(async (tx) => {
    const [card] = await tx
      .insert(giftCards)
      .values({
        siteId: SHOP_SITE_ID,
        codeHash: giftCardCodeHash(code),
        initialCents: body.amountCents,
        balanceCents: body.amountCents,
        validTo,
      })
      .returning({ id: giftCards.id });
    if (!card) throw new Error('gift card insert returned no row');
    await tx.insert(giftCardAdjustments).values({
      giftCardId: card.id,
      staffId: staff.staffId,
      deltaCents: body.amountCents,
      balanceAfterCents: body.amountCents,
      reason: body.reason,
    });
    await recordAudit(tx, actorOf(request), {
      action: 'gift-card.issue',
      subjectType: 'gift-card',
      subjectId: String(card.id),
      siteId: SHOP_SITE_ID,
      changes: { balanceCents: { after: body.amountCents }, reason: { after: body.reason } },
    });
    return { code, card: await giftCardOf(tx, card.id) };
  });
}

/**
 * Changes a card's balance by `deltaCents` from the balance the staff member saw (409 if an
 * order or a colleague changed it since); never below zero. A top-up above the first value
 * raises that too.
 */
export async function adjustGiftCard(
  request: FastifyRequest,
  id: number,
  body: { deltaCents: number; expectedBalanceCents: number; reason: string },
): Promise<GiftCard> {
  const staff = staffOf(request);
  return request.server.db.transaction(async (tx) => {
    const after = body.expectedBalanceCents + body.deltaCents;
    if (after < 0) throw new Conflict('The balance cannot go below zero.');
    const [moved] = await tx
      .update(giftCards)
      .set({
        balanceCents: after,
        initialCents: sql`greatest(${giftCards.initialCents}, ${after})`,
      })
      .where(
        and(
          eq(giftCards.id, id),
          eq(giftCards.siteId, SHOP_SITE_ID),
          eq(giftCards.balanceCents, body.expectedBalanceCents),
        ),
      )
      .returning({ id: giftCards.id });
    if (!moved) {
      const [exists] = await tx
        .select({ id: giftCards.id })
        .from(giftCards)
        .where(eq(giftCards.id, id));
      if (!exists) throw new NotFound('No such gift card.');
      throw new Conflict('The balance changed since it was shown. Look again.');
    }
    await tx.insert(giftCardAdjustments).values({
      giftCardId: id,
      staffId: staff.staffId,
      deltaCents: body.deltaCents,
      balanceAfterCents: after,
      reason: body.reason,
    });
    await recordAudit(tx, actorOf(request), {
      action: 'gift-card.adjust',
      subjectType: 'gift-card',
      subjectId: String(id),
      siteId: SHOP_SITE_ID,
      changes: {
        balanceCents: { before: body.expectedBalanceCents, after },
        reason: { after: body.reason },
      },
    });
    return giftCardOf(tx, id);
  });
}
