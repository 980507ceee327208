import { and, asc, count, eq, gte, inArray, ne, or, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database, Transaction } from '../../../db/client.ts';
import { AppError, Forbidden, Invalid, NotFound } from '../../../server/errors.ts';
import { getSite } from '../../../sites/registry.ts';
import { SHOP_SITE_ID } from '../../../sites/shop.ts';
import { actorOf, recordAudit } from '../../staff/index.server.ts';
import { type AccessGrant, can } from '../../staff/index.ts';
import { addDays, helsinkiDate, weekdayOf } from '../dates.ts';
import { DELIVERY_HORIZON_DAYS } from '../delivery.server.ts';
import {
  deliveryAreaPostalCodes,
  deliveryAreas,
  deliveryCalendarSlots,
  deliveryClosedDates,
  deliverySlotBookings,
  orders,
} from '../tables.ts';
import {
  type AreaCreate,
  type AreaRow,
  type AreaUpdate,
  areaParamsSchema,
  type BookedDate,
  type BookedOrder,
  type CloseDate,
  type ClosedAnswer,
  type DeliveryList,
  type PostalCodes,
  type SlotBody,
} from './delivery-schemas.ts';

/**
 * Delivery in the back office (decision 142): shop staff (`shop.manage` for the area's site)
 * keep the areas, their postal codes, weekly slots and closed days. A change never breaks an
 * existing order's slot:
 *
 * - A slot's capacity is copied to each dated slot (`delivery_slot_bookings`) at its first hold;
 *   changing it changes the calendar and every upcoming dated slot together, refused (409, the
 *   dates and their orders) when a date has more places sold than the new capacity. Removing a
 *   slot is a change to 0; moving its start or end time with upcoming orders is refused.
 * - Closing a day with orders on it is answered 409 with those orders; sent again with
 *   `confirm` and the same orders' ids it closes the day, and the orders keep their slot.
 *
 * Each write is one transaction, locking in the checkout's order (holds.server.ts): the area's
 * row (`for no key update`, which the checkout's foreign-key checks on it do not wait for), the
 * calendar row, then the dated slots' rows by date and start time; the checkout holds one dated
 * slot's row at a time and never waits for an area or calendar row, so neither waits on the other
 * in a circle. Upcoming dated slots within the checkout's horizon are made (with the new
 * capacity) if missing, so a checkout that read the old calendar cannot make one with the old
 * capacity after the change. Every write leaves one audit row.
 */

type Area = typeof deliveryAreas.$inferSelect;
type CalendarSlot = typeof deliveryCalendarSlots.$inferSelect;

/** Orders that hold a place: not cancelled, not expired. */
const BOOKING_STATUSES = ['pending_payment', 'paid'] as const;

function grantsOf(request: FastifyRequest): readonly AccessGrant[] {
  const staff = request.staff;
  if (!staff) throw new Forbidden();
  return staff.grants;
}

/** Whether the grants give `shop.manage` for the site in any of its languages. */
function managesSite(grants: readonly AccessGrant[], siteId: string): boolean {
  const site = getSite(siteId);
  return Boolean(site?.languages.some((lang) => can(grants, 'shop.manage', { siteId, lang })));
}

/**
 * The route's `preValidation`: refuses (403) a staff member whose grants give `shop.manage` for
 * none of the shop's languages, and, for a route naming an area, for none of the area's site's
 * languages (404 when there is no such area), before the body is read.
 */
export async function assertDeliveryAccess(request: FastifyRequest): Promise<void> {
  const grants = grantsOf(request);
  if (!managesSite(grants, SHOP_SITE_ID)) {
    throw new Forbidden('This needs the permission shop.manage for the shop.');
  }
  const params = areaParamsSchema.safeParse(request.params);
  // A route without an area, or a malformed id, which the route's validation answers (400).
  if (!params.success) return;
  await scopedArea(request.server.db, grants, params.data.id);
}

