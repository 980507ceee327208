import { and, asc, count, eq, gt, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { cartLineItems, carts, products, sessions } from '../../db/schema.ts';
import { imageUrl } from '../../images/presets.ts';
import { AppError, NotFound } from '../../server/errors.ts';
import type { Lang } from '../../sites/types.ts';
import { type Cart, type LineItem, MAX_QUANTITY, moneyString } from './schemas.ts';

/**
 * The shop cart: one per session and site, its line items keyed by product code (decision 014).
 * Prices, names and stock are read from the catalogue at every answer, so a cart never shows a
 * stale price; the line items hold only code and quantity.
 */

export interface CartKey {
  /** The session row's id (written before the first line item). */
  sessionId: string;
  siteId: string;
}

type ProductRow = Pick<
  typeof products.$inferSelect,
  | 'id'
  | 'code'
  | 'name'
  | 'path'
  | 'productGroup'
  | 'imageIds'
  | 'priceCents'
  | 'stock'
  | 'isGiftCard'
>;

const productColumns = {
  id: products.id,
  code: products.code,
  name: products.name,
  path: products.path,
  productGroup: products.productGroup,
  imageIds: products.imageIds,
  priceCents: products.priceCents,
  stock: products.stock,
  isGiftCard: products.isGiftCard,
};

/** A product is for sale when it has a price; the first row wins if a code repeats. */
async function productsByCode(
  db: Database,
  siteId: string,
  lang: Lang,
  codes: string[],
): Promise<Map<string, ProductRow>> {
  const found = new Map<string, ProductRow>();
  if (codes.length === 0) return found;
  const rows = await db
    .select(productColumns)
    .from(products)
    .where(
      and(
        eq(products.siteId, siteId),
        eq(products.lang, lang),
        inArray(products.code, codes),
        isNotNull(products.priceCents),
      ),
    )
    .orderBy(asc(products.id));
  for (const row of rows) if (!found.has(row.code)) found.set(row.code, row);
  return found;
}

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

/** The most one line may hold: the stock when it is lower than the quantity limit. */
function limitOf(product: ProductRow): number {
  return product.stock === null ? MAX_QUANTITY : Math.min(MAX_QUANTITY, product.stock);
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

/** The cart's id, creating the cart on first use (safe against a concurrent first use). */
async function cartIdOf(db: Database, key: CartKey): Promise<string> {
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
async function existingCartId(db: Database, key: CartKey): Promise<string | undefined> {
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
 * Adds `quantity` of a product and answers the cart. The sum is taken inside one upsert, so two
 * adds racing each other (a double click) both count and never make two lines; a sum over the
 * limit changes nothing and answers 409.
 */
export async function addToCart(
  db: Database,
  key: CartKey,
  lang: Lang,
  code: string,
  quantity: number,
): Promise<Cart> {
  const product = await productForSale(db, key.siteId, lang, code);
  const limit = limitOf(product);
  if (quantity > limit) throw tooMany(product, limit);
  const cartId = await cartIdOf(db, key);
  const rows = await db
    .insert(cartLineItems)
    .values({ cartId, code: product.code, quantity })
    .onConflictDoUpdate({
      target: [cartLineItems.cartId, cartLineItems.code],
      set: { quantity: sql`${cartLineItems.quantity} + excluded.quantity` },
      setWhere: sql`${cartLineItems.quantity} + excluded.quantity <= ${limit}`,
    })
    .returning({ quantity: cartLineItems.quantity });
  if (rows.length === 0) throw tooMany(product, limit);
  return loadCart(db, key, lang);
}

/**
 * Sets a line's quantity and answers the cart; 0 removes the line (also of a product no longer for
 * sale).
 */
export async function changeQuantity(
  db: Database,
  key: CartKey,
  lang: Lang,
  code: string,
  quantity: number,
): Promise<Cart> {
  if (quantity === 0) {
    const cartId = await existingCartId(db, key);
    if (cartId) {
      await db
        .delete(cartLineItems)
        .where(and(eq(cartLineItems.cartId, cartId), eq(cartLineItems.code, code)));
    }
    return loadCart(db, key, lang);
  }
  const product = await productForSale(db, key.siteId, lang, code);
  const limit = limitOf(product);
  if (quantity > limit) throw tooMany(product, limit);
  const cartId = await cartIdOf(db, key);
  // Setting is idempotent, so a debounced change that arrives after a removal puts the line back
  // rather than failing.
  await db
    .insert(cartLineItems)
    .values({ cartId, code: product.code, quantity })
    .onConflictDoUpdate({
      target: [cartLineItems.cartId, cartLineItems.code],
      set: { quantity },
    });
  return loadCart(db, key, lang);
}

const emptyMoney = moneyString(0);

function cartOf(lineItems: LineItem[], totalCents: number): Cart {
  const total = moneyString(totalCents);
  return {
    loading: false,
    currency: 'EUR',
    currencySymbol: '€',
    vatTotal: null,
    vatPercent: null,
    orderDiscount: emptyMoney,
    total,
    subTotal: total,
    usedGiftCardAmount: emptyMoney,
    shippingTotal: emptyMoney,
    shippingTotalWithoutDiscounts: emptyMoney,
    warnings: [],
    checkoutWarnings: [],
    lineItemCount: lineItems.length,
    lineItems,
    couponCodes: [],
    handlingTotal: emptyMoney,
    hasGiftCardsOnly: lineItems.length > 0 && lineItems.every((item) => item.isGiftCard),
    shippingMethodId: null,
    paymentMethodCode: null,
    isEditable: true,
    usedLoyaltyCouponAmount: emptyMoney,
    usedRefundCodeAmount: emptyMoney,
  };
}

/** The cart as the contract answers it, in the given language; empty when there is none. */
export async function loadCart(db: Database, key: CartKey | null, lang: Lang): Promise<Cart> {
  const cartId = key ? await existingCartId(db, key) : undefined;
  if (!key || !cartId) return cartOf([], 0);
  const lines = await db
    .select({ code: cartLineItems.code, quantity: cartLineItems.quantity })
    .from(cartLineItems)
    .where(eq(cartLineItems.cartId, cartId))
    .orderBy(asc(cartLineItems.addedAt), asc(cartLineItems.code));
  const catalogue = await productsByCode(
    db,
    key.siteId,
    lang,
    lines.map((line) => line.code),
  );
  const items: LineItem[] = [];
  let totalCents = 0;
  for (const line of lines) {
    // A product taken off sale drops out of the answer; changequantity 0 still removes its line.
    const product = catalogue.get(line.code);
    if (!product || product.priceCents === null) continue;
    const lineCents = product.priceCents * line.quantity;
    totalCents += lineCents;
    const imageId = product.imageIds[0];
    items.push({
      code: product.code,
      productId: product.id,
      name: product.name,
      category: product.productGroup ?? '',
      quantity: line.quantity,
      linePrice: moneyString(lineCents),
      // No cart-level discounts (coupons) exist yet: the price before them is the same.
      linePriceWithoutDiscounts: moneyString(lineCents),
      imageUrl:
        imageId === undefined
          ? null
          : imageUrl({ id: imageId, slug: product.name }, 'product-thumbnail-medium'),
      isGiftCard: product.isGiftCard,
      url: product.path,
      unitPrice: moneyString(product.priceCents),
      maxQuantity: limitOf(product),
    });
  }
  return cartOf(items, totalCents);
}

/**
 * The header's count: the same line items `loadCart` answers (products still for sale in the
 * language), counted in one statement.
 */
export async function lineItemCount(db: Database, key: CartKey, lang: Lang): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(cartLineItems)
    .innerJoin(carts, eq(carts.id, cartLineItems.cartId))
    .innerJoin(sessions, eq(sessions.id, carts.sessionId))
    .where(
      and(
        eq(carts.sessionId, key.sessionId),
        eq(carts.siteId, key.siteId),
        gt(sessions.expiresAt, sql`now()`),
        sql`exists (select 1 from ${products} p where p.site_id = ${carts.siteId}
          and p.lang = ${lang} and p.code = ${cartLineItems.code} and p.price_cents is not null)`,
      ),
    );
  return row?.n ?? 0;
}
