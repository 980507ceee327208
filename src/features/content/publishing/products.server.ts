import { and, eq, ne } from 'drizzle-orm';
import type { Database, Transaction } from '../../../db/client.ts';
import { keptBySanitiser } from '../../../render/rich-text.server.tsx';
import type { FieldErrors } from '../../../server/errors.ts';
import { SHOP_SITE_ID } from '../../../sites/shop-id.ts';
import type { ProductRow as ProductDto } from '../content.server.ts';
import { products } from '../tables.ts';
import { NEW_PRODUCT_TYPES, type ProductDocument, productDocumentSchema } from './kind-schemas.ts';
import { documentColumnsOf, liveOf, writeContentRow } from './live-rows.server.ts';
import { pathErrors } from './recipes.server.ts';
import { imageErrors, tagErrors } from './references.server.ts';
import type { KindAdapter, PreviewVersion } from './versions.server.ts';

type Db = Database | Transaction;
type ProductRow = typeof products.$inferSelect;

/**
 * A live product row as a version's document: the columns brand and shop staff write. Prices,
 * stock, the VAT class and the gift-card flag are the shop's operations' and never in it.
 */
export function productDocumentOf(row: ProductRow): ProductDocument {
  return documentColumnsOf(row, productDocumentSchema);
}

/** The page types a new product of a site's language version may have. */
export async function newProductTypes(db: Db, scope: { siteId: string; lang: string }) {
  if (scope.siteId === SHOP_SITE_ID) return [];
  const rows = await db
    .selectDistinct({ kind: products.kind })
    .from(products)
    .where(and(eq(products.siteId, scope.siteId), eq(products.lang, scope.lang)));
  const have = rows.map((r) => r.kind).filter((k) => NEW_PRODUCT_TYPES.includes(k));
  return have.length > 0 ? have.sort() : [NEW_PRODUCT_TYPES[0] as string];
}

/** Field errors of the codes: a shop product keeps its code; a shop code must be the shop's. */
async function checkCodes(
  db: Db,
  item: { siteId: string; lang: string; itemId: number },
  doc: ProductDocument,
  live: { code: string } | undefined,
): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  // The shop's carts, orders and stock know a shop product by its code.
  if (item.siteId === SHOP_SITE_ID && live && doc.code !== live.code) {
    errors.code = 'admin.product.codeLocked';
  }
  const [twin] = await db
    .select({ id: products.id })
    .from(products)
    .where(
      and(
        eq(products.siteId, item.siteId),
        eq(products.lang, item.lang),
        eq(products.code, doc.code),
        ne(products.id, item.itemId),
      ),
    )
    .limit(1);
  if (twin) errors.code ??= 'admin.product.codeTaken';
  if (doc.shopCode !== null) {
    const [sold] =
      item.siteId === SHOP_SITE_ID
        ? []
        : await db
            .select({ id: products.id })
            .from(products)
            .where(and(eq(products.siteId, SHOP_SITE_ID), eq(products.code, doc.shopCode)))
            .limit(1);
    if (!sold) errors.shopCode = 'admin.product.shopCodeMissing';
  }
  return errors;
}

/**
 * Products in the versions (decision 171): the live row is the `products` row of the same id;
 * publishing writes the document's columns and nothing else, so a price or stock the shop's
 * operations set between a draft and its publishing stays.
 */
export const productAdapter: KindAdapter<ProductDocument> = {
  kind: 'product',
  table: 'products',
  schema: productDocumentSchema,
  live: liveOf(products, productDocumentOf),
  async check(db, item, doc) {
    const errors = await pathErrors(db, item, doc.path, 'products');
    const [live] = await db
      .select({ kind: products.kind, code: products.code })
      .from(products)
      .where(eq(products.id, item.itemId));
    // The page type decides which route and template render it: a product keeps its type.
    const allowed = live ? [live.kind] : await newProductTypes(db, item);
    if (!allowed.includes(doc.kind)) errors.kind = 'admin.product.typeLocked';
    for (const [field, key] of Object.entries(await checkCodes(db, item, doc, live))) {
      errors[field] ??= key;
    }
    if (!keptBySanitiser(doc.descriptionHtml)) errors.descriptionHtml = 'admin.product.htmlRefused';
    const pictures = doc.imageIds.map((id, i) => [`imageIds.${i}`, id] as const);
    return {
      ...(await tagErrors(db, item, 'products', doc)),
      ...(await imageErrors(db, pictures)),
      ...errors,
    };
  },
  // Only the document's columns: prices, stock, VAT class and gift-card flag stay as the
  // shop's operations left them, whenever they changed them.
  writeLive: (tx, item, doc, exists, at) => writeContentRow(tx, products, item, doc, exists, at),
};

/**
 * A product's version as the product route renders it, for a preview link: the document over the
 * live row's shop columns (a product not yet published has none: no price shows).
 */
export async function productPreview(
  db: Db,
  claims: { i: number; s: string; l: string },
  found: PreviewVersion<ProductDocument>,
): Promise<ProductDto> {
  const [row] = await db.select().from(products).where(eq(products.id, claims.i));
  const now = new Date();
  return {
    id: claims.i,
    siteId: claims.s,
    lang: claims.l,
    priceCents: row?.priceCents ?? null,
    pricePerKgCents: row?.pricePerKgCents ?? null,
    svhPriceCents: row?.svhPriceCents ?? null,
    discountPercentage: row?.discountPercentage ?? null,
    stock: row?.stock ?? null,
    isGiftCard: row?.isGiftCard ?? false,
    taxClass: row?.taxClass ?? 'food',
    likeCount: row?.likeCount ?? 0,
    translationKey: found.live?.translationKey ?? `product-preview-${claims.i}`,
    publishedAt: found.live?.publishedAt ?? now,
    updatedAt: now,
    ...found.document,
  };
}