/** The area if the grants reach it: 404 when there is none, 403 outside the grants. */
async function scopedArea(
  db: Database | Transaction,
  grants: readonly AccessGrant[],
  id: number,
  lock = false,
): Promise<Area> {
  const query = db.select().from(deliveryAreas).where(eq(deliveryAreas.id, id));
  // `no key update`: the checkout's holds and orders name the area by a foreign key, whose check
  // takes a key-share lock on it while the checkout holds a dated slot's row; a plain `for update`
  // would wait on that, and the checkout on this transaction's dated slots, in a circle.
  const [area] = lock ? await query.for('no key update') : await query;
  if (!area) throw new NotFound('No such delivery area.');
  if (!managesSite(grants, area.siteId)) {
    throw new Forbidden(`This needs the permission shop.manage for ${area.siteId}.`);
  }
  return area;
}

const areaSubject = (area: Pick<Area, 'id' | 'siteId'>) => ({
  subjectType: 'delivery-area',
  subjectId: String(area.id),
  siteId: area.siteId,
});

const today = () => helsinkiDate(new Date());

/** `extract(isodow …)`: the dated slot's weekday, 1 Monday … 7 Sunday, as the calendar has it. */
const bookingWeekday = sql<number>`extract(isodow from ${deliverySlotBookings.date})::int`;

/** The areas the staff member manages, each with its codes, slots and upcoming closed dates. */
export async function listDelivery(request: FastifyRequest): Promise<DeliveryList> {
  const db = request.server.db;
  const grants = grantsOf(request);
  const areas = (
    await db.select().from(deliveryAreas).orderBy(asc(deliveryAreas.name), asc(deliveryAreas.id))
  ).filter((area) => managesSite(grants, area.siteId));
  const from = today();
  return { today: from, areas: await areaRows(db, areas, from) };
}

async function areaRows(
  db: Database | Transaction,
  areas: readonly Area[],
  from: string,
): Promise<AreaRow[]> {
  const ids = areas.map((area) => area.id);
  if (ids.length === 0) return [];
  // One after the other: a transaction's connection runs one query at a time.
  const codes = await db
    .select()
    .from(deliveryAreaPostalCodes)
    .where(inArray(deliveryAreaPostalCodes.areaId, ids))
    .orderBy(asc(deliveryAreaPostalCodes.postalCode));
  const slots = await db
    .select()
    .from(deliveryCalendarSlots)
    .where(inArray(deliveryCalendarSlots.areaId, ids))
    .orderBy(asc(deliveryCalendarSlots.weekday), asc(deliveryCalendarSlots.startTime));
  const booked = await db
    .select({
      areaId: deliverySlotBookings.areaId,
      date: deliverySlotBookings.date,
      startTime: deliverySlotBookings.startTime,
      sold: deliverySlotBookings.sold,
    })
    .from(deliverySlotBookings)
    .where(
      and(
        inArray(deliverySlotBookings.areaId, ids),
        gte(deliverySlotBookings.date, from),
        sql`${deliverySlotBookings.sold} > 0`,
      ),
    )
    .orderBy(asc(deliverySlotBookings.date));
  const closed = await db
    .select({ areaId: deliveryClosedDates.areaId, date: deliveryClosedDates.date })
    .from(deliveryClosedDates)
    .where(and(inArray(deliveryClosedDates.areaId, ids), gte(deliveryClosedDates.date, from)))
    .orderBy(asc(deliveryClosedDates.date));
  const onClosed = await db
    .select({ areaId: orders.areaId, date: orders.deliveryDate, n: count() })
    .from(orders)
    .innerJoin(
      deliveryClosedDates,
      and(
        eq(deliveryClosedDates.areaId, orders.areaId),
        eq(deliveryClosedDates.date, orders.deliveryDate),
      ),
    )
    .where(
      and(
        inArray(orders.areaId, ids),
        gte(orders.deliveryDate, from),
        inArray(orders.status, [...BOOKING_STATUSES]),
      ),
    )
    .groupBy(orders.areaId, orders.deliveryDate);
  return areas.map((area) => ({
    id: area.id,
    siteId: area.siteId,
    name: area.name,
    active: area.active,
    postalCodes: codes.filter((c) => c.areaId === area.id).map((c) => c.postalCode),
    slots: slots
      .filter((slot) => slot.areaId === area.id)
      .map((slot) => ({
        id: slot.id,
        weekday: slot.weekday,
        startTime: slot.startTime,
        endTime: slot.endTime,
        capacity: slot.capacity,
        cutoffDaysBefore: slot.cutoffDaysBefore,
        cutoffTime: slot.cutoffTime,
        booked: booked
          .filter(
            (b) =>
              b.areaId === area.id &&
              b.startTime === slot.startTime &&
              weekdayOf(b.date) === slot.weekday,
          )
          .map(({ date, sold }) => ({ date, sold })),
      })),
    closedDates: closed
      .filter((c) => c.areaId === area.id)
      .map(({ date }) => ({
        date,
        orders: Number(onClosed.find((o) => o.areaId === area.id && o.date === date)?.n ?? 0),
      })),
  }));
}

