import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../../db/client.ts';
import { NotFound } from '../../../server/errors.ts';
import { sessions } from '../../../server/tables.ts';
import type { Lang } from '../../../sites/types.ts';
import { products } from '../../content/index.server.ts';
import { moveCartLines } from '../cart-lines.server.ts';
import { type CartKey, type CartTarget, existingCartId } from '../cart-rows.server.ts';
import { cartHandovers, cartLineItems, carts } from '../tables.ts';

/**
 * The cart hand-over (decision 021). The shop's frame on a brand site keeps its cart in a session
 * partitioned by that brand site (decision 020), which the shop at top level cannot see. The
 * frame asks for a one-time token bound to its cart; the shop's top-level page, after the visitor
 * confirms, moves that cart's lines into its own session's cart. A token is random (32 bytes),
 * kept only as its SHA-256, lives `HANDOVER_TTL_MS`, and is used by deleting its row inside the
 * transaction that moves the lines: two uses at once move the lines once.
 */

export const HANDOVER_TTL_MS = 10 * 60 * 1000;
/** base64url of 32 random bytes. */
export const HANDOVER_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function hashHandoverToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const unknownToken = () => new NotFound('The hand-over token is unknown, already used or expired.');

/**
 * A token for the cart of the frame's session. 404 when the session has no cart or an empty one:
 * there is nothing to hand over, and nothing is written.
 */
export async function issueHandover(
  db: Database,
  key: CartKey | null,
  now: Date = new Date(),
): Promise<{ token: string; expiresAt: Date }> {
  const cartId = key ? await existingCartId(db, key) : undefined;
  if (!cartId) throw new NotFound('The session has no cart to hand over.');
  const [line] = await db
    .select({ code: cartLineItems.code })
    .from(cartLineItems)
    .where(eq(cartLineItems.cartId, cartId))
    .limit(1);
  if (!line) throw new NotFound('The cart is empty: there is nothing to hand over.');
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + HANDOVER_TTL_MS);
  await db.transaction(async (tx) => {
    // Tokens of this cart that are past their time go with the new one.
    await tx
      .delete(cartHandovers)
      .where(and(eq(cartHandovers.cartId, cartId), lte(cartHandovers.expiresAt, now)));
    await tx
      .insert(cartHandovers)
      .values({ tokenHash: hashHandoverToken(token), cartId, expiresAt });
  });
  return { token, expiresAt };
}

/** The cart a live token hands over, and the session that cart belongs to; none when unusable. */
export async function handoverSource(
  db: Database,
  token: string,
  now: Date = new Date(),
): Promise<CartKey | null> {
  if (!HANDOVER_TOKEN_PATTERN.test(token)) return null;
  const [row] = await db
    .select({ sessionId: carts.sessionId, siteId: carts.siteId })
    .from(cartHandovers)
    .innerJoin(carts, eq(carts.id, cartHandovers.cartId))
    .innerJoin(sessions, eq(sessions.id, carts.sessionId))
    .where(
      and(
        eq(cartHandovers.tokenHash, hashHandoverToken(token)),
        gt(cartHandovers.expiresAt, now),
        gt(sessions.expiresAt, sql`now()`),
      ),
    );
  // A cart with a live session joined in: its session id is set.
  return row?.sessionId ? { sessionId: row.sessionId, siteId: row.siteId } : null;
}

export interface HandoverResult {
  key: CartKey;
  /** Codes whose lines were moved (summed with the cart's own line of the code, if any). */
  moved: string[];
  /** Codes left out: sold out or no longer for sale. */
  dropped: string[];
}

/**
 * Uses a token: moves the lines of the cart it hands over into the target session's cart. A line
 * of a code the target already holds is summed with it, capped by the stock and the limit of 99;
 * a sold-out product or one no longer for sale is not moved. The hand-over cart is left empty.
 *
 * The token is checked before the target session is stored, so an unknown or expired token writes
 * nothing. It is then used by a conditional delete of its row inside the transaction that moves
 * the lines: of two uses at once one deletes the row and moves the lines, the other finds no row
 * (after waiting for the first) and is refused with 404 as a used token.
 */
