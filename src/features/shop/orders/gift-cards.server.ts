import { and, eq, gt, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { cartGiftCards, giftCards } from '../../../db/schema.ts';
import { Invalid } from '../../../server/errors.ts';
import {
  type CartKey,
  type CartTarget,
  cartIdOf,
  dropCheckoutHold,
  existingCartId,
  lockCartRow,
} from '../cart.server.ts';
import { giftCardCodeHash } from './placement.server.ts';

/**
 * Gift cards in the cart (decision 027): a code is looked up by its SHA-256 (upper case), never
 * stored or logged as such. Entering a card only links it to the cart; its balance pays when the
 * order is placed (`usedGiftCardAmount` shows what it would pay now). Entering or removing one is
 * a cart change: the cart's hold goes in the same transaction.
 */

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

/** Enters a gift card; an unknown, used-up or expired code is 400 naming `code`. */
export async function addGiftCard(
  db: Database,
  target: CartTarget,
  code: string,
  now: Date = new Date(),
): Promise<CartKey> {
  const card = await cardByCode(db, target.siteId, code, now);
  if (!card) {
    throw new Invalid(
      { code: 'shop.giftCard.invalid' },
      'No gift card with balance has that code.',
    );
  }
  const key = await target.store();
  await db.transaction(async (tx) => {
    const cartId = await cartIdOf(tx, key);
    const added = await tx
      .insert(cartGiftCards)
      .values({ cartId, giftCardId: card.id })
      .onConflictDoNothing()
      .returning({ id: cartGiftCards.giftCardId });
    if (added.length > 0) await dropCheckoutHold(tx, cartId);
  });
  return key;
}

/** Removes a gift card; one the cart does not hold changes and stores nothing. */
export async function removeGiftCard(
  db: Database,
  target: CartTarget,
  code: string,
): Promise<CartKey | null> {
  const cartId = target.existing ? await existingCartId(db, target.existing) : undefined;
  if (!cartId) return target.existing;
  const [card] = await db
    .select({ id: giftCards.id })
    .from(giftCards)
    .where(
      and(eq(giftCards.siteId, target.siteId), eq(giftCards.codeHash, giftCardCodeHash(code))),
    );
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