async function areaRowOf(tx: Transaction, area: Area): Promise<AreaRow> {
  const [fresh] = await tx.select().from(deliveryAreas).where(eq(deliveryAreas.id, area.id));
  const [row] = await areaRows(tx, [fresh ?? area], today());
  if (!row) throw new Error('area row missing');
  return row;
}

/** A write on one area: the area's row locked for the transaction, 403/404 as the reads say. */
function onArea<T>(
  request: FastifyRequest,
  id: number,
  write: (tx: Transaction, area: Area) => Promise<T>,
): Promise<T> {
  const grants = grantsOf(request);
  return request.server.db.transaction(async (tx) =>
    write(tx, await scopedArea(tx, grants, id, true)),
  );
}

export async function createArea(request: FastifyRequest, body: AreaCreate): Promise<AreaRow> {
  return request.server.db.transaction(async (tx) => {
    const [area] = await tx
      .insert(deliveryAreas)
      .values({ siteId: SHOP_SITE_ID, name: body.name })
      .returning();
    if (!area) throw new Error('area insert returned no row');
    await recordAudit(tx, actorOf(request), {
      action: 'delivery.area.create',
      ...areaSubject(area),
      changes: { name: { after: area.name }, active: { after: area.active } },
    });
    return areaRowOf(tx, area);
  });
}

/**
 * Renames the area or turns it on or off; a change to nothing writes nothing. Turning off an area
 * with upcoming orders is answered 409 with those orders (`/problems/orders-in-area`) unless
 * confirmed with their ids, as closing a date is: the orders keep their slot and are delivered.
 */
export async function updateArea(
  request: FastifyRequest,
  id: number,
  body: AreaUpdate,
): Promise<AreaRow> {
  return onArea(request, id, async (tx, area) => {
    const next = { name: body.name ?? area.name, active: body.active ?? area.active };
    const changes: Record<string, { before: unknown; after: unknown }> = {};
    if (next.name !== area.name) changes.name = { before: area.name, after: next.name };
    if (next.active !== area.active) changes.active = { before: area.active, after: next.active };
    if (Object.keys(changes).length === 0) return areaRowOf(tx, area);
    if (area.active && !next.active) {
      const from = today();
      await lockBookingsFrom(tx, area.id, from);
      const booked = await bookedOrders(tx, area.id, { from });
      refuseUnconfirmed(booked, body, {
        type: 'orders-in-area',
        title: 'Orders in the area',
        detail: `${ordersText(booked.length)} booked for delivery in the area from ${from} on; they keep their slot. Confirm with their ids to turn the area off.`,
      });
      if (booked.length > 0)
        changes.ordersInArea = { before: null, after: booked.map((o) => o.number) };
    }
    await tx.update(deliveryAreas).set(next).where(eq(deliveryAreas.id, area.id));
    await recordAudit(tx, actorOf(request), {
      action: 'delivery.area.update',
      ...areaSubject(area),
      changes,
    });
    return areaRowOf(tx, area);
  });
}

