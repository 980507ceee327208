import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database, Transaction } from '../../../db/client.ts';
import { Invalid } from '../../../server/errors.ts';
import { clientLimit, perMinute } from '../../../server/rate-limit.ts';
import {
  type CartKey,
  type CartTarget,
  cartIdOf,
  dropCheckoutHold,
  existingCartId,
  lockCartRow,
} from '../cart-rows.server.ts';
import { cartGiftCards, giftCards, type orderLines } from '../tables.ts';
import { GIFT_CARD_ERRORS } from './schemas.ts';

/**
 * Gift cards in the cart (decision 027): a code is looked up by its SHA-256 (upper case), never
 * stored or logged as such. Entering a card only links it to the cart; its balance pays when the
 * order is placed (`usedGiftCardAmount` shows what it would pay now). Entering or removing one is
 * a cart change: the cart's hold goes in the same transaction.
 */

/** Gift card codes are secrets: few guesses per client address and minute. */
export const GIFT_CARD_TRIES = { name: 'gift-card-tries', ...perMinute(20) };

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

/** The SHA-256 (hex) of a gift card's code, upper-cased: only this is stored. */
export function giftCardCodeHash(code: string): string {
  return createHash('sha256').update(code.trim().toUpperCase(), 'utf8').digest('hex');
}

/** How long a bought gift card is valid (decision 030). */
export const GIFT_CARD_VALID_MONTHS = 24;

/**
 * The letters of a new code: upper case and digits without the look-alikes 0, O, 1 and I.
 * 32 letters, so a random byte modulo 32 picks each without bias.
 */
const CODE_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A new gift card code, `LAHJA-XXXX-XXXX-XXXX`: 12 random letters, 60 bits. */
export function newGiftCardCode(): string {
  const letters = [...randomBytes(12)].map((byte) => CODE_LETTERS[byte % CODE_LETTERS.length]);
  const group = (from: number) => letters.slice(from, from + 4).join('');
  return `LAHJA-${group(0)}-${group(4)}-${group(8)}`;
}

export interface IssuedGiftCard {
  /** The code in clear: it goes to the shopper's mail only and is never stored. */
  code: string;
  cents: number;
  /** `YYYY-MM-DD`, the last day it is valid (Helsinki). */
  validTo: string;
}

/**
 * Issues the gift cards a paid order bought: one card per unit of each gift-card line, worth the
 * line's unit price, valid `GIFT_CARD_VALID_MONTHS`. Idempotent by (order, line, unit): a card
 * already issued for a unit is not made again (and its code cannot be told again: only the
 * hash is kept). Runs in the transaction that marks the order paid.
 */
export async function issueGiftCards(
  tx: Transaction,
  order: { id: string; siteId: string },
  lines: readonly (typeof orderLines.$inferSelect)[],
): Promise<IssuedGiftCard[]> {
  const issued: IssuedGiftCard[] = [];
  for (const line of lines) {
    if (!line.isGiftCard) continue;
    for (let seq = 1; seq <= line.quantity; seq += 1) {
      const code = newGiftCardCode();
      const [card] = await tx
        .insert(giftCards)
        .values({
          siteId: order.siteId,
          codeHash: giftCardCodeHash(code),
          initialCents: line.unitPriceCents,
          balanceCents: line.unitPriceCents,
          validTo: sql`now() + make_interval(months => ${GIFT_CARD_VALID_MONTHS})`,
          orderId: order.id,
          orderLineCode: line.code,
          orderSeq: seq,
        })
        .onConflictDoNothing({
          target: [giftCards.orderId, giftCards.orderLineCode, giftCards.orderSeq],
        })
        .returning({
          validTo: sql<string>`to_char(${giftCards.validTo} at time zone 'Europe/Helsinki', 'YYYY-MM-DD')`,
        });
      if (card) issued.push({ code, cents: line.unitPriceCents, validTo: card.validTo });
    }
  }
  return issued;
}
