import { and, eq, ne } from 'drizzle-orm';
import type { FieldErrors } from '../../../server/errors.ts';
import { schoolMaterials } from '../../forms/index.server.ts';
import { jobs } from '../tables.ts';
import {
  type JobDocument,
  jobDocumentSchema,
  type SchoolMaterialDocument,
  schoolMaterialDocumentSchema,
} from './kind-schemas.ts';
import type { KindAdapter, LiveRow } from './versions.server.ts';

/**
 * Rows that show only inside other pages' widgets, in the versions like any item (decision 171):
 * a job listing (the jobs widget) and a school material (the materials list and the order form).
 * They have no path and no preview of their own; publishing writes the row, which moves the page
 * cache's content version like any content write, so the pages showing them change at once.
 */

type JobRow = typeof jobs.$inferSelect;
type MaterialRow = typeof schoolMaterials.$inferSelect;

export function jobDocumentOf(row: JobRow): JobDocument {
  return {
    title: row.title,
    city: row.city,
    url: row.url,
    applicationPeriodEnd: row.applicationPeriodEnd.toISOString(),
  };
}

export function schoolMaterialDocumentOf(row: MaterialRow): SchoolMaterialDocument {
  return {
    material: row.material,
    url: row.url,
    description: row.description,
    topic: row.topic,
    sortOrder: row.sortOrder,
  };
}

/** A row without a page as the versions see it: its site, language and time. */
function liveOf<Doc>(
  kind: string,
  row: { id: number; siteId: string; lang: string; updatedAt: Date },
  document: Doc,
): LiveRow<Doc> {
  return {
    siteId: row.siteId,
    lang: row.lang,
    // The rows have no translations of their own: each is its own item.
    translationKey: `${kind}-${row.id}`,
    path: null,
    publishedAt: row.updatedAt,
    updatedAt: row.updatedAt,
    document,
  };
}

/** Job listings: the live row is the `jobs` row of the same id. */
export const jobAdapter: KindAdapter<JobDocument> = {
  kind: 'job',
  table: 'jobs',
  schema: jobDocumentSchema,
  async live(db, id) {
    const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
    return row ? liveOf('job', row, jobDocumentOf(row)) : undefined;
  },
  // A listing refers to nothing of the site's: its link leaves the site or is a path of it.
  async check() {
    return {};
  },
  async writeLive(tx, item, doc, exists) {
    const values = {
      title: doc.title,
      city: doc.city,
      url: doc.url,
      applicationPeriodEnd: new Date(doc.applicationPeriodEnd),
      updatedAt: new Date(),
    };
    if (exists) {
      await tx.update(jobs).set(values).where(eq(jobs.id, item.itemId));
      return;
    }
    await tx
      .insert(jobs)
      .values({ id: item.itemId, siteId: item.siteId, lang: item.lang, ...values });
  },
};

/** School materials: the live row is the `school_materials` row of the same id. */
export const schoolMaterialAdapter: KindAdapter<SchoolMaterialDocument> = {
  kind: 'school-material',
  table: 'school_materials',
  schema: schoolMaterialDocumentSchema,
  async live(db, id) {
    const [row] = await db.select().from(schoolMaterials).where(eq(schoolMaterials.id, id));
    return row ? liveOf('school-material', row, schoolMaterialDocumentOf(row)) : undefined;
  },
  // The order form lists the materials by name: two of one name would be one checkbox twice.
  async check(db, item, doc) {
    const [twin] = await db
      .select({ id: schoolMaterials.id })
      .from(schoolMaterials)
      .where(
        and(
          eq(schoolMaterials.siteId, item.siteId),
          eq(schoolMaterials.lang, item.lang),
          eq(schoolMaterials.material, doc.material),
          ne(schoolMaterials.id, item.itemId),
        ),
      )
      .limit(1);
    const errors: FieldErrors = {};
    if (twin) errors.material = 'admin.material.taken';
    return errors;
  },
  async writeLive(tx, item, doc, exists) {
    const now = new Date();
    if (exists) {
      await tx
        .update(schoolMaterials)
        .set({ ...doc, updatedAt: now })
        .where(eq(schoolMaterials.id, item.itemId));
      return;
    }
    await tx
      .insert(schoolMaterials)
      .values({ id: item.itemId, siteId: item.siteId, lang: item.lang, ...doc, updatedAt: now });
  },
};
