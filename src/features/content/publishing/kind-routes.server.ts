import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { jsonAnswer } from '../../../server/openapi.ts';
import type { ZodApp } from '../../../server/types.ts';
import { schoolMaterials } from '../../forms/index.server.ts';
import { adminRoute } from '../../staff/index.server.ts';
import { jobs, mapRegions, products, timelineYears } from '../tables.ts';
import { type ListSpec, listKind, listSpecOf } from './item-list.server.ts';
import { contentCreateRoute, contentItemRoutes, READ, scoped } from './item-routes.server.ts';
import {
  JOBS_ADMIN_API,
  jobCreateSchema,
  jobOpenSchema,
  jobSaveSchema,
  jobVersionSchema,
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
import { facetCategoriesOf, listingPathOf } from './references.server.ts';
import { scopeQuerySchema } from './schemas.ts';
import type { KindAdapter } from './versions.server.ts';
import {
  jobAdapter,
  mapRegionAdapter,
  schoolMaterialAdapter,
  timelineYearAdapter,
} from './widget-rows.server.ts';

/** What a product of a site and language may choose: its page types, categories and tags. */
async function productOptions(request: FastifyRequest, scope: { site: string; lang: string }) {
  const db = request.server.db;
  const where = { siteId: scope.site, lang: scope.lang };
  const [kinds, categories, listPath] = await Promise.all([
    newProductTypes(db, where),
    facetCategoriesOf(db, where, 'products'),
    listingPathOf(db, where, 'product-list'),
  ]);
  return { kinds, listPath, categories };
}

/** What one kind's routes need: its address, adapter, list and request and answer schemas. */
interface KindRoutes<Doc extends object> {
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
}

/** One kind's list, creation and item routes, to register on an app. */
function kindRoutesOf<Doc extends object>(options: KindRoutes<Doc>) {
  return (app: ZodApp) => kindRoutes(app, options);
}

function kindRoutes<Doc extends object>(app: ZodApp, options: KindRoutes<Doc>) {
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
  contentCreateRoute(app, {
    api,
    adapter,
    noun,
    createSchema: options.createSchema,
    answer: jsonAnswer(options.openSchema, `The ${noun} opened for editing`),
  });
}

const productRoutes = kindRoutesOf({
  api: PRODUCTS_ADMIN_API,
  adapter: productAdapter,
  noun: 'product',
  nouns: 'Products',
  list: listSpecOf('product', products, 'name', 'path'),
  openSchema: productOpenSchema,
  versionSchema: productVersionSchema,
  saveSchema: productSaveSchema,
  createSchema: productCreateSchema,
  preview: true,
  saveNote:
    'Prices, stock, the VAT class and the gift-card flag are the shop’s operations’ and not in the document: publishing leaves them as they are. The description must be HTML the site’s sanitiser keeps whole.',
});

const jobRoutes = kindRoutesOf({
  api: JOBS_ADMIN_API,
  adapter: jobAdapter,
  noun: 'job listing',
  nouns: 'Job listings',
  list: listSpecOf('job', jobs, 'title', 'city'),
  openSchema: jobOpenSchema,
  versionSchema: jobVersionSchema,
  saveSchema: jobSaveSchema,
  createSchema: jobCreateSchema,
  preview: false,
  saveNote: 'Published, it shows in the jobs widget of the site’s language until it ends.',
});

const schoolMaterialRoutes = kindRoutesOf({
  api: SCHOOL_MATERIALS_ADMIN_API,
  adapter: schoolMaterialAdapter,
  noun: 'school material',
  nouns: 'School materials',
  list: listSpecOf('school-material', schoolMaterials, 'material', 'topic'),
  openSchema: schoolMaterialOpenSchema,
  versionSchema: schoolMaterialVersionSchema,
  saveSchema: schoolMaterialSaveSchema,
  createSchema: schoolMaterialCreateSchema,
  preview: false,
  saveNote: 'Published, it shows in the school materials list and the order form of the site.',
});

const timelineRoutes = kindRoutesOf({
  api: TIMELINE_ADMIN_API,
  adapter: timelineYearAdapter,
  noun: 'timeline year',
  nouns: 'Timeline years',
  list: listSpecOf('timeline-year', timelineYears, 'title', 'year'),
  openSchema: timelineYearOpenSchema,
  versionSchema: timelineYearVersionSchema,
  saveSchema: timelineYearSaveSchema,
  createSchema: timelineYearCreateSchema,
  preview: false,
  saveNote:
    'Published, it shows in the history timeline of the site’s language (one entry a year).',
});

const mapRegionRoutes = kindRoutesOf({
  api: MAP_REGIONS_ADMIN_API,
  adapter: mapRegionAdapter,
  noun: 'map button',
  nouns: 'Map buttons',
  list: listSpecOf('map-region', mapRegions, 'buttonLabel', 'buttonRegion'),
  openSchema: mapRegionOpenSchema,
  versionSchema: mapRegionVersionSchema,
  saveSchema: mapRegionSaveSchema,
  createSchema: mapRegionCreateSchema,
  preview: false,
  saveNote: 'Published, it shows on the map of plants at its number.',
});

/**
 * The back office's products, job listings, school materials, timeline years and map buttons
 * (decision 171): each kind's
 * list, a new item, and the item routes every kind shares (decision 162). Every route needs
 * `content.edit` for the item's site and language; publishing needs `content.publish` there.
 */
export function kindAdminRoutes(app: ZodApp) {
  productRoutes(app);
  adminRoute(app, 'GET', `${PRODUCTS_ADMIN_API}/options`, {
    ...scoped,
    rateLimit: READ,
    summary: 'The page types, categories and tags a product of a site and language may have',
    querystring: scopeQuerySchema,
    answer: jsonAnswer(productOptionsSchema, 'Page types and categories with their tags'),
    problems: [400, 401, 403, 429],
    handler: (request) => productOptions(request, request.query),
  });
  jobRoutes(app);
  schoolMaterialRoutes(app);
  timelineRoutes(app);
  mapRegionRoutes(app);
}
