import { z } from 'zod';
import {
  contentPathSchema,
  langSchema,
  liveStateSchema,
  openSchemaOf,
  siteIdSchema,
  versionMetaSchema,
} from './schemas.ts';

/**
 * Products, job listings and school materials in the back office (decision 171), beside recipes
 * and pages (decisions 162, 166). Browser-safe: the /admin screens build their forms from these,
 * the routes check requests with them, and publishing parses a version with them again before it
 * writes the live row. Error messages are keys of the admin catalogue.
 */
export const PRODUCTS_ADMIN_API = '/api/admin/content/products';
export const JOBS_ADMIN_API = '/api/admin/content/jobs';
export const SCHOOL_MATERIALS_ADMIN_API = '/api/admin/content/school-materials';
export const TIMELINE_ADMIN_API = '/api/admin/content/timeline';
export const MAP_REGIONS_ADMIN_API = '/api/admin/content/map-regions';

const INVALID = 'admin.error.invalid';
const REQUIRED = 'admin.error.required';
const TOO_LONG = 'admin.error.tooLong';

const line = (max: number) => z.string({ error: INVALID }).trim().max(max, TOO_LONG);
const required = (max: number) => line(max).min(1, REQUIRED);
const id = z.number({ error: INVALID }).int(INVALID).min(1, INVALID).max(2_147_483_647, INVALID);
const versionNumber = z
  .number({ error: INVALID })
  .int(INVALID)
  .min(1, INVALID)
  .max(1_000_000, INVALID);
/** A grams or energy figure of a nutrition table. */
const figure = z.number({ error: INVALID }).min(0, INVALID).max(100_000, INVALID).optional();

/**
 * A link a job listing or a school material points at: an address of the web (`https://`) or a
 * path of the same site.
 */
export const linkSchema = z
  .string({ error: INVALID })
  .trim()
  .max(500, TOO_LONG)
  .regex(/^(https:\/\/[^\s/]+[^\s]*|\/[^\s]*)$/, 'admin.kinds.linkInvalid');

// ---------------------------------------------------------------------------------------------
// Products
// ---------------------------------------------------------------------------------------------

/** The product page types a new product may have; a shop product is made by the shop's staff. */
export const NEW_PRODUCT_TYPES = ['retail-product', 'broiler-product', 'foodservice-product'];

export const nutritionSchema = z
  .object({
    per: required(40),
    energyKj: figure,
    energyKcal: figure,
    fat: figure,
    saturatedFat: figure,
    carbohydrate: figure,
    sugars: figure,
    protein: figure,
    salt: figure,
  })
  .strict();
export type NutritionDocument = z.infer<typeof nutritionSchema>;

/**
 * A product as brand and shop staff write it: every column of the product page that is not the
 * shop's operations'. Price, price per kilo, the shop's member price, discount, stock, the VAT
 * class and the gift-card flag are not in it, so publishing never writes them (the shop's
 * catalogue screen owns them). `descriptionHtml` must be what the site's rich-text sanitiser
 * keeps (checked on the server, where the sanitiser runs).
 */
export const productDocumentSchema = z
  .object({
    path: contentPathSchema,
    /** The page type (what the product route renders); only a new product chooses it. */
    kind: z.string({ error: INVALID }).regex(/^[a-z0-9-]{1,40}$/, INVALID),
    /** The product's own code (the shop's key for a shop product, which keeps it). */
    code: required(40).regex(/^[A-Za-z0-9._-]+$/, INVALID),
    gtin: z
      .string({ error: INVALID })
      .trim()
      .regex(/^(\d{8}|\d{12,14})$/, 'admin.product.gtinInvalid')
      .nullable(),
    valoCode: line(40).min(1, REQUIRED).nullable(),
    /** On a brand site: the code of the shop's product that is this one (decision 021). */
    shopCode: line(40).min(1, REQUIRED).nullable(),
    name: required(200),
    teaser: line(1000),
    descriptionHtml: z.string({ error: INVALID }).max(20_000, TOO_LONG),
    ingredients: line(4000),
    imageIds: z.array(id).max(20, INVALID),
    categoryIds: z.array(id).max(10, INVALID),
    facetTagIds: z.array(id).max(50, INVALID),
    productGroup: line(100).min(1, REQUIRED).nullable(),
    isNovelty: z.boolean({ error: INVALID }),
    nutrition: nutritionSchema.nullable(),
    weightGrams: z
      .number({ error: INVALID })
      .int(INVALID)
      .min(1, INVALID)
      .max(1_000_000, INVALID)
      .nullable(),
  })
  .strict();
export type ProductDocument = z.infer<typeof productDocumentSchema>;

export const productVersionSchema = versionMetaSchema.extend({ document: productDocumentSchema });
export type ProductVersion = z.infer<typeof productVersionSchema>;
export const productOpenSchema = openSchemaOf(productVersionSchema);
export type ProductOpen = z.infer<typeof productOpenSchema>;
export const productSaveSchema = z
  .object({ basedOn: versionNumber, document: productDocumentSchema })
  .strict();
export const productCreateSchema = z.object({ document: productDocumentSchema }).strict();

export const productOptionsSchema = z.object({
  /** The page types a new product of the site may have. */
  kinds: z.array(z.string()),
  /** Where the site's products are listed, for a new product's path. */
  listPath: z.string().nullable(),
  categories: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      tags: z.array(z.object({ id: z.number().int(), name: z.string() })),
    }),
  ),
});
export type ProductOptions = z.infer<typeof productOptionsSchema>;

