import { and, asc, count, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { jsonAnswer } from '../../../server/openapi.ts';
import type { ZodApp } from '../../../server/types.ts';
import { schoolMaterials } from '../../forms/index.server.ts';
import { adminRoute, scopeWhere } from '../../staff/index.server.ts';
import {
  contentItems,
  contentVersions,
  facetCategories,
  facetTags,
  jobs,
  mapRegions,
  pages,
  products,
  timelineYears,
} from '../tables.ts';
import { BODY_LIMIT, contentItemRoutes, READ, WRITE } from './item-routes.server.ts';
import {
  JOBS_ADMIN_API,
  jobCreateSchema,
  jobOpenSchema,
  jobSaveSchema,
  jobVersionSchema,
  type KindListRow,
  kindListQuerySchema,
  kindListSchema,
  MAP_REGIONS_ADMIN_API,
  mapRegionCreateSchema,
  mapRegionOpenSchema,
  mapRegionSaveSchema,
  mapRegionVersionSchema,
  PRODUCTS_ADMIN_API,
  productCreateSchema,
  productOpenSchema,
  productOptionsSchema,
  productSaveSchema,
  productVersionSchema,
  SCHOOL_MATERIALS_ADMIN_API,
  schoolMaterialCreateSchema,
  schoolMaterialOpenSchema,
  schoolMaterialSaveSchema,
  schoolMaterialVersionSchema,
  TIMELINE_ADMIN_API,
  timelineYearCreateSchema,
  timelineYearOpenSchema,
  timelineYearSaveSchema,
  timelineYearVersionSchema,
} from './kind-schemas.ts';
import { newProductTypes, productAdapter } from './products.server.ts';
import { editableScopes, scoped } from './routes.server.ts';
import { scopeQuerySchema } from './schemas.ts';
import { createItem, type ItemKind, type KindAdapter, openItem } from './versions.server.ts';
import {
  jobAdapter,
  mapRegionAdapter,
  schoolMaterialAdapter,
  timelineYearAdapter,
} from './widget-rows.server.ts';

const PAGE_SIZE = 50;

/** Where a kind's list reads its live rows and its never-published drafts' documents. */
interface ListSpec {
  kind: ItemKind;
  table: PgTable;
  columns: {
    id: PgColumn;
    siteId: PgColumn;
    lang: PgColumn;
    title: PgColumn;
    detail: PgColumn;
    updatedAt: PgColumn;
  };
  /** The document's fields the list shows for a draft: its title and its detail. */
  fields: { title: string; detail: string };
}

type ListQuery = {
  site?: string | undefined;
  lang?: string | undefined;
  q?: string | undefined;
  offset: number;
};

/**
 * The items of a kind the grants reach: published ones (with whether a newer draft waits) and
 * those not yet published, most recently changed first, 50 at a time, searched by their title.
 */
async function listKind(request: FastifyRequest, spec: ListSpec, query: ListQuery) {
  const db = request.server.db;
  const grants = request.staff?.grants ?? [];
  const c = spec.columns;
  const q = query.q ? `%${query.q.replace(/[%_\\]/g, '\\$&')}%` : undefined;
  const live: SQL[] = [scopeWhere(grants, 'content.edit', { site: c.siteId, lang: c.lang })];
  const drafts: SQL[] = [
    scopeWhere(grants, 'content.edit', { site: contentItems.siteId, lang: contentItems.lang }),
    eq(contentItems.kind, spec.kind),
    isNull(contentItems.publishedVersion),
  ];
  const title = sql<string>`${contentVersions.document}->>${spec.fields.title}`;
  if (query.site) {
    live.push(eq(c.siteId, query.site));
    drafts.push(eq(contentItems.siteId, query.site));
  }
  if (query.lang) {
    live.push(eq(c.lang, query.lang));
    drafts.push(eq(contentItems.lang, query.lang));
  }
  if (q) {
    live.push(sql`${c.title} ilike ${q}`);
    drafts.push(sql`${title} ilike ${q}`);
  }
  const liveRows = db
    .select({
      id: sql<number>`${c.id}`.as('id'),
      siteId: sql<string>`${c.siteId}`.as('site_id'),
      lang: sql<string>`${c.lang}`.as('lang'),
      title: sql<string>`${c.title}`.as('title'),
      detail: sql<string>`${c.detail}::text`.as('detail'),
      state:
        sql<string>`case when ${contentItems.headVersion} > ${contentItems.publishedVersion} then 'changed' else 'published' end`.as(
          'state',
        ),
      updatedAt: sql<Date>`greatest(${c.updatedAt}, ${contentItems.updatedAt})`.as('updated_at'),
    })
    .from(spec.table)
    .leftJoin(contentItems, and(eq(contentItems.kind, spec.kind), eq(contentItems.itemId, c.id)))
    .where(and(...live));
  const draftRows = db
    .select({
      id: sql<number>`${contentItems.itemId}`.as('id'),
      siteId: sql<string>`${contentItems.siteId}`.as('site_id'),
      lang: sql<string>`${contentItems.lang}`.as('lang'),
      title: sql<string>`${title}`.as('title'),
      detail: sql<string>`${contentVersions.document}->>${spec.fields.detail}`.as('detail'),
      state: sql<string>`'draft'`.as('state'),
      updatedAt: sql<Date>`${contentItems.updatedAt}`.as('updated_at'),
    })
    .from(contentItems)
    .innerJoin(
      contentVersions,
      and(
        eq(contentVersions.kind, contentItems.kind),
        eq(contentVersions.itemId, contentItems.itemId),
        eq(contentVersions.version, contentItems.headVersion),
      ),
    )
    .where(and(...drafts));
  const union = liveRows.unionAll(draftRows).as('u');
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(union)
      .orderBy(desc(union.updatedAt), desc(union.id))
      .limit(PAGE_SIZE)
      .offset(query.offset),
    db.select({ n: count() }).from(union),
  ]);
  return {
    rows: rows.map(
      (r): KindListRow => ({
        id: Number(r.id),
        siteId: r.siteId,
        lang: r.lang,
        title: r.title ?? '',
        detail: r.detail ?? '',
        state: r.state as KindListRow['state'],
        updatedAt: new Date(r.updatedAt).toISOString(),
      }),
    ),
    total: Number(total?.n ?? 0),
    scopes: editableScopes(grants),
  };
}

