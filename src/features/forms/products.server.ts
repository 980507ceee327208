import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { products, schoolMaterials } from '../../db/schema.ts';
import type { ProductListItem } from './schemas.ts';

/** Every product of a site in one language, for the forms' product select. */
export async function allProducts(
  db: Database,
  siteId: string,
  lang: string,
): Promise<ProductListItem[]> {
  const rows = await db
    .select({ productId: products.id, title: products.name })
    .from(products)
    .where(and(eq(products.siteId, siteId), eq(products.lang, lang)))
    .orderBy(asc(products.name), asc(products.id));
  return rows;
}

/** The school materials a site offers, for the order form's checkboxes. */
export async function schoolMaterialList(db: Database, siteId: string, lang: string) {
  return db
    .select({ material: schoolMaterials.material, url: schoolMaterials.url })
    .from(schoolMaterials)
    .where(and(eq(schoolMaterials.siteId, siteId), eq(schoolMaterials.lang, lang)))
    .orderBy(asc(schoolMaterials.sortOrder), asc(schoolMaterials.id));
}
