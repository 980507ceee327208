import { and, eq, gt, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../../../db/client.ts';
import { cartGiftCards, giftCards } from '../../../db/schema.ts';
import { Invalid } from '../../../server/errors.ts';
import { clientLimit } from '../../../server/rate-limit.ts';
import {
  type CartKey,
  type CartTarget,
  cartIdOf,
  dropCheckoutHold,
  existingCartId,
  lockCartRow,
} from '../cart.server.ts';
import { giftCardCodeHash } from './placement.server.ts';
import { GIFT_CARD_ERRORS } from './schemas.ts';

/**
 * Gift cards in the cart (decision 027): a code is looked up by its SHA-256 (upper case), never
 * stored or logged as such. Entering a card only links it to the cart; its balance pays when the
 * order is placed (`usedGiftCardAmount` shows what it would pay now). Entering or removing one is
 * a cart change: the cart's hold goes in the same transaction.
 */

/** Gift card codes are secrets: few guesses per client address and minute. */
export const GIFT_CARD_TRIES = { max: 20, timeWindow: 60_000 };

const tryLimits = new WeakMap<object, (request: FastifyRequest) => Promise<void>>();

/**
 * The one budget of gift-card tries per client address that the API's `addgiftcard` and the cart
 * page's plain form share (20 a minute), so the form is no second way to guess codes faster.
 * Over it the check throws 429.
 */
export function giftCardTryLimit(app: FastifyInstance): (request: FastifyRequest) => Promise<void> {
  // One per application: its plugins are encapsulated, its configuration object is shared.
  const known = tryLimits.get(app.config);
  if (known) return known;
  const limit = clientLimit(app, GIFT_CARD_TRIES);
  tryLimits.set(app.config, limit);
  return limit;
}

async function cardByCode(db: Database, siteId: string, code: string, now: Date) {
  const [card] = await db
    .select({ id: giftCards.id })
    .from(giftCards)
    .where(
      and(
        eq(giftCards.siteId, siteId),
        eq(giftCards.codeHash, giftCardCodeHash(code)),
        gt(giftCards.balanceCents, 0),
        sql`(${giftCards.validTo} is null or ${giftCards.validTo} > ${now})`,
      ),
    );
  return card;
}

/**
 * Enters a gift card; an unknown, used-up or expired code is 400 naming `code`. `added` is false
 * when the cart held the card already (nothing changed).
 */
export async function addGiftCard(
  db: Database,
  target: CartTarget,
  code: string,
  now: Date = new Date(),
): Promise<{ key: CartKey; added: boolean }> {
  const card = await cardByCode(db, target.siteId, code, now);
  if (!card) {
    throw new Invalid(
      { code: GIFT_CARD_ERRORS.invalid },
      'No gift card with balance has that code.',
    );
  }
  const key = await target.store();
  const added = await db.transaction(async (tx) => {
    const cartId = await cartIdOf(tx, key);
    const rows = await tx
      .insert(cartGiftCards)
      .values({ cartId, giftCardId: card.id })
      .onConflictDoNothing()
      .returning({ id: cartGiftCards.giftCardId });
    if (rows.length > 0) await dropCheckoutHold(tx, cartId);
    return rows.length > 0;
  });
  return { key, added };
}

/** A card to remove: by its code, or by the id the cart answer lists it with. */
export type GiftCardRef = { code: string } | { id: number };

/**
 * Removes a gift card (of the cart's site only); one the cart does not hold changes and stores
 * nothing.
 */
export async function removeGiftCard(
  db: Database,
  target: CartTarget,
  ref: GiftCardRef,
): Promise<CartKey | null> {
  const cartId = target.existing ? await existingCartId(db, target.existing) : undefined;
  if (!cartId) return target.existing;
  const which: SQL =
    'code' in ref ? eq(giftCards.codeHash, giftCardCodeHash(ref.code)) : eq(giftCards.id, ref.id);
  const [card] = await db
    .select({ id: giftCards.id })
    .from(giftCards)
    .where(and(eq(giftCards.siteId, target.siteId), which));
  if (!card) return target.existing;
  const removed = await db.transaction(async (tx) => {
    await lockCartRow(tx, cartId);
    const rows = await tx
      .delete(cartGiftCards)
      .where(and(eq(cartGiftCards.cartId, cartId), eq(cartGiftCards.giftCardId, card.id)))
      .returning({ id: cartGiftCards.giftCardId });
    if (rows.length > 0) await dropCheckoutHold(tx, cartId);
    return rows;
  });
  return removed.length > 0 ? target.store() : target.existing;
}