function postalCodeTaken(taken: { postalCode: string; areaId: number; areaName: string }[]) {
  const names = taken.map((t) => `${t.postalCode} (${t.areaName})`).join(', ');
  return new AppError(
    409,
    'postal-code-taken',
    'Postal code in another area',
    `A postal code is in one area only; these are in another area: ${names}.`,
    { taken },
  );
}

/** The codes among `codes` that another area of the site has. */
async function takenCodes(tx: Transaction, area: Area, codes: readonly string[]) {
  if (codes.length === 0) return [];
  return tx
    .select({
      postalCode: deliveryAreaPostalCodes.postalCode,
      areaId: deliveryAreas.id,
      areaName: deliveryAreas.name,
    })
    .from(deliveryAreaPostalCodes)
    .innerJoin(deliveryAreas, eq(deliveryAreas.id, deliveryAreaPostalCodes.areaId))
    .where(
      and(
        eq(deliveryAreaPostalCodes.siteId, area.siteId),
        inArray(deliveryAreaPostalCodes.postalCode, [...codes]),
        ne(deliveryAreaPostalCodes.areaId, area.id),
      ),
    )
    .orderBy(asc(deliveryAreaPostalCodes.postalCode));
}

/**
 * Sets the area's postal codes (normalised by the schema). A code another area of the site has
 * is refused (409 naming the area) and nothing is written. Orders already placed keep their area;
 * removing a code with upcoming orders delivered to it is answered 409 with those orders
 * (`/problems/orders-in-postal-codes`) unless confirmed with their ids.
 */
export async function setPostalCodes(
  request: FastifyRequest,
  id: number,
  body: PostalCodes,
): Promise<AreaRow> {
  const wanted = [...new Set(body.postalCodes)].sort();
  return onArea(request, id, async (tx, area) => {
    const taken = await takenCodes(tx, area, wanted);
    if (taken.length > 0) throw postalCodeTaken(taken);
    const before = (
      await tx
        .select({ code: deliveryAreaPostalCodes.postalCode })
        .from(deliveryAreaPostalCodes)
        .where(eq(deliveryAreaPostalCodes.areaId, area.id))
        .orderBy(asc(deliveryAreaPostalCodes.postalCode))
    ).map((row) => row.code);
    const added = wanted.filter((code) => !before.includes(code));
    const removed = before.filter((code) => !wanted.includes(code));
    if (added.length === 0 && removed.length === 0) return areaRowOf(tx, area);
    let affected: BookedOrder[] = [];
    if (removed.length > 0) {
      const from = today();
      await lockBookingsFrom(tx, area.id, from);
      affected = await bookedOrders(tx, area.id, { from, postalCodes: removed });
      refuseUnconfirmed(affected, body, {
        type: 'orders-in-postal-codes',
        title: 'Orders to the postal codes',
        detail: `${ordersText(affected.length)} booked for delivery to the removed postal codes from ${from} on; they keep their slot. Confirm with their ids to remove the codes.`,
      });
    }
    if (removed.length > 0) {
      await tx
        .delete(deliveryAreaPostalCodes)
        .where(
          and(
            eq(deliveryAreaPostalCodes.areaId, area.id),
            inArray(deliveryAreaPostalCodes.postalCode, removed),
          ),
        );
    }
    if (added.length > 0) {
      const inserted = await tx
        .insert(deliveryAreaPostalCodes)
        .values(added.map((postalCode) => ({ siteId: area.siteId, postalCode, areaId: area.id })))
        .onConflictDoNothing()
        .returning({ code: deliveryAreaPostalCodes.postalCode });
      // Another area took a code since the check (its own transaction committed meanwhile).
      if (inserted.length < added.length) throw postalCodeTaken(await takenCodes(tx, area, added));
    }
    await recordAudit(tx, actorOf(request), {
      action: 'delivery.postal-codes',
      ...areaSubject(area),
      changes: {
        postalCodes: { before, after: wanted },
        ...(affected.length > 0
          ? { ordersToRemovedCodes: { before: null, after: affected.map((o) => o.number) } }
          : {}),
      },
    });
    return areaRowOf(tx, area);
  });
}

