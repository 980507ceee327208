import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { schoolMaterials } from './tables.ts';

/** The school materials a site offers, for the order form's checkboxes. */
export async function schoolMaterialList(db: Database, siteId: string, lang: string) {
  return db
    .select({ material: schoolMaterials.material, url: schoolMaterials.url })
    .from(schoolMaterials)
    .where(and(eq(schoolMaterials.siteId, siteId), eq(schoolMaterials.lang, lang)))
    .orderBy(asc(schoolMaterials.sortOrder), asc(schoolMaterials.id));
}
