import { and, eq, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { serverT } from '../../i18n/catalogues.ts';
import { AppError, NotFound } from '../../server/errors.ts';
import type { Lang } from '../../sites/types.ts';
import { limitOf, type ProductRow, productsByCode } from './cart-products.server.ts';
import {
  type CartKey,
  type CartTarget,
  cartIdOf,
  dropCheckoutHold,
  existingCartId,
  lockCartRow,
} from './cart-rows.server.ts';
import { cartLineItems } from './tables.ts';

/** Changing a cart's lines: adding, setting a quantity, and moving every line to another cart. */

async function productForSale(
  db: Database,
  siteId: string,
  lang: Lang,
  code: string,
): Promise<ProductRow> {
  const product = (await productsByCode(db, siteId, lang, [code])).get(code);
  if (!product) throw new NotFound(`No product with code ${code} is for sale.`);
  return product;
}

/** 409: the line would hold more than the product's limit (0 when sold out). */
function tooMany(product: ProductRow, limit: number): AppError {
  return new AppError(
    409,
    'quantity',
    'Quantity not available',
    limit === 0
      ? `Product ${product.code} is sold out.`
      : `At most ${limit} of product ${product.code} fit in the cart.`,
    { code: product.code, maxQuantity: limit },
  );
}

/** The quantity of a product already in a cart (0 when there is no such line). */
async function quantityInCart(db: Database, key: CartKey | null, code: string): Promise<number> {
  if (!key) return 0;
  const cartId = await existingCartId(db, key);
  if (!cartId) return 0;
  const [row] = await db
    .select({ quantity: cartLineItems.quantity })
    .from(cartLineItems)
    .where(and(eq(cartLineItems.cartId, cartId), eq(cartLineItems.code, code)));
  return row?.quantity ?? 0;
}

/**
 * Adds `quantity` of a product. The sum is taken inside one upsert, so two adds racing each other
 * (a double click) both count and never make two lines; a sum over the limit changes nothing and
 * answers 409. The limit is checked before the session is stored, so a refusal stores nothing;
 * only an add that loses a race to the limit finds out in the upsert, and then the transaction
 * leaves no cart behind.
 */
export async function addToCart(
  db: Database,
  target: CartTarget,
  lang: Lang,
  code: string,
  quantity: number,
): Promise<CartKey> {
  const product = await productForSale(db, target.siteId, lang, code);
  const limit = limitOf(product);
  const inCart = await quantityInCart(db, target.existing, product.code);
  if (inCart + quantity > limit) throw tooMany(product, limit);
  const key = await target.store();
  await db.transaction(async (tx) => {
    const cartId = await cartIdOf(tx, key);
    const rows = await tx
      .insert(cartLineItems)
      .values({ cartId, code: product.code, quantity })
      .onConflictDoUpdate({
        target: [cartLineItems.cartId, cartLineItems.code],
        set: { quantity: sql`${cartLineItems.quantity} + excluded.quantity` },
        setWhere: sql`${cartLineItems.quantity} + excluded.quantity <= ${limit}`,
      })
      .returning({ quantity: cartLineItems.quantity });
    if (rows.length === 0) throw tooMany(product, limit);
    await dropCheckoutHold(tx, cartId);
  });
  return key;
}

/**
 * Sets a line's quantity; 0 removes the line (also of a product no longer for sale). Removing
 * from a cart that does not hold the line changes nothing and stores nothing; the answer is the
 * cart as it is.
 */
export async function changeQuantity(
  db: Database,
  target: CartTarget,
  lang: Lang,
  code: string,
  quantity: number,
): Promise<CartKey | null> {
  if (quantity === 0) {
    const cartId = target.existing ? await existingCartId(db, target.existing) : undefined;
    if (!cartId) return target.existing;
    const removed = await db.transaction(async (tx) => {
      await lockCartRow(tx, cartId);
      const rows = await tx
        .delete(cartLineItems)
        .where(and(eq(cartLineItems.cartId, cartId), eq(cartLineItems.code, code)))
        .returning({ code: cartLineItems.code });
      if (rows.length > 0) await dropCheckoutHold(tx, cartId);
      return rows;
    });
    // A change renews the session's lifetime; nothing removed is no change.
    return removed.length > 0 ? target.store() : target.existing;
  }
  const product = await productForSale(db, target.siteId, lang, code);
  const limit = limitOf(product);
  if (quantity > limit) throw tooMany(product, limit);
  const key = await target.store();
  // Setting is idempotent, so a debounced change that arrives after a removal puts the line back
  // rather than failing.
  await db.transaction(async (tx) => {
    const cartId = await cartIdOf(tx, key);
    await tx
      .insert(cartLineItems)
      .values({ cartId, code: product.code, quantity })
      .onConflictDoUpdate({
        target: [cartLineItems.cartId, cartLineItems.code],
        set: { quantity },
      });
    await dropCheckoutHold(tx, cartId);
  });
  return key;
}

/**
 * `changequantity` of the cart API (decision 100): a quantity above what the line may hold (the
 * stock, or 99) sets what it may hold, and `warning` says so in the cart's language, for the
 * answer's `warnings` (spec §3, §8). A sold-out product is still refused (409): there is nothing
 * to set. The plain cart form (decision 022) refuses instead, with the limit in its notice.
 */
export async function changeQuantityWithinLimit(
  db: Database,
  target: CartTarget,
  lang: Lang,
  code: string,
  quantity: number,
): Promise<{ key: CartKey | null; warning: string | null }> {
  if (quantity > 0) {
    const product = await productForSale(db, target.siteId, lang, code);
    const limit = limitOf(product);
    if (quantity > limit && limit > 0) {
      const key = await changeQuantity(db, target, lang, code, limit);
      const warning = serverT(lang)('shop.cart.quantityCapped', { name: product.name, max: limit });
      return { key, warning };
    }
  }
  return { key: await changeQuantity(db, target, lang, code, quantity), warning: null };
}

/**
 * Moves every line of one cart into another, in the caller's transaction (the hand-over of
 * decision 021, the login of decision 025). Each line is summed with the target's line of its code
 * in the upsert, so an add to the target at the same moment is not lost, and capped by
 * `least(limit, target + moved)` with the limit the stock or 99; a product sold out or no longer
 * for sale is dropped. The source cart is left without lines.
 */
export async function moveCartLines(
  tx: Database | Transaction,
  move: { from: string; to: string; siteId: string; lang: Lang },
): Promise<{ moved: string[]; dropped: string[] }> {
  await lockCartRow(tx, move.from);
  await dropCheckoutHold(tx, move.from);
  await dropCheckoutHold(tx, move.to);
  const lines = await tx
    .delete(cartLineItems)
    .where(eq(cartLineItems.cartId, move.from))
    .returning({ code: cartLineItems.code, quantity: cartLineItems.quantity });
  lines.sort((a, b) => a.code.localeCompare(b.code));
  const forSale = await productsByCode(
    tx,
    move.siteId,
    move.lang,
    lines.map((line) => line.code),
  );
  const moved: string[] = [];
  const dropped: string[] = [];
  for (const line of lines) {
    const product = forSale.get(line.code);
    const limit = product ? limitOf(product) : 0;
    if (limit < 1) {
      dropped.push(line.code);
      continue;
    }
    await tx
      .insert(cartLineItems)
      .values({ cartId: move.to, code: line.code, quantity: Math.min(limit, line.quantity) })
      .onConflictDoUpdate({
        target: [cartLineItems.cartId, cartLineItems.code],
        set: {
          quantity: sql`greatest(${cartLineItems.quantity}, least(${limit}, ${cartLineItems.quantity} + excluded.quantity))`,
        },
      });
    moved.push(line.code);
  }
  return { moved, dropped };
}
