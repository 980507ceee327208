import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { products } from '../content/index.server.ts';
import type { ProductListItem } from './schemas.ts';

/** Every product of a site in one language, by name: the forms' product select lists them. */
export async function allProducts(
  db: Database,
  siteId: string,
  lang: string,
): Promise<ProductListItem[]> {
  return db
    .select({ productId: products.id, title: products.name })
    .from(products)
    .where(and(eq(products.siteId, siteId), eq(products.lang, lang)))
    .orderBy(asc(products.name), asc(products.id));
}

/**
 * The product groups of a site's products in one language, in the language's alphabetical
 * order: the choices of a product search's product-group toggle (`productGroup`).
 */
export async function productGroups(db: Database, siteId: string, lang: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ group: products.productGroup })
    .from(products)
    .where(
      and(eq(products.siteId, siteId), eq(products.lang, lang), isNotNull(products.productGroup)),
    );
  const collator = new Intl.Collator(lang);
  return rows
    .map((r) => r.group?.trim() ?? '')
    .filter(Boolean)
    .sort(collator.compare);
}
