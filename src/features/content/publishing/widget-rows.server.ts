import { and, eq, ne } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Database, Transaction } from '../../../db/client.ts';
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
import { writeLiveRow } from './live-rows.server.ts';
import { imageErrors } from './references.server.ts';
import type { ItemKind, KindAdapter } from './versions.server.ts';

/**
 * Rows that show only inside other pages' widgets, in the versions like any item (decision 171):
 * a job listing (the jobs widget), a school material (the materials list and the order form), a
 * timeline year (the timeline) and a map button (the map of plants). They have no path and no
 * preview of their own; publishing writes the row, which moves the page cache's content version
 * like any content write, so the pages showing them change at once.
 */

type Db = Database | Transaction;
type SiteRow = { id: number; siteId: string; lang: string; updatedAt: Date };
type SiteTable = PgTable & { id: PgColumn; siteId: PgColumn; lang: PgColumn };

/** What one kind of widget row brings: its table, schema, document and what must be its own. */
interface RowKind<Doc extends object, Row extends SiteRow> {
  kind: ItemKind;
  table: SiteTable;
  tableName: string;
  schema: z.ZodType<Doc>;
  documentOf: (row: Row) => Doc;
  /** The row's columns of a document (the document itself unless a column differs). */
  valuesOf?: (doc: Doc) => Record<string, unknown>;
  /** A field no other row of the site's language version may share, and its error. */
  unique?: { column: PgColumn; field: keyof Doc & string; error: string };
  /** What else the document refers to (field errors). */
  refers?: (db: Db, doc: Doc) => Promise<FieldErrors>;
}

/** The versions' adapter of a kind of widget row: the live row is its table's row of the id. */
function rowAdapter<Doc extends object, Row extends SiteRow>(
  spec: RowKind<Doc, Row>,
): KindAdapter<Doc> {
  const { table } = spec;
  const valuesOf = spec.valuesOf ?? ((doc: Doc) => doc as Record<string, unknown>);
  return {
    kind: spec.kind,
    table: spec.tableName,
    schema: spec.schema,
    async live(db, id) {
      const [row] = (await db.select().from(table).where(eq(table.id, id))) as Row[];
      if (!row) return undefined;
      return {
        siteId: row.siteId,
        lang: row.lang,
        // The rows have no translations of their own: each is its own item.
        translationKey: `${spec.kind}-${row.id}`,
        path: null,
        publishedAt: row.updatedAt,
        updatedAt: row.updatedAt,
        document: spec.documentOf(row),
      };
    },
    async check(db, item, doc) {
      const errors: FieldErrors = spec.refers ? await spec.refers(db, doc) : {};
      const { unique } = spec;
      if (unique) {
        const [twin] = await db
          .select({ id: table.id })
          .from(table)
          .where(
            and(
              eq(table.siteId, item.siteId),
              eq(table.lang, item.lang),
              eq(unique.column, doc[unique.field]),
              ne(table.id, item.itemId),
            ),
          )
          .limit(1);
        if (twin) errors[unique.field] = unique.error;
      }
      return errors;
    },
    writeLive(tx, item, doc, exists, at) {
      const { itemId: id, siteId, lang } = item;
      return writeLiveRow(
        tx,
        table,
        exists,
        { id, siteId, lang },
        { ...valuesOf(doc), updatedAt: at },
      );
    },
  };
}

/** Job listings; a listing refers to nothing of the site's (its link leaves it or is a path). */
export const jobAdapter = rowAdapter<JobDocument, typeof jobs.$inferSelect>({
  kind: 'job',
  table: jobs,
  tableName: 'jobs',
  schema: jobDocumentSchema,
  documentOf: (row) => ({
    title: row.title,
    city: row.city,
    url: row.url,
    applicationPeriodEnd: row.applicationPeriodEnd.toISOString(),
  }),
  valuesOf: (doc) => ({ ...doc, applicationPeriodEnd: new Date(doc.applicationPeriodEnd) }),
});

/** School materials: the order form lists them by name, so a name is one material's. */
export const schoolMaterialAdapter = rowAdapter<
  SchoolMaterialDocument,
  typeof schoolMaterials.$inferSelect
>({
  kind: 'school-material',
  table: schoolMaterials,
  tableName: 'school_materials',
  schema: schoolMaterialDocumentSchema,
  documentOf: ({ material, url, description, topic, sortOrder }) => ({
    material,
    url,
    description,
    topic,
    sortOrder,
  }),
  unique: { column: schoolMaterials.material, field: 'material', error: 'admin.material.taken' },
});

/** Timeline years: one entry a year, its picture from the library. */
export const timelineYearAdapter = rowAdapter<
  TimelineYearDocument,
  typeof timelineYears.$inferSelect
>({
  kind: 'timeline-year',
  table: timelineYears,
  tableName: 'timeline_years',
  schema: timelineYearDocumentSchema,
  documentOf: ({ year, title, text, imageId }) => ({ year, title, text, imageId }),
  unique: { column: timelineYears.year, field: 'year', error: 'admin.timeline.taken' },
  refers: (db, doc) => imageErrors(db, doc.imageId === null ? [] : [['imageId', doc.imageId]]),
});

/** Map buttons: the map draws each at its number, so a number is one button's. */
export const mapRegionAdapter = rowAdapter<MapRegionDocument, typeof mapRegions.$inferSelect>({
  kind: 'map-region',
  table: mapRegions,
  tableName: 'map_regions',
  schema: mapRegionDocumentSchema,
  documentOf: ({ number, buttonLabel, buttonRegion, buttonInfo }) => ({
    number,
    buttonLabel,
    buttonRegion,
    buttonInfo,
  }),
  unique: { column: mapRegions.number, field: 'number', error: 'admin.map.taken' },
});
