import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { imageUrl } from '../../images/presets.ts';
import { sanitizeRichText } from '../../render/rich-text.server.tsx';
import { NotFound } from '../../server/errors.ts';
import { SHOP_SITE_ID } from '../../sites/shop.ts';
import type { Lang } from '../../sites/types.ts';
import { products } from '../content/index.server.ts';
import { contentIdOf } from '../content/index.ts';
import { vatRatesOn } from './cart-pricing.server.ts';
import { helsinkiDate } from './dates.ts';
import { percentOfBasisPoints } from './pricing.ts';
import { ratingOfCode } from './reviews/reviews.server.ts';
import { moneyString, type ProductCard, type ProductDetail } from './schemas.ts';

/** The shop's products as the product page, the modal and the cards read them (spec §3). */

type ProductRow = typeof products.$inferSelect;

const money = (cents: number | null) => (cents === null ? null : moneyString(cents));

const imagesOf = (row: ProductRow, preset: string) =>
  row.imageIds.map((id) => imageUrl({ id, slug: row.name }, preset));

/** Product card data from a catalogue row (the search grid's and lists' cards). */
export function productCardOf(row: ProductRow): ProductCard {
  return {
    title: row.name,
    url: row.path,
    image: imagesOf(row, 'card-square'),
    price: money(row.priceCents),
    pricePerKg: money(row.pricePerKgCents),
    svhPrice: money(row.svhPriceCents),
    discountPercentage: row.discountPercentage,
    stock: row.stock,
    isGiftCard: row.isGiftCard,
    code: row.code,
    productId: row.id,
    contentId: contentIdOf({ kind: 'product', id: row.id }),
  };
}

/**
 * Cards of the shop's products by id, in the order asked (ids not found are left out): the shop
 * search grid turns its hits into cards with prices this way.
 */
export async function shopProductCards(
  db: Database,
  lang: Lang,
  ids: readonly number[],
): Promise<ProductCard[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(products)
    .where(
      and(
        eq(products.siteId, SHOP_SITE_ID),
        eq(products.lang, lang),
        inArray(products.id, [...ids]),
      ),
    );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [productCardOf(row)] : [];
  });
}

/** The shop's product with a code in a language (the first row if a code repeats). */
export async function shopProductByCode(
  db: Database,
  lang: Lang,
  code: string,
): Promise<ProductRow | undefined> {
  const [row] = await db
    .select()
    .from(products)
    .where(and(eq(products.siteId, SHOP_SITE_ID), eq(products.lang, lang), eq(products.code, code)))
    .orderBy(asc(products.id))
    .limit(1);
  return row;
}

/**
 * `GET /api/products/{code}`: the product detail. The description is sanitised HTML; the rating
 * is over the reviews of the code (every language version's), null and 0 without reviews.
 */
export async function productDetail(
  db: Database,
  lang: Lang,
  code: string,
  now: Date = new Date(),
): Promise<ProductDetail> {
  const row = await shopProductByCode(db, lang, code);
  if (!row) throw new NotFound(`No shop product has the code ${code}.`);
  const [rateOf, rating] = await Promise.all([
    vatRatesOn(db, helsinkiDate(now)),
    ratingOfCode(db, row.code),
  ]);
  const images = imagesOf(row, 'default');
  return {
    name: row.name,
    url: row.path,
    image: images[0] ?? null,
    images,
    description: sanitizeRichText(row.descriptionHtml),
    price: money(row.priceCents),
    pricePerKg: money(row.pricePerKgCents),
    svhPrice: money(row.svhPriceCents),
    discountPercentage: row.discountPercentage,
    stock: row.stock,
    code: row.code,
    productId: row.id,
    category: row.productGroup ?? '',
    isGiftCard: row.isGiftCard,
    vatPercent: percentOfBasisPoints(rateOf(row.taxClass, row.isGiftCard)),
    averageRating: rating.averageRating,
    reviewCount: rating.reviewCount,
  };
}