/** A weekly slot: a weekday and start time of the area (its identity in the calendar). */
interface SlotIdentity {
  areaId: number;
  weekday: number;
  startTime: string;
}

/** The dates from `from` up to the checkout's horizon (and a day) that fall on `weekday`. */
function datesOnWeekday(from: string, weekday: number): string[] {
  const dates: string[] = [];
  for (let day = 0; day <= DELIVERY_HORIZON_DAYS + 1; day += 1) {
    const date = addDays(from, day);
    if (weekdayOf(date) === weekday) dates.push(date);
  }
  return dates;
}

/**
 * The slot's upcoming dated slots (`from` on), locked by date: those within the checkout's
 * horizon made first with `capacity` when missing. Each with the orders booked on it.
 */
async function lockUpcoming(
  tx: Transaction,
  slot: SlotIdentity,
  capacity: number,
  from: string,
): Promise<{ date: string; capacity: number; sold: number; orders: number }[]> {
  await tx
    .insert(deliverySlotBookings)
    .values(
      datesOnWeekday(from, slot.weekday).map((date) => ({
        areaId: slot.areaId,
        date,
        startTime: slot.startTime,
        capacity,
      })),
    )
    .onConflictDoNothing();
  const rows = await tx
    .select({
      date: deliverySlotBookings.date,
      capacity: deliverySlotBookings.capacity,
      sold: deliverySlotBookings.sold,
    })
    .from(deliverySlotBookings)
    .where(
      and(
        eq(deliverySlotBookings.areaId, slot.areaId),
        eq(deliverySlotBookings.startTime, slot.startTime),
        gte(deliverySlotBookings.date, from),
        sql`${bookingWeekday} = ${slot.weekday}`,
      ),
    )
    .orderBy(asc(deliverySlotBookings.date), asc(deliverySlotBookings.startTime))
    .for('update');
  const booked = await tx
    .select({ date: orders.deliveryDate, n: count() })
    .from(orders)
    .where(
      and(
        eq(orders.areaId, slot.areaId),
        eq(orders.startTime, slot.startTime),
        gte(orders.deliveryDate, from),
        sql`extract(isodow from ${orders.deliveryDate})::int = ${slot.weekday}`,
        inArray(orders.status, [...BOOKING_STATUSES]),
      ),
    )
    .groupBy(orders.deliveryDate);
  const ordersOn = new Map(booked.map((row) => [row.date, Number(row.n)]));
  const dates = new Set([...rows.map((row) => row.date), ...ordersOn.keys()].filter(Boolean));
  return [...dates].sort().map((date) => {
    const row = rows.find((r) => r.date === date);
    return {
      date: date as string,
      capacity: row?.capacity ?? 0,
      sold: row?.sold ?? 0,
      orders: ordersOn.get(date) ?? 0,
    };
  });
}

const bookedOf = (row: { sold: number; orders: number }) => Math.max(row.sold, row.orders);

/** 409: the change would leave orders of these dates without their place. */
function slotBooked(affected: BookedDate[], why: string): AppError {
  const booked = affected.reduce((sum, row) => sum + row.sold, 0);
  const dates = affected.map((row) => `${row.sold} on ${row.date}`).join(', ');
  return new AppError(
    409,
    'slot-booked',
    'Orders booked in the slot',
    `${why}: ${booked} ${booked === 1 ? 'order is' : 'orders are'} booked in the slot (${dates}).`,
    { booked, affected },
  );
}

/**
 * Sets the slot's upcoming dated slots to `capacity` (0 for a slot that goes), in one go with the
 * calendar: refused (409, nothing written) when a date has more places sold than that.
 */
