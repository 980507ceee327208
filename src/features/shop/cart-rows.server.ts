import { and, eq, gt, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { sessions } from '../../server/tables.ts';
import { carts, checkoutHolds } from './tables.ts';

/**
 * The cart's row (decision 014): found or made for a session and site, locked by every change, and
 * its checkout hold dropped by any change that makes the hold stale (decision 027).
 */

export interface CartKey {
  /** The session row's id (written before the first line item). */
  sessionId: string;
  siteId: string;
}

/**
 * Where a change writes: the cart the session already has (none before its first change), and how
 * to store the session when the change is allowed. Storing comes only after every check, so a
 * refused change (an unknown product, too many, removing from an empty cart) writes nothing, not
 * even a session row.
 */
export interface CartTarget {
  siteId: string;
  existing: CartKey | null;
  store(): Promise<CartKey>;
}

/** The cart's id, creating the cart on first use (safe against a concurrent first use). */
export async function cartIdOf(db: Database | Transaction, key: CartKey): Promise<string> {
  const [row] = await db
    .insert(carts)
    .values({ sessionId: key.sessionId, siteId: key.siteId })
    .onConflictDoUpdate({
      target: [carts.sessionId, carts.siteId],
      set: { updatedAt: sql`now()` },
    })
    .returning({ id: carts.id });
  if (!row) throw new Error('cart upsert returned no row');
  return row.id;
}

/** The cart of a live session, if it has one. */
export async function existingCartId(db: Database, key: CartKey): Promise<string | undefined> {
  const [row] = await db
    .select({ id: carts.id })
    .from(carts)
    .innerJoin(sessions, eq(sessions.id, carts.sessionId))
    .where(
      and(
        eq(carts.sessionId, key.sessionId),
        eq(carts.siteId, key.siteId),
        gt(sessions.expiresAt, sql`now()`),
      ),
    );
  return row?.id;
}

/**
 * Locks a cart's row for the transaction. Every transaction that changes a cart's lines, codes
 * or hold, or places its order, takes this lock before any other row of the cart, so they queue
 * here instead of deadlocking on each other's rows (decision 027). False when there is no cart.
 */
export async function lockCartRow(tx: Database | Transaction, cartId: string): Promise<boolean> {
  const rows = await tx
    .select({ id: carts.id })
    .from(carts)
    .where(eq(carts.id, cartId))
    .for('update');
  return rows.length > 0;
}

/**
 * Deletes a cart's checkout hold (decision 027), in the transaction of the change that makes it
 * stale: a hold keeps the slot and per-date stock of the cart as it was when the time was chosen,
 * so any change of lines, coupons or gift cards lets it go and the shopper picks the time again.
 */
export async function dropCheckoutHold(tx: Database | Transaction, cartId: string): Promise<void> {
  await tx.delete(checkoutHolds).where(eq(checkoutHolds.cartId, cartId));
}
