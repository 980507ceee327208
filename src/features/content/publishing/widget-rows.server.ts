import { and, eq, ne } from 'drizzle-orm';
import { images } from '../../../images/tables.ts';
import type { FieldErrors } from '../../../server/errors.ts';
import { schoolMaterials } from '../../forms/index.server.ts';
import { jobs, mapRegions, timelineYears } from '../tables.ts';
import {
  type JobDocument,
  jobDocumentSchema,
  type MapRegionDocument,
  mapRegionDocumentSchema,
  type SchoolMaterialDocument,
  schoolMaterialDocumentSchema,
  type TimelineYearDocument,
  timelineYearDocumentSchema,
} from './kind-schemas.ts';
import type { KindAdapter, LiveRow } from './versions.server.ts';

/**
 * Rows that show only inside other pages' widgets, in the versions like any item (decision 171):
 * a job listing (the jobs widget), a school material (the materials list and the order form), a
 * timeline year (the timeline) and a map button (the map of plants).
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

/** Timeline years: the live row is the `timeline_years` row of the same id. */
export const timelineYearAdapter: KindAdapter<TimelineYearDocument> = {
  kind: 'timeline-year',
  table: 'timeline_years',
  schema: timelineYearDocumentSchema,
  async live(db, id) {
    const [row] = await db.select().from(timelineYears).where(eq(timelineYears.id, id));
    if (!row) return undefined;
    const { year, title, text, imageId } = row;
    return liveOf('timeline-year', row, { year, title, text, imageId });
  },
  // The timeline shows one entry a year: a second of the same year would be shown twice.
  async check(db, item, doc) {
    const errors: FieldErrors = {};
    const [twin] = await db
      .select({ id: timelineYears.id })
      .from(timelineYears)
      .where(
        and(
          eq(timelineYears.siteId, item.siteId),
          eq(timelineYears.lang, item.lang),
          eq(timelineYears.year, doc.year),
          ne(timelineYears.id, item.itemId),
        ),
      )
      .limit(1);
    if (twin) errors.year = 'admin.timeline.taken';
    if (doc.imageId !== null) {
      const [image] = await db
        .select({ id: images.id })
        .from(images)
        .where(eq(images.id, doc.imageId));
      if (!image) errors.imageId = 'admin.recipe.imageMissing';
    }
    return errors;
  },
  async writeLive(tx, item, doc, exists) {
    const now = new Date();
    if (exists) {
      await tx
        .update(timelineYears)
        .set({ ...doc, updatedAt: now })
        .where(eq(timelineYears.id, item.itemId));
      return;
    }
    await tx
      .insert(timelineYears)
      .values({ id: item.itemId, siteId: item.siteId, lang: item.lang, ...doc, updatedAt: now });
  },
};

/** Map buttons: the live row is the `map_regions` row of the same id. */
export const mapRegionAdapter: KindAdapter<MapRegionDocument> = {
  kind: 'map-region',
  table: 'map_regions',
  schema: mapRegionDocumentSchema,
  async live(db, id) {
    const [row] = await db.select().from(mapRegions).where(eq(mapRegions.id, id));
    if (!row) return undefined;
    const { number, buttonLabel, buttonRegion, buttonInfo } = row;
    return liveOf('map-region', row, { number, buttonLabel, buttonRegion, buttonInfo });
  },
  // The map draws each button at its number: two of one number would be one place twice.
  async check(db, item, doc) {
    const errors: FieldErrors = {};
    const [twin] = await db
      .select({ id: mapRegions.id })
      .from(mapRegions)
      .where(
        and(
          eq(mapRegions.siteId, item.siteId),
          eq(mapRegions.lang, item.lang),
          eq(mapRegions.number, doc.number),
          ne(mapRegions.id, item.itemId),
        ),
      )
      .limit(1);
    if (twin) errors.number = 'admin.map.taken';
    return errors;
  },
  async writeLive(tx, item, doc, exists) {
    const now = new Date();
    if (exists) {
      await tx
        .update(mapRegions)
        .set({ ...doc, updatedAt: now })
        .where(eq(mapRegions.id, item.itemId));
      return;
    }
    await tx
      .insert(mapRegions)
      .values({ id: item.itemId, siteId: item.siteId, lang: item.lang, ...doc, updatedAt: now });
  },
};