// ---------------------------------------------------------------------------------------------
// Job listings and school materials: rows shown inside other pages' widgets (no path)
// ---------------------------------------------------------------------------------------------

/** A job listing as the jobs widget shows it (spec shop-and-widgets §3 Job). */
export const jobDocumentSchema = z
  .object({
    title: required(200),
    city: required(100),
    url: linkSchema,
    /** When applying ends (ISO date-time); the widget lists the listing until then. */
    applicationPeriodEnd: z.iso.datetime({ offset: true, error: 'admin.job.endInvalid' }),
  })
  .strict();
export type JobDocument = z.infer<typeof jobDocumentSchema>;

/** A school material as its page's list and the order form show it. */
export const schoolMaterialDocumentSchema = z
  .object({
    material: required(200),
    url: linkSchema,
    description: line(2000),
    /** Grade band or subject, for grouping on the order page. */
    topic: line(100),
    sortOrder: z
      .number({ error: INVALID })
      .int(INVALID)
      .min(-100_000, INVALID)
      .max(100_000, INVALID),
  })
  .strict();
export type SchoolMaterialDocument = z.infer<typeof schoolMaterialDocumentSchema>;

export const jobVersionSchema = versionMetaSchema.extend({ document: jobDocumentSchema });
export const jobOpenSchema = openSchemaOf(jobVersionSchema);
export type JobOpen = z.infer<typeof jobOpenSchema>;
export const jobSaveSchema = z
  .object({ basedOn: versionNumber, document: jobDocumentSchema })
  .strict();
export const jobCreateSchema = z.object({ document: jobDocumentSchema }).strict();

export const schoolMaterialVersionSchema = versionMetaSchema.extend({
  document: schoolMaterialDocumentSchema,
});
export const schoolMaterialOpenSchema = openSchemaOf(schoolMaterialVersionSchema);
export type SchoolMaterialOpen = z.infer<typeof schoolMaterialOpenSchema>;
export const schoolMaterialSaveSchema = z
  .object({ basedOn: versionNumber, document: schoolMaterialDocumentSchema })
  .strict();
export const schoolMaterialCreateSchema = z
  .object({ document: schoolMaterialDocumentSchema })
  .strict();

/** A year of the history timeline (the timeline widget shows a window of years). */
export const timelineYearDocumentSchema = z
  .object({
    year: z.number({ error: INVALID }).int(INVALID).min(1800, INVALID).max(2200, INVALID),
    title: required(200),
    text: required(4000),
    imageId: id.nullable(),
  })
  .strict();
export type TimelineYearDocument = z.infer<typeof timelineYearDocumentSchema>;

/** A numbered button of the map of plants (spec shop-and-widgets §3 Map button). */
export const mapRegionDocumentSchema = z
  .object({
    number: z.number({ error: INVALID }).int(INVALID).min(1, INVALID).max(99, INVALID),
    buttonLabel: required(100),
    buttonRegion: required(100),
    buttonInfo: line(2000),
  })
  .strict();
export type MapRegionDocument = z.infer<typeof mapRegionDocumentSchema>;

export const timelineYearVersionSchema = versionMetaSchema.extend({
  document: timelineYearDocumentSchema,
});
export const timelineYearOpenSchema = openSchemaOf(timelineYearVersionSchema);
export const timelineYearSaveSchema = z
  .object({ basedOn: versionNumber, document: timelineYearDocumentSchema })
  .strict();
export const timelineYearCreateSchema = z.object({ document: timelineYearDocumentSchema }).strict();

export const mapRegionVersionSchema = versionMetaSchema.extend({
  document: mapRegionDocumentSchema,
});
export const mapRegionOpenSchema = openSchemaOf(mapRegionVersionSchema);
export const mapRegionSaveSchema = z
  .object({ basedOn: versionNumber, document: mapRegionDocumentSchema })
  .strict();
export const mapRegionCreateSchema = z.object({ document: mapRegionDocumentSchema }).strict();

// ---------------------------------------------------------------------------------------------
// The lists
// ---------------------------------------------------------------------------------------------

export const kindListQuerySchema = z
  .object({
    site: siteIdSchema.optional(),
    lang: langSchema.optional(),
    q: z.string().trim().max(100, TOO_LONG).optional(),
    offset: z.coerce.number().int().min(0).max(100_000).default(0),
  })
  .strict();

export const kindRowSchema = z.object({
  id: z.number().int(),
  siteId: z.string(),
  lang: z.string(),
  /** The name, title or material. */
  title: z.string(),
  /**
   * The product's path; for a job listing its city, for a school material its topic, for a
   * timeline year its year, for a map button its region.
   */
  detail: z.string(),
  state: liveStateSchema,
  updatedAt: z.string(),
  /** The newest version (what a bulk action names as the one the staff member saw). */
  version: z.number().int(),
});
export type KindListRow = z.infer<typeof kindRowSchema>;

export const kindListSchema = z.object({
  rows: z.array(kindRowSchema),
  total: z.number().int(),
  /** The sites and languages the staff member may edit, for a new item's choice. */
  scopes: z.array(z.object({ siteId: z.string(), lang: z.string() })),
});
export type KindList = z.infer<typeof kindListSchema>;
