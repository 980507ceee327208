import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import type { Lang } from '../../sites/types.ts';
import { products } from '../content/index.server.ts';
import type { CartKey } from './cart-rows.server.ts';
import { MAX_QUANTITY } from './schemas.ts';
import { cartLineItems } from './tables.ts';

/**
 * The catalogue as a cart reads it: the products for sale by code, what a line may hold, and a
 * cart's lines with their products.
 */

export type ProductRow = Pick<
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

/** The most one line may hold: the stock when it is lower than the quantity limit. */
export function limitOf(product: Pick<ProductRow, 'stock'>): number {
  return product.stock === null ? MAX_QUANTITY : Math.min(MAX_QUANTITY, product.stock);
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