async function setUpcomingCapacity(
  tx: Transaction,
  slot: SlotIdentity,
  capacity: number,
  from: string,
  why: string,
): Promise<void> {
  const rows = await lockUpcoming(tx, slot, capacity, from);
  const over = rows.filter((row) => bookedOf(row) > capacity);
  if (over.length > 0) {
    throw slotBooked(
      over.map((row) => ({ date: row.date, sold: bookedOf(row) })),
      why,
    );
  }
  await tx
    .update(deliverySlotBookings)
    .set({ capacity })
    .where(
      and(
        eq(deliverySlotBookings.areaId, slot.areaId),
        eq(deliverySlotBookings.startTime, slot.startTime),
        gte(deliverySlotBookings.date, from),
        sql`${bookingWeekday} = ${slot.weekday}`,
      ),
    );
}

async function lockedSlot(tx: Transaction, area: Area, slotId: number): Promise<CalendarSlot> {
  const [slot] = await tx
    .select()
    .from(deliveryCalendarSlots)
    .where(and(eq(deliveryCalendarSlots.id, slotId), eq(deliveryCalendarSlots.areaId, area.id)))
    .for('update');
  if (!slot) throw new NotFound('The area has no such slot.');
  return slot;
}

async function refuseDuplicate(tx: Transaction, slot: SlotIdentity, except?: number) {
  const [other] = await tx
    .select({ id: deliveryCalendarSlots.id })
    .from(deliveryCalendarSlots)
    .where(
      and(
        eq(deliveryCalendarSlots.areaId, slot.areaId),
        eq(deliveryCalendarSlots.weekday, slot.weekday),
        eq(deliveryCalendarSlots.startTime, slot.startTime),
        except === undefined ? undefined : ne(deliveryCalendarSlots.id, except),
      ),
    );
  if (other) {
    throw new AppError(
      409,
      'slot-exists',
      'Slot exists',
      `The area already has a slot starting at ${slot.startTime} on that weekday.`,
      { errors: { startTime: 'admin.delivery.error.slotExists' } },
    );
  }
}

const slotFields = (slot: SlotBody | CalendarSlot) => ({
  weekday: slot.weekday,
  startTime: slot.startTime,
  endTime: slot.endTime,
  capacity: slot.capacity,
  cutoffDaysBefore: slot.cutoffDaysBefore,
  cutoffTime: slot.cutoffTime,
});

export async function addSlot(
  request: FastifyRequest,
  id: number,
  body: SlotBody,
): Promise<AreaRow> {
  return onArea(request, id, async (tx, area) => {
    const identity = { areaId: area.id, weekday: body.weekday, startTime: body.startTime };
    await refuseDuplicate(tx, identity);
    const [slot] = await tx
      .insert(deliveryCalendarSlots)
      .values({ areaId: area.id, ...slotFields(body) })
      .returning();
    if (!slot) throw new Error('slot insert returned no row');
    await setUpcomingCapacity(
      tx,
      identity,
      body.capacity,
      today(),
      `The capacity ${body.capacity} is below the orders`,
    );
    await recordAudit(tx, actorOf(request), {
      action: 'delivery.slot.create',
      ...areaSubject(area),
      changes: { slot: { after: { id: slot.id, ...slotFields(slot) } } },
    });
    return areaRowOf(tx, area);
  });
}

/**
 * Changes a weekly slot. Its capacity (refused below the places sold on any upcoming date) and
 * cut-off may change whatever is booked; its weekday, start or end time only while no upcoming
 * date has orders (the orders name that time), else 409 with the dates.
 */
