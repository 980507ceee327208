import { and, eq, sql } from 'drizzle-orm';
import type { Transaction } from '../../../db/client.ts';
import type { Lang } from '../../../sites/types.ts';
import { moveCartLines } from '../cart-lines.server.ts';
import { cartCoupons, carts, customers } from '../tables.ts';

export interface LoginCarts {
  customerId: string;
  siteId: string;
  lang: Lang;
  /** The session before the login (null when it was never stored: no guest cart). */
  oldSessionId: string | null;
  /** The session after it, already written in this transaction. */
  newSessionId: string;
}

/**
 * Keeps the cart through a login (decision 025), inside the transaction that regenerates the
 * session, before the old session row is deleted:
 *
 * - the customer's row is locked first, so logins of one account run one after another;
 * - without a saved cart, the guest cart becomes the customer's (its owner set, moved to the new
 *   session), or an empty one is made for the new session;
 * - with one, the guest cart's lines move into it, each summed with the saved line of its code
 *   in the upsert and capped by `least(limit, saved + guest)` (the stock or 99; a product sold out
 *   or off sale since is left out), its coupon codes are added, the guest cart is deleted, and
 *   the saved cart moves to the new session (taking it from another session that held it).
 */
export async function mergeCartsAtLogin(tx: Transaction, c: LoginCarts): Promise<void> {
  await tx
    .select({ id: customers.id })
    .from(customers)
    .where(eq(customers.id, c.customerId))
    .for('update');
  const [saved] = await tx
    .select({ id: carts.id })
    .from(carts)
    .where(and(eq(carts.customerId, c.customerId), eq(carts.siteId, c.siteId)))
    .for('update');
  const [guest] = c.oldSessionId
    ? await tx
        .select({ id: carts.id, customerId: carts.customerId })
        .from(carts)
        .where(and(eq(carts.sessionId, c.oldSessionId), eq(carts.siteId, c.siteId)))
        .for('update')
    : [];
  // Another account's cart (a login over a logged-in session) stays with that account.
  const guestCart = guest && guest.customerId === null ? guest : undefined;
  const moveTo = (cartId: string, owner?: string) =>
    tx
      .update(carts)
      .set({
        sessionId: c.newSessionId,
        updatedAt: sql`now()`,
        ...(owner ? { customerId: owner } : {}),
      })
      .where(eq(carts.id, cartId));

  if (!saved) {
    // The guest cart becomes the saved cart; without one an empty saved cart is made, so what
    // the customer adds while logged in is the account's and outlives the session.
    if (guestCart) await moveTo(guestCart.id, c.customerId);
    else {
      await tx
        .insert(carts)
        .values({ sessionId: c.newSessionId, customerId: c.customerId, siteId: c.siteId });
    }
    return;
  }
  if (guestCart) {
    await moveCartLines(tx, { from: guestCart.id, to: saved.id, siteId: c.siteId, lang: c.lang });
    await tx.execute(sql`
      insert into ${cartCoupons} (cart_id, coupon_id, added_at)
      select ${saved.id}, coupon_id, added_at from ${cartCoupons} where cart_id = ${guestCart.id}
      on conflict do nothing`);
    await tx.delete(carts).where(eq(carts.id, guestCart.id));
  }
  // The saved cart may be held by another session: the unique (session, site) index allows one
  // cart per session, and the new session has none yet.
  await moveTo(saved.id);
}