/** What a product of a site and language may choose: its page types, categories and tags. */
async function productOptions(request: FastifyRequest, scope: { site: string; lang: string }) {
  const db = request.server.db;
  const where = { siteId: scope.site, lang: scope.lang };
  const [kinds, rows, [list]] = await Promise.all([
    newProductTypes(db, where),
    db
      .select({
        categoryId: facetCategories.id,
        category: facetCategories.name,
        id: facetTags.id,
        name: facetTags.name,
      })
      .from(facetCategories)
      .innerJoin(facetTags, eq(facetTags.categoryId, facetCategories.id))
      .where(
        and(
          eq(facetCategories.siteId, scope.site),
          eq(facetCategories.lang, scope.lang),
          eq(facetCategories.scope, 'products'),
        ),
      )
      .orderBy(
        asc(facetCategories.sortOrder),
        asc(facetCategories.id),
        asc(facetTags.sortOrder),
        asc(facetTags.id),
      ),
    db
      .select({ path: pages.path })
      .from(pages)
      .where(
        and(
          eq(pages.siteId, scope.site),
          eq(pages.lang, scope.lang),
          eq(pages.type, 'product-list'),
        ),
      )
      .orderBy(sql`length(${pages.path})`, asc(pages.id))
      .limit(1),
  ]);
  const categories = new Map<
    number,
    { id: number; name: string; tags: { id: number; name: string }[] }
  >();
  for (const row of rows) {
    const category = categories.get(row.categoryId) ?? {
      id: row.categoryId,
      name: row.category,
      tags: [],
    };
    category.tags.push({ id: row.id, name: row.name });
    categories.set(row.categoryId, category);
  }
  return { kinds, listPath: list?.path ?? null, categories: [...categories.values()] };
}

/** One kind's list, creation and item routes. */
function kindRoutes<Doc extends object>(
  app: ZodApp,
  options: {
    api: string;
    adapter: KindAdapter<Doc>;
    noun: string;
    nouns: string;
    list: ListSpec;
    openSchema: z.ZodType;
    versionSchema: z.ZodType;
    saveSchema: z.ZodType<{ basedOn: number; document: Doc }>;
    createSchema: z.ZodType<{ document: Doc }>;
    preview: boolean;
    saveNote: string;
  },
) {
  const { api, adapter, noun, nouns } = options;
  contentItemRoutes(app, {
    api,
    adapter,
    noun,
    openSchema: options.openSchema,
    versionSchema: options.versionSchema,
    saveSchema: options.saveSchema,
    saveNote: options.saveNote,
    preview: options.preview,
  });
  adminRoute(app, 'GET', api, {
    staff: { permission: 'content.edit' },
    rateLimit: READ,
    summary: `The ${nouns} of the sites and languages the staff member may edit`,
    description:
      'Published ones (`state` published, or changed when a newer draft waits) and never published drafts, the most recently changed first; 50 from `offset`; `q` searches the title. `scopes` lists where a new one may be made.',
    querystring: kindListQuerySchema,
    answer: jsonAnswer(kindListSchema, nouns),
    problems: [400, 401, 403, 429],
    handler: (request) => listKind(request, options.list, request.query),
  });
  adminRoute(app, 'POST', api, {
    ...scoped,
    rateLimit: WRITE,
    bodyLimit: BODY_LIMIT,
    summary: `Makes a ${noun} of a site and language (\`site\`, \`lang\`) with its first draft (version 1)`,
    description:
      'Nothing shows on the site until it is published. 403 for a site or language outside the grants; 400 with field errors.',
    querystring: scopeQuerySchema,
    body: options.createSchema,
    answer: jsonAnswer(options.openSchema, `The ${noun} opened for editing`),
    problems: [400, 401, 403, 429],
    handler: async (request) => {
      const { site: siteId, lang } = request.query;
      const body = request.body as { document: Doc };
      const id = await createItem(request, adapter, { siteId, lang }, body.document);
      return openItem(request, adapter, id);
    },
  });
}