export async function changeSlot(
  request: FastifyRequest,
  id: number,
  slotId: number,
  body: SlotBody,
): Promise<AreaRow> {
  return onArea(request, id, async (tx, area) => {
    const old = await lockedSlot(tx, area, slotId);
    const from = today();
    const was = { areaId: area.id, weekday: old.weekday, startTime: old.startTime };
    const now = { areaId: area.id, weekday: body.weekday, startTime: body.startTime };
    const moved = was.weekday !== now.weekday || was.startTime !== now.startTime;
    const before = slotFields(old);
    const after = slotFields(body);
    const changes: Record<string, { before: unknown; after: unknown }> = {};
    for (const key of Object.keys(after) as (keyof typeof after)[]) {
      if (before[key] !== after[key]) changes[key] = { before: before[key], after: after[key] };
    }
    if (Object.keys(changes).length === 0) return areaRowOf(tx, area);
    if (moved) {
      await refuseDuplicate(tx, now, old.id);
      // The old time goes: none of its upcoming dates may have orders.
      await setUpcomingCapacity(tx, was, 0, from, 'The slot’s time cannot change');
    } else if (old.endTime !== body.endTime) {
      const booked = (await lockUpcoming(tx, was, old.capacity, from)).filter(
        (row) => bookedOf(row) > 0,
      );
      if (booked.length > 0) {
        throw slotBooked(
          booked.map((row) => ({ date: row.date, sold: bookedOf(row) })),
          'The slot’s time cannot change',
        );
      }
    }
    await tx.update(deliveryCalendarSlots).set(after).where(eq(deliveryCalendarSlots.id, old.id));
    await setUpcomingCapacity(
      tx,
      now,
      body.capacity,
      from,
      `The capacity ${body.capacity} is below the orders`,
    );
    await recordAudit(tx, actorOf(request), {
      action: 'delivery.slot.update',
      ...areaSubject(area),
      changes: { slotId: { after: old.id }, ...changes },
    });
    return areaRowOf(tx, area);
  });
}

/** Removes a weekly slot: refused (409 with the dates) while an upcoming date has orders. */
export async function removeSlot(
  request: FastifyRequest,
  id: number,
  slotId: number,
): Promise<AreaRow> {
  return onArea(request, id, async (tx, area) => {
    const old = await lockedSlot(tx, area, slotId);
    await setUpcomingCapacity(
      tx,
      { areaId: area.id, weekday: old.weekday, startTime: old.startTime },
      0,
      today(),
      'The slot cannot be removed',
    );
    await tx.delete(deliveryCalendarSlots).where(eq(deliveryCalendarSlots.id, old.id));
    await recordAudit(tx, actorOf(request), {
      action: 'delivery.slot.delete',
      ...areaSubject(area),
      changes: { slot: { before: { id: old.id, ...slotFields(old) } } },
    });
    return areaRowOf(tx, area);
  });
}

/**
 * The area's orders that hold a place (not cancelled or expired) on `on.date`, or on every date
 * from `on.from`, optionally only those delivered to one of `on.postalCodes`; by date, slot and
 * number.
 */
async function bookedOrders(
  tx: Transaction,
  areaId: number,
  on: { date: string } | { from: string; postalCodes?: readonly string[] },
): Promise<BookedOrder[]> {
  const rows = await tx
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.areaId, areaId),
        'date' in on ? eq(orders.deliveryDate, on.date) : gte(orders.deliveryDate, on.from),
        // The code as the checkout matches it: whole, or its last five characters.
        'postalCodes' in on && on.postalCodes
          ? or(
              inArray(orders.postalCode, [...on.postalCodes]),
              inArray(sql`right(${orders.postalCode}, 5)`, [...on.postalCodes]),
            )
          : undefined,
        inArray(orders.status, [...BOOKING_STATUSES]),
      ),
    )
    .orderBy(asc(orders.deliveryDate), asc(orders.startTime), asc(orders.number));
  return rows.map((order) => ({
    id: order.id,
    number: order.number,
    status: order.status,
    name: `${order.deliveryAddress.firstName} ${order.deliveryAddress.lastName}`.trim(),
    email: order.email,
    phoneNumber: order.phoneNumber,
    deliveryDate: order.deliveryDate ?? '',
    startTime: order.startTime ?? '',
    endTime: order.endTime ?? '',
  }));
}

const sameIds = (a: readonly string[], b: readonly string[]) => {
  const left = [...new Set(a)].sort();
  const right = [...new Set(b)].sort();
  return left.length === right.length && left.every((id, i) => id === right[i]);
};

/**
 * Refuses (409 `type`, listing `booked`) a change that concerns booked orders unless the request
 * confirms exactly those orders by id: what the staff member was shown is what is there now.
 */