export async function claimHandover(
  db: Database,
  token: string,
  target: CartTarget,
  lang: Lang,
  now: Date = new Date(),
): Promise<HandoverResult> {
  const source = await handoverSource(db, token, now);
  if (!source || source.siteId !== target.siteId) throw unknownToken();
  const key = await target.store();
  return db.transaction(async (tx) => {
    const [used] = await tx
      .delete(cartHandovers)
      .where(
        and(
          eq(cartHandovers.tokenHash, hashHandoverToken(token)),
          gt(cartHandovers.expiresAt, now),
        ),
      )
      .returning({ cartId: cartHandovers.cartId });
    if (!used) throw unknownToken();
    const [targetCart] = await tx
      .insert(carts)
      .values({ sessionId: key.sessionId, siteId: key.siteId })
      .onConflictDoUpdate({ target: [carts.sessionId, carts.siteId], set: { updatedAt: now } })
      .returning({ id: carts.id });
    if (!targetCart) throw new Error('cart upsert returned no row');
    // The same cart (the frame and the top level share a session): nothing moves.
    if (targetCart.id === used.cartId) return { key, moved: [], dropped: [] };
    const { moved, dropped } = await moveCartLines(tx, {
      from: used.cartId,
      to: targetCart.id,
      siteId: key.siteId,
      lang,
    });
    await linkFrameSession(tx, source.sessionId, targetCart.id);
    return { key, moved, dropped };
  });
}

/**
 * The session data key of a frame's session that names the shop cart its lines were handed over
 * to (decision 102): the brand site's badge counts that cart's lines with the frame's own.
 */
export const HANDED_OVER_TO = 'handedOverTo';

/**
 * Remembers, in the frame session's data, the cart its lines went to. Only a hand-over writes it:
 * the visitor's own confirmation at the shop's top level, which is the one moment both sessions
 * are known. A later hand-over of the same frame to another cart replaces it.
 */
async function linkFrameSession(tx: Transaction, frameSessionId: string, cartId: string) {
  await tx
    .update(sessions)
    .set({ data: sql`${sessions.data} || ${JSON.stringify({ [HANDED_OVER_TO]: cartId })}::jsonb` })
    .where(eq(sessions.id, frameSessionId));
}

/**
 * The number of products in the shop cart as a brand site's badge shows it (decision 102): the
 * lines of the session's own cart and, after a hand-over, those of the cart it went to, each code
 * once, only products still for sale, only carts of live sessions. Nothing else of the other
 * cart leaves the server: a hand-over confirmed by someone else shows its sender a count, never
 * what the cart holds.
 */
export async function countWithHandedOver(
  db: Database,
  key: CartKey | null,
  data: Record<string, unknown>,
  lang: Lang,
): Promise<number> {
  const linked = data[HANDED_OVER_TO];
  const cartIds = [
    key ? await existingCartId(db, key) : undefined,
    typeof linked === 'string' && /^[0-9a-f-]{36}$/i.test(linked) ? linked : undefined,
  ].filter((id): id is string => id !== undefined);
  if (cartIds.length === 0) return 0;
  const [row] = await db
    .select({ n: sql<number>`count(distinct ${cartLineItems.code})::int` })
    .from(cartLineItems)
    .innerJoin(carts, eq(carts.id, cartLineItems.cartId))
    .innerJoin(sessions, eq(sessions.id, carts.sessionId))
    .where(
      and(
        inArray(carts.id, cartIds),
        gt(sessions.expiresAt, sql`now()`),
        sql`exists (select 1 from ${products} p where p.site_id = ${carts.siteId}
          and p.lang = ${lang} and p.code = ${cartLineItems.code} and p.price_cents is not null)`,
      ),
    );
  return Number(row?.n ?? 0);
}
