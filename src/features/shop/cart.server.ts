import { and, asc, count, eq, gt, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { serverT } from '../../i18n/catalogues.ts';
import { formatPrice } from '../../i18n/format.ts';
import { imageUrl } from '../../images/presets.ts';
import { AppError, NotFound } from '../../server/errors.ts';
import { sessions } from '../../server/tables.ts';
import type { Lang } from '../../sites/types.ts';
import { products } from '../content/index.server.ts';
import { helsinkiDate } from './dates.ts';
import {
  type PricingCoupon,
  type PricingLine,
  percentOfBasisPoints,
  priceCart,
  rateOn,
} from './pricing.ts';
import { type Cart, type LineItem, MAX_QUANTITY, moneyString, type VatLine } from './schemas.ts';
import {
  cartCoupons,
  cartGiftCards,
  cartLineItems,
  carts,
  checkoutHolds,
  coupons,
  giftCards,
  vatRates,
} from './tables.ts';

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
  | 'taxClass'
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
  taxClass: products.taxClass,
};

/** A product is for sale when it has a price; the first row wins if a code repeats. */
export async function productsByCode(
  db: Database | Transaction,
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

/**
 * Deletes a cart's checkout hold (decision 027), in the transaction of the change that makes it
 * stale: a hold keeps the slot and per-date stock of the cart as it was when the time was chosen,
 * so any change of lines, coupons or gift cards lets it go and the shopper picks the time again.
 */
export async function dropCheckoutHold(tx: Database | Transaction, cartId: string): Promise<void> {
  await tx.delete(checkoutHolds).where(eq(checkoutHolds.cartId, cartId));
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

/** The most one line may hold: the stock when it is lower than the quantity limit. */
export function limitOf(product: Pick<ProductRow, 'stock'>): number {
  return product.stock === null ? MAX_QUANTITY : Math.min(MAX_QUANTITY, product.stock);
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
 * Whether a cart holds a delivery time that still counts (decision 027). Such a cart is what the
 * checkout's payment step stands on, so it is not editable (decision 101).
 */
async function holdsDeliveryTime(db: Database, cartId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: checkoutHolds.id })
    .from(checkoutHolds)
    .where(and(eq(checkoutHolds.cartId, cartId), gt(checkoutHolds.expiresAt, sql`now()`)))
    .limit(1);
  return row !== undefined;
}

const emptyMoney = moneyString(0);

/** The VAT rate of a product on a date; gift cards are sold without VAT. */
export async function vatRatesOn(
  db: Database,
  date: string,
): Promise<(taxClass: string, isGiftCard: boolean) => number> {
  const rows = await db.select().from(vatRates);
  return (taxClass, isGiftCard) => {
    if (isGiftCard) return 0;
    const rate = rateOn(rows, taxClass, date);
    if (rate === null) throw new Error(`No VAT rate for class ${taxClass} on ${date}`);
    return rate;
  };
}

/** A coupon row as the cart keeps it: its rule, validity and limits. */
export type CouponRow = typeof coupons.$inferSelect;

/** Whether a coupon can be used at an instant: active, in its window, uses left. */
export function couponIsValid(coupon: CouponRow, now: Date): boolean {
  if (!coupon.active) return false;
  if (coupon.validFrom && coupon.validFrom > now) return false;
  if (coupon.validTo && coupon.validTo <= now) return false;
  if (coupon.maxUses !== null && coupon.usedCount >= coupon.maxUses) return false;
  return true;
}

export function pricingCouponOf(coupon: CouponRow): PricingCoupon {
  return {
    code: coupon.code,
    percentOff: coupon.percentOff,
    amountOffCents: coupon.amountOffCents,
    productGroup: coupon.productGroup,
    minOrderCents: coupon.minOrderCents,
  };
}

/** The coupons entered into a cart, in the order they were entered. */
export async function couponsOfCart(db: Database, cartId: string): Promise<CouponRow[]> {
  const rows = await db
    .select({ coupon: coupons })
    .from(cartCoupons)
    .innerJoin(coupons, eq(coupons.id, cartCoupons.couponId))
    .where(eq(cartCoupons.cartId, cartId))
    .orderBy(asc(cartCoupons.addedAt), asc(coupons.code));
  return rows.map((row) => row.coupon);
}

/**
 * The gift cards entered into a cart that can still pay (balance left, not past `valid_to`), in
 * id order (the order placement takes them in), with their balances in cents; `forUpdate` takes
 * their row locks (inside the placement's transaction).
 */
export async function giftCardsOfCart(
  db: Database | Transaction,
  cartId: string,
  now: Date,
  { forUpdate = false } = {},
): Promise<{ id: number; balanceCents: number }[]> {
  const query = db
    .select({ id: giftCards.id, balanceCents: giftCards.balanceCents })
    .from(cartGiftCards)
    .innerJoin(giftCards, eq(giftCards.id, cartGiftCards.giftCardId))
    .where(
      and(
        eq(cartGiftCards.cartId, cartId),
        gt(giftCards.balanceCents, 0),
        sql`(${giftCards.validTo} is null or ${giftCards.validTo} > ${now})`,
      ),
    )
    .orderBy(asc(giftCards.id));
  return forUpdate ? query.for('update', { of: giftCards }) : query;
}

/** What gift cards pay of a total: their balances, at most the total. */
export function giftCardShare(balances: readonly { balanceCents: number }[], totalCents: number) {
  const sum = balances.reduce((total, card) => total + card.balanceCents, 0);
  return Math.min(sum, totalCents);
}

/**
 * Each card's part of a total, in the order given (the placement's: id order): a card pays its
 * balance or what is left, whichever is less. The parts add up to `giftCardShare`.
 */
export function giftCardParts<C extends { balanceCents: number }>(
  cards: readonly C[],
  totalCents: number,
): (C & { amountCents: number })[] {
  let left = Math.max(0, totalCents);
  return cards.map((card) => {
    const amountCents = Math.min(card.balanceCents, left);
    left -= amountCents;
    return { ...card, amountCents };
  });
}

/** A cart's contents as the pricing takes them, each line's VAT rate from `rateOf`. */
export function pricingLinesOf(
  contents: { product: ProductRow; quantity: number }[],
  rateOf: (taxClass: ProductRow['taxClass'], isGiftCard: boolean) => number,
): PricingLine[] {
  return contents.map(({ product, quantity }) => ({
    code: product.code,
    productGroup: product.productGroup,
    unitCents: product.priceCents ?? 0,
    quantity,
    vatBasisPoints: rateOf(product.taxClass, product.isGiftCard),
    isGiftCard: product.isGiftCard,
  }));
}

/** The lines of a cart that are for sale, with their catalogue rows. */
export async function cartContents(
  db: Database,
  key: CartKey,
  cartId: string,
  lang: Lang,
): Promise<{ product: ProductRow; quantity: number }[]> {
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
  const found: { product: ProductRow; quantity: number }[] = [];
  for (const line of lines) {
    // A product taken off sale drops out of the answer; changequantity 0 still removes its line.
    const product = catalogue.get(line.code);
    if (product && product.priceCents !== null) found.push({ product, quantity: line.quantity });
  }
  return found;
}

function emptyCart(): Cart {
  return {
    loading: false,
    currency: 'EUR',
    currencySymbol: '€',
    vatTotal: emptyMoney,
    vatPercent: null,
    vatBreakdown: [],
    orderDiscount: emptyMoney,
    total: emptyMoney,
    subTotal: emptyMoney,
    usedGiftCardAmount: emptyMoney,
    giftCards: [],
    shippingTotal: emptyMoney,
    shippingTotalWithoutDiscounts: emptyMoney,
    warnings: [],
    checkoutWarnings: [],
    lineItemCount: 0,
    lineItems: [],
    couponCodes: [],
    handlingTotal: emptyMoney,
    hasGiftCardsOnly: false,
    shippingMethodId: null,
    paymentMethodCode: null,
    isEditable: true,
    usedLoyaltyCouponAmount: emptyMoney,
    usedRefundCodeAmount: emptyMoney,
  };
}

/**
 * The cart as the contract answers it, in the given language; empty when there is none. It is
 * not editable while it holds a delivery time (decision 101). Prices
 * come from the catalogue, VAT rates from `vat_rates` on today's Helsinki date, discounts from the
 * cart's coupons through `priceCart` (decision 019). A coupon that has stopped being valid since
 * it was entered is left out (the spec: a code the cart does not return is invalid) with a
 * warning; one the order is below the minimum of stays, takes nothing off, and says so.
 */
export async function loadCart(
  db: Database,
  key: CartKey | null,
  lang: Lang,
  now: Date = new Date(),
): Promise<Cart> {
  const cartId = key ? await existingCartId(db, key) : undefined;
  if (!key || !cartId) return emptyCart();
  const t = serverT(lang);
  const contents = await cartContents(db, key, cartId, lang);
  const rateOf = await vatRatesOn(db, helsinkiDate(now));
  const entered = await couponsOfCart(db, cartId);
  const warnings: string[] = [];
  const valid = entered.filter((coupon) => {
    const ok = couponIsValid(coupon, now);
    if (!ok) warnings.push(`${coupon.code}: ${t('shop.coupon.invalid')}`);
    return ok;
  });
  const priced = priceCart(pricingLinesOf(contents, rateOf), valid.map(pricingCouponOf));
  for (const coupon of priced.belowMinimum) {
    warnings.push(
      `${coupon.code}: ${t('shop.coupon.minimumOrder', { amount: formatPrice(coupon.minOrderCents, '').trim() })}`,
    );
  }
  const cards = giftCardParts(await giftCardsOfCart(db, cartId, now), priced.totalCents);
  const items: LineItem[] = contents.map(({ product, quantity }, i) => {
    const line = priced.lines[i];
    const imageId = product.imageIds[0];
    return {
      code: product.code,
      productId: product.id,
      name: product.name,
      category: product.productGroup ?? '',
      quantity,
      linePrice: moneyString(line?.lineCents ?? 0),
      linePriceWithoutDiscounts: moneyString(line?.grossCents ?? 0),
      imageUrl:
        imageId === undefined
          ? null
          : imageUrl({ id: imageId, slug: product.name }, 'product-thumbnail-medium'),
      isGiftCard: product.isGiftCard,
      url: product.path,
      unitPrice: moneyString(product.priceCents ?? 0),
      maxQuantity: limitOf(product),
      vatPercent: percentOfBasisPoints(line?.vatBasisPoints ?? 0),
    };
  });
  const breakdown: VatLine[] = priced.vat.map((share) => ({
    percent: percentOfBasisPoints(share.basisPoints),
    gross: moneyString(share.grossCents),
    vat: moneyString(share.vatCents),
    net: moneyString(share.netCents),
  }));
  const main = priced.vat
    .filter((share) => share.basisPoints > 0)
    .reduce<(typeof priced.vat)[number] | null>(
      (best, share) => (best && best.grossCents >= share.grossCents ? best : share),
      null,
    );
  return {
    ...emptyCart(),
    vatTotal: moneyString(priced.vatTotalCents),
    vatPercent: main ? percentOfBasisPoints(main.basisPoints) : null,
    vatBreakdown: breakdown,
    orderDiscount: moneyString(priced.orderDiscountCents),
    total: moneyString(priced.totalCents),
    subTotal: moneyString(priced.subTotalCents),
    shippingTotal: moneyString(priced.shippingCents),
    shippingTotalWithoutDiscounts: moneyString(priced.shippingCents),
    warnings,
    lineItemCount: items.length,
    lineItems: items,
    couponCodes: valid.map((coupon) => coupon.code),
    usedGiftCardAmount: moneyString(giftCardShare(cards, priced.totalCents)),
    giftCards: cards.map((card) => ({
      id: card.id,
      balance: moneyString(card.balanceCents),
      amount: moneyString(card.amountCents),
    })),
    hasGiftCardsOnly: items.length > 0 && items.every((item) => item.isGiftCard),
    isEditable: !(await holdsDeliveryTime(db, cartId)),
  };
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
