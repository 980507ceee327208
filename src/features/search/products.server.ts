import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { products } from '../../db/schema.ts';
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