/**
 * The back office's products, job listings, school materials, timeline years and map buttons
 * (decision 171): each kind's
 * list, a new item, and the item routes every kind shares (decision 162). Every route needs
 * `content.edit` for the item's site and language; publishing needs `content.publish` there.
 */
export function kindAdminRoutes(app: ZodApp) {
  kindRoutes(app, {
    api: PRODUCTS_ADMIN_API,
    adapter: productAdapter,
    noun: 'product',
    nouns: 'Products',
    list: {
      kind: 'product',
      table: products,
      columns: {
        id: products.id,
        siteId: products.siteId,
        lang: products.lang,
        title: products.name,
        detail: products.path,
        updatedAt: products.updatedAt,
      },
      fields: { title: 'name', detail: 'path' },
    },
    openSchema: productOpenSchema,
    versionSchema: productVersionSchema,
    saveSchema: productSaveSchema,
    createSchema: productCreateSchema,
    preview: true,
    saveNote:
      'Prices, stock, the VAT class and the gift-card flag are the shop’s operations’ and not in the document: publishing leaves them as they are. The description must be HTML the site’s sanitiser keeps whole.',
  });
  adminRoute(app, 'GET', `${PRODUCTS_ADMIN_API}/options`, {
    ...scoped,
    rateLimit: READ,
    summary: 'The page types, categories and tags a product of a site and language may have',
    querystring: scopeQuerySchema,
    answer: jsonAnswer(productOptionsSchema, 'Page types and categories with their tags'),
    problems: [400, 401, 403, 429],
    handler: (request) => productOptions(request, request.query),
  });
  kindRoutes(app, {
    api: JOBS_ADMIN_API,
    adapter: jobAdapter,
    noun: 'job listing',
    nouns: 'Job listings',
    list: {
      kind: 'job',
      table: jobs,
      columns: {
        id: jobs.id,
        siteId: jobs.siteId,
        lang: jobs.lang,
        title: jobs.title,
        detail: jobs.city,
        updatedAt: jobs.updatedAt,
      },
      fields: { title: 'title', detail: 'city' },
    },
    openSchema: jobOpenSchema,
    versionSchema: jobVersionSchema,
    saveSchema: jobSaveSchema,
    createSchema: jobCreateSchema,
    preview: false,
    saveNote: 'Published, it shows in the jobs widget of the site’s language until it ends.',
  });
  kindRoutes(app, {
    api: SCHOOL_MATERIALS_ADMIN_API,
    adapter: schoolMaterialAdapter,
    noun: 'school material',
    nouns: 'School materials',
    list: {
      kind: 'school-material',
      table: schoolMaterials,
      columns: {
        id: schoolMaterials.id,
        siteId: schoolMaterials.siteId,
        lang: schoolMaterials.lang,
        title: schoolMaterials.material,
        detail: schoolMaterials.topic,
        updatedAt: schoolMaterials.updatedAt,
      },
      fields: { title: 'material', detail: 'topic' },
    },
    openSchema: schoolMaterialOpenSchema,
    versionSchema: schoolMaterialVersionSchema,
    saveSchema: schoolMaterialSaveSchema,
    createSchema: schoolMaterialCreateSchema,
    preview: false,
    saveNote: 'Published, it shows in the school materials list and the order form of the site.',
  });
  kindRoutes(app, {
    api: TIMELINE_ADMIN_API,
    adapter: timelineYearAdapter,
    noun: 'timeline year',
    nouns: 'Timeline years',
    list: {
      kind: 'timeline-year',
      table: timelineYears,
      columns: {
        id: timelineYears.id,
        siteId: timelineYears.siteId,
        lang: timelineYears.lang,
        title: timelineYears.title,
        detail: timelineYears.year,
        updatedAt: timelineYears.updatedAt,
      },
      fields: { title: 'title', detail: 'year' },
    },
    openSchema: timelineYearOpenSchema,
    versionSchema: timelineYearVersionSchema,
    saveSchema: timelineYearSaveSchema,
    createSchema: timelineYearCreateSchema,
    preview: false,
    saveNote:
      'Published, it shows in the history timeline of the site’s language (one entry a year).',
  });
  kindRoutes(app, {
    api: MAP_REGIONS_ADMIN_API,
    adapter: mapRegionAdapter,
    noun: 'map button',
    nouns: 'Map buttons',
    list: {
      kind: 'map-region',
      table: mapRegions,
      columns: {
        id: mapRegions.id,
        siteId: mapRegions.siteId,
        lang: mapRegions.lang,
        title: mapRegions.buttonLabel,
        detail: mapRegions.buttonRegion,
        updatedAt: mapRegions.updatedAt,
      },
      fields: { title: 'buttonLabel', detail: 'buttonRegion' },
    },
    openSchema: mapRegionOpenSchema,
    versionSchema: mapRegionVersionSchema,
    saveSchema: mapRegionSaveSchema,
    createSchema: mapRegionCreateSchema,
    preview: false,
    saveNote: 'Published, it shows on the map of plants at its number.',
  });
}