function refuseUnconfirmed(
  booked: readonly BookedOrder[],
  body: { confirm?: true; orderIds?: string[] },
  problem: { type: string; title: string; detail: string },
): void {
  if (booked.length === 0) return;
  const seen = body.confirm ? (body.orderIds ?? []) : null;
  if (
    seen &&
    sameIds(
      seen,
      booked.map((o) => o.id),
    )
  )
    return;
  throw new AppError(409, problem.type, problem.title, problem.detail, { orders: booked });
}

const ordersText = (count: number) => `${count} ${count === 1 ? 'order is' : 'orders are'}`;

/**
 * Locks the area's dated slots from `from` on, by date and start time (the order closing a date
 * takes them in), so that an order being placed in the area now is either among the orders read
 * after this or placed after the change commits, when the checkout's slot take sees it.
 */
async function lockBookingsFrom(tx: Transaction, areaId: number, from: string): Promise<void> {
  await tx
    .select({ date: deliverySlotBookings.date })
    .from(deliverySlotBookings)
    .where(and(eq(deliverySlotBookings.areaId, areaId), gte(deliverySlotBookings.date, from)))
    .orderBy(asc(deliverySlotBookings.date), asc(deliverySlotBookings.startTime))
    .for('update');
}

/**
 * Closes a date of the area (a public holiday): no new orders for it. The date's dated slots are
 * locked first (by start time), so an order being placed for it now is either seen here or
 * refused by the checkout once the date is closed. With orders on it, 409 lists them and nothing
 * is written, unless `confirm` names exactly those orders: then the date closes, and the answer
 * lists them for the staff member to contact (they keep their slot). Closing a closed date again
 * changes nothing.
 */
export async function closeDate(
  request: FastifyRequest,
  id: number,
  body: CloseDate,
): Promise<ClosedAnswer> {
  const from = today();
  if (body.date < from) {
    throw new Invalid({ date: 'admin.delivery.error.pastDate' }, 'The date has passed.');
  }
  return onArea(request, id, async (tx, area) => {
    await tx
      .select({ startTime: deliverySlotBookings.startTime })
      .from(deliverySlotBookings)
      .where(
        and(eq(deliverySlotBookings.areaId, area.id), eq(deliverySlotBookings.date, body.date)),
      )
      .orderBy(asc(deliverySlotBookings.startTime))
      .for('update');
    const booked = await bookedOrders(tx, area.id, { date: body.date });
    const [already] = await tx
      .select()
      .from(deliveryClosedDates)
      .where(and(eq(deliveryClosedDates.areaId, area.id), eq(deliveryClosedDates.date, body.date)));
    if (already) return { area: await areaRowOf(tx, area), orders: booked };
    refuseUnconfirmed(booked, body, {
      type: 'orders-on-date',
      title: 'Orders on the date',
      detail: `${ordersText(booked.length)} booked for delivery on ${body.date}; they keep their slot. Confirm with their ids to close the date.`,
    });
    await tx.insert(deliveryClosedDates).values({ areaId: area.id, date: body.date });
    await recordAudit(tx, actorOf(request), {
      action: 'delivery.closed-date.add',
      ...areaSubject(area),
      changes: {
        closedDate: { after: body.date },
        ...(booked.length > 0 ? { ordersOnDate: { after: booked.map((o) => o.number) } } : {}),
      },
    });
    return { area: await areaRowOf(tx, area), orders: booked };
  });
}

/** Opens a closed date again; a date that was not closed changes nothing. */
export async function reopenDate(
  request: FastifyRequest,
  id: number,
  date: string,
): Promise<AreaRow> {
  return onArea(request, id, async (tx, area) => {
    const removed = await tx
      .delete(deliveryClosedDates)
      .where(and(eq(deliveryClosedDates.areaId, area.id), eq(deliveryClosedDates.date, date)))
      .returning({ date: deliveryClosedDates.date });
    if (removed.length > 0) {
      await recordAudit(tx, actorOf(request), {
        action: 'delivery.closed-date.remove',
        ...areaSubject(area),
        changes: { closedDate: { before: date } },
      });
    }
    return areaRowOf(tx, area);
  });
}
