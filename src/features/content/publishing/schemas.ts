import { z } from 'zod';
import { pageBlocks } from '../blocks.ts';

/**
 * Drafts, versions and publishing of content in the back office (decision 162), recipes first.
 * Browser-safe: the /admin app builds its forms and its comparison of versions from these, the
 * routes check requests with them, and the recipe page renders what `recipeDocumentSchema` lets
 * through. Error messages are keys of the admin catalogue.
 */
export const RECIPES_ADMIN_API = '/api/admin/content/recipes';
/** Pages: the list of pages (GET, decision 151) and the editing routes of decision 166. */
export const PAGES_ADMIN_API = '/api/admin/content/pages';
export const CONTENT_IMAGES_API = '/api/admin/content/images';
/** The public address of a preview: `<site origin><language prefix>/_preview/<token>`. */
export const PREVIEW_PATH = '/_preview';
/** How long a preview link opens its draft. */
export const PREVIEW_TTL_MS = 15 * 60 * 1000;
/** Whoever has not sent a heartbeat for this long has left the item. */
export const PRESENCE_TTL_MS = 60 * 1000;
/** How often the screen says it still has the item open. */
export const PRESENCE_HEARTBEAT_MS = 20 * 1000;

const INVALID = 'admin.error.invalid';
const REQUIRED = 'admin.error.required';
const TOO_LONG = 'admin.error.tooLong';

const line = (max: number) => z.string({ error: INVALID }).trim().max(max, TOO_LONG);
const required = (max: number) => line(max).min(1, REQUIRED);
const count = (min: number, max: number) =>
  z.number({ error: INVALID }).int(INVALID).min(min, INVALID).max(max, INVALID);
const amount = z.number({ error: INVALID }).min(0, INVALID).max(1_000_000, INVALID);
const id = z.number({ error: INVALID }).int(INVALID).min(1, INVALID).max(2_147_483_647, INVALID);

export const siteIdSchema = z.string().regex(/^[a-z0-9-]{1,40}$/, INVALID);
export const langSchema = z.enum(['fi', 'sv', 'en'], { error: INVALID });

/**
 * A content path: lower-case words joined by hyphens, in one or more segments under `/`, never
 * the home page (`/`), never under the back office's or the preview's addresses.
 */
export const contentPathSchema = z
  .string({ error: INVALID })
  .trim()
  .max(200, TOO_LONG)
  .regex(/^(\/[a-z0-9åäö]+(?:-[a-z0-9åäö]+)*)+$/, 'admin.recipe.pathInvalid')
  .refine(
    (p) => !/^\/(api|admin|assets|images|_preview)(\/|$)/.test(p),
    'admin.recipe.pathInvalid',
  );

export const recipeIngredientSchema = z
  .object({
    name: required(200),
    amount: amount.nullable(),
    unit: line(20),
    /** A product page of the same site, when the ingredient is one of ours. */
    url: z
      .string()
      .max(300, TOO_LONG)
      .regex(/^\/[^\s]*$/, INVALID)
      .optional(),
    order: count(0, 1000).optional(),
  })
  .strict();

export const recipeStepSchema = z
  .object({
    heading: line(200),
    instructions: required(4000),
    ingredients: z.array(recipeIngredientSchema).max(60, INVALID),
  })
  .strict();

export const nutrientSchema = z
  .object({
    code: required(20),
    name: required(100),
    amount,
    unit: required(20),
  })
  .strict();

/**
 * A recipe as an editor writes it: every column of the recipe page a version carries. The
 * schema is the one the renderer's types follow (`RecipeStep`, `RecipeIngredient`, `Nutrient` in
 * tables.ts), so a version that parses renders.
 */
export const recipeDocumentSchema = z
  .object({
    path: contentPathSchema,
    title: required(200),
    teaser: line(1000),
    imageId: id.nullable(),
    yield: count(1, 10_000),
    portionSize: z.number({ error: INVALID }).positive(INVALID).max(10_000, INVALID).nullable(),
    portionUnit: line(20).nullable(),
    totalYieldKg: z.number({ error: INVALID }).positive(INVALID).max(100_000, INVALID).nullable(),
    totalTimeMinutes: count(1, 10_000),
    steps: z.array(recipeStepSchema).min(1, 'admin.recipe.stepsRequired').max(40, INVALID),
    nutrients: z.array(nutrientSchema).max(30, INVALID),
    facetTagIds: z.array(id).max(50, INVALID),
    categoryIds: z.array(id).max(10, INVALID),
    equipment: z.array(required(100)).max(20, INVALID),
  })
  .strict();
export type RecipeDocument = z.infer<typeof recipeDocumentSchema>;
export type RecipeStepDocument = z.infer<typeof recipeStepSchema>;
export type RecipeIngredientDocument = z.infer<typeof recipeIngredientSchema>;

export const VERSION_STATUSES = ['draft', 'published'] as const;
export type VersionStatus = (typeof VERSION_STATUSES)[number];

const versionNumber = count(1, 1_000_000);

export const itemIdParamsSchema = z
  .object({ id: z.coerce.number().int().min(1).max(2_147_483_647) })
  .strict();
export const versionParamsSchema = z
  .object({
    id: z.coerce.number().int().min(1).max(2_147_483_647),
    version: z.coerce.number().int().min(1).max(1_000_000),
  })
  .strict();

export const recipesQuerySchema = z
  .object({
    site: siteIdSchema.optional(),
    lang: langSchema.optional(),
    q: z.string().trim().max(100, TOO_LONG).optional(),
    offset: z.coerce.number().int().min(0).max(100_000).default(0),
  })
  .strict();

/** A new recipe's first draft (its site and language are in the query: `scopeQuerySchema`). */
export const recipeCreateSchema = z.object({ document: recipeDocumentSchema }).strict();

/** A save names the version it was made on (`basedOn`): another version since then is 409. */
export const recipeSaveSchema = z
  .object({ basedOn: versionNumber, document: recipeDocumentSchema })
  .strict();

/** Publishing names the version seen; only the newest version is published. */
export const publishSchema = z.object({ version: versionNumber }).strict();

/** An old version becomes a new draft, made on the newest version seen (`basedOn`). */
export const restoreSchema = z.object({ version: versionNumber, basedOn: versionNumber }).strict();

export const previewRequestSchema = z.object({ version: versionNumber }).strict();

export const versionMetaSchema = z.object({
  version: z.number().int(),
  status: z.enum(VERSION_STATUSES),
  authorId: z.string().nullable(),
  authorName: z.string().nullable(),
  createdAt: z.string(),
  publishedAt: z.string().nullable(),
  restoredFrom: z.number().int().nullable(),
});
export type VersionMeta = z.infer<typeof versionMetaSchema>;

export const recipeVersionSchema = versionMetaSchema.extend({ document: recipeDocumentSchema });
export type RecipeVersion = z.infer<typeof recipeVersionSchema>;

export const presentSchema = z.object({ staffId: z.string(), name: z.string(), since: z.string() });
export type Present = z.infer<typeof presentSchema>;

export const itemStateSchema = z.object({
  id: z.number().int(),
  siteId: z.string(),
  lang: z.string(),
  /** The newest version (1 for a seeded row nobody has saved yet: the row as it is). */
  headVersion: z.number().int(),
  /** The version the site shows; null before the first publish. */
  publishedVersion: z.number().int().nullable(),
  /** Whether the live row's path may still change (it may until the first publish). */
  /** The path the site has the item at; null before its first publishing. */
  publishedPath: z.string().nullable(),
  /** The public address of the published page, or null. */
  liveUrl: z.string().nullable(),
});

/** An item opened for editing: its state, the newest version, the history and who else is in. */
export function openSchemaOf<V extends z.ZodType>(version: V) {
  return z.object({
    item: itemStateSchema,
    head: version,
    versions: z.array(versionMetaSchema),
    present: z.array(presentSchema),
    /** Whether the staff member may publish this item. */
    canPublish: z.boolean(),
  });
}
export const recipeOpenSchema = openSchemaOf(recipeVersionSchema);
export type RecipeOpen = z.infer<typeof recipeOpenSchema>;

/** What every kind's opened item has, whatever its document (the editors' shared parts). */
export type OpenItem<Doc> = Omit<RecipeOpen, 'head'> & { head: VersionMeta & { document: Doc } };

// ---------------------------------------------------------------------------------------------
// Pages (decision 166)
// ---------------------------------------------------------------------------------------------

/** A page's path: the home page's `/`, or a content path. */
export const pagePathSchema = z.union([z.literal('/'), contentPathSchema], {
  error: 'admin.recipe.pathInvalid',
});

/** The site's two menus a page can be listed in (the `pages.nav_area` column). */
export const NAV_AREAS = ['top', 'bottom'] as const;
export type NavArea = (typeof NAV_AREAS)[number];

/** The page types a new page may have (the others come with their site and keep their type). */
export const NEW_PAGE_TYPES = ['content'] as const;

/**
 * A page as an editor writes it: every column of the page the renderer reads, its blocks parsed
 * by the renderer's own `pageBlocks` (so a block that would not render cannot be saved).
 * `settings` (the page type's settings) is kept as it is; the screen does not edit it.
 */
export const pageDocumentSchema = z
  .object({
    path: pagePathSchema,
    title: required(200),
    /** The label in menus when it differs from the title. */
    navLabel: line(200).nullable(),
    teaser: line(2000),
    teaserImageId: id.nullable(),
    seoTitle: line(300).nullable(),
    seoDescription: line(2000).nullable(),
    /** The page type (what the page route renders); only a new page chooses it. */
    type: z.string({ error: INVALID }).regex(/^[a-z0-9-]{1,40}$/, INVALID),
    /** The page above it in the site's tree (null: at the top, beside the home page). */
    parentId: id.nullable(),
    showInNav: z.boolean({ error: INVALID }),
    /**
     * Which of the site's menus lists it (decision 172): `top` the header's top row (the
     * "Ylävalikko"), `bottom` the main menu (the "Päävalikko", the side menu on a phone).
     * Versions saved before the field existed read as `bottom`, the column's default.
     */
    navArea: z.enum(NAV_AREAS, { error: INVALID }).default('bottom'),
    sortOrder: z
      .number({ error: INVALID })
      .int(INVALID)
      .min(-100_000, INVALID)
      .max(100_000, INVALID),
    blocks: pageBlocks,
    settings: z.record(z.string(), z.unknown()),
  })
  .strict();
export type PageDocument = z.infer<typeof pageDocumentSchema>;

export const pageVersionSchema = versionMetaSchema.extend({ document: pageDocumentSchema });
export type PageVersion = z.infer<typeof pageVersionSchema>;
export const pageOpenSchema = openSchemaOf(pageVersionSchema);
export type PageOpen = z.infer<typeof pageOpenSchema>;
export const pageSaveSchema = z
  .object({ basedOn: versionNumber, document: pageDocumentSchema })
  .strict();
export const pageCreateSchema = z.object({ document: pageDocumentSchema }).strict();

export const pageTreeQuerySchema = z
  .object({ site: siteIdSchema.optional(), lang: langSchema.optional() })
  .strict();

/**
 * An item's state on the site: published (the site shows its newest version), changed (a newer
 * draft waits) or draft (not on the site: never published, or taken off).
 */
export const liveStateSchema = z.enum(['published', 'changed', 'draft']);

export const pageTreeRowSchema = z.object({
  id: z.number().int(),
  parentId: z.number().int().nullable(),
  path: z.string(),
  title: z.string(),
  type: z.string(),
  sortOrder: z.number().int(),
  state: liveStateSchema,
});
export type PageTreeRow = z.infer<typeof pageTreeRowSchema>;

/** The pages of one site and language (all of them, for the tree), and where else one may edit. */
export const pageTreeSchema = z.object({
  siteId: z.string().nullable(),
  lang: z.string().nullable(),
  pages: z.array(pageTreeRowSchema),
  scopes: z.array(z.object({ siteId: z.string(), lang: z.string() })),
});
export type PageTree = z.infer<typeof pageTreeSchema>;

export const recipeRowSchema = z.object({
  id: z.number().int(),
  siteId: z.string(),
  lang: z.string(),
  title: z.string(),
  path: z.string(),
  state: liveStateSchema,
  /** The newest version: what a bulk action names (decision 167). */
  version: z.number().int(),
  updatedAt: z.string(),
});
export type RecipeListRow = z.infer<typeof recipeRowSchema>;

export const recipesListSchema = z.object({
  recipes: z.array(recipeRowSchema),
  total: z.number().int(),
  /** The sites and languages the staff member may edit, for the new recipe's choice. */
  scopes: z.array(z.object({ siteId: z.string(), lang: z.string() })),
});
export type RecipesList = z.infer<typeof recipesListSchema>;

export const facetOptionsSchema = z.object({
  /** Where the site's recipes are listed (its recipe listing page), for a new recipe's path. */
  listPath: z.string().nullable(),
  categories: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      tags: z.array(z.object({ id: z.number().int(), name: z.string() })),
    }),
  ),
});
export type FacetOptions = z.infer<typeof facetOptionsSchema>;
/** A site and language a request is about (`?site=…&lang=…`), checked against the grants. */
export const scopeQuerySchema = z.object({ site: siteIdSchema, lang: langSchema }).strict();

/** Images to choose from for content of a site and language (their alt text in that language). */
export const imagesQuerySchema = z
  .object({
    site: siteIdSchema,
    lang: langSchema,
    q: z.string().trim().max(100, TOO_LONG).optional(),
    offset: z.coerce.number().int().min(0).max(100_000).default(0),
  })
  .strict();
export const imageChoiceSchema = z.object({
  id: z.number().int(),
  alt: z.string(),
  thumbUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type ImageChoice = z.infer<typeof imageChoiceSchema>;
export const imagesListSchema = z.object({
  images: z.array(imageChoiceSchema),
  total: z.number().int(),
});

/** The largest picture staff may upload (bytes of the file, before its data URL's base64). */
export const IMAGE_UPLOAD_MAX_BYTES = 8 * 1024 * 1024;
/** The types an uploaded picture may be, by its bytes (what the image pipeline reads). */
export const IMAGE_UPLOAD_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

/**
 * A picture uploaded into the image library: the file as a data URL (its type is checked from
 * its bytes, not from the URL) and its alt text in the site's language.
 */
export const imageUploadSchema = z
  .object({
    data: z
      .string({ error: REQUIRED })
      .max(Math.ceil(IMAGE_UPLOAD_MAX_BYTES / 3) * 4 + 100, 'admin.recipe.imageTooLarge')
      .regex(/^data:[\w/+.-]*;base64,[A-Za-z0-9+/=]+$/, 'admin.recipe.imageType'),
    alt: required(300),
  })
  .strict();

export const previewLinkSchema = z.object({ url: z.string(), expiresAt: z.string() });
export const presenceSchema = z.object({ present: z.array(presentSchema) });

// ---------------------------------------------------------------------------------------------
// Comparing two versions
// ---------------------------------------------------------------------------------------------

export interface FieldChange {
  /** The field's path: `title`, `steps.0.ingredients.2.name`. */
  path: string;
  /** The top-level field it belongs to (for its label). */
  field: string;
  before: string | number | boolean | null | undefined;
  after: string | number | boolean | null | undefined;
}

type Leaf = string | number | boolean | null;

function leaves(value: unknown, path: string, out: Map<string, Leaf>): void {
  if (Array.isArray(value)) {
    if (value.length === 0) out.set(path, null);
    for (const [index, item] of value.entries()) leaves(item, `${path}.${index}`, out);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (item !== undefined) leaves(item, path ? `${path}.${key}` : key, out);
    }
  } else if (value !== undefined) {
    out.set(path, value as Leaf);
  }
}

/**
 * The fields in which `after` differs from `before`, each leaf value with its path, in the order
 * of `after`'s fields (then those only `before` had). An empty list: the same document.
 */
export function diffDocuments(before: object, after: object): FieldChange[] {
  const a = new Map<string, Leaf>();
  const b = new Map<string, Leaf>();
  leaves(before, '', a);
  leaves(after, '', b);
  const changes: FieldChange[] = [];
  const paths = [...b.keys(), ...[...a.keys()].filter((p) => !b.has(p))];
  for (const path of paths) {
    const x = a.get(path);
    const y = b.get(path);
    if (x === y) continue;
    // An emptied list is one change, not one per element that went.
    if (y === null && x === undefined && [...a.keys()].some((p) => p.startsWith(`${path}.`)))
      continue;
    if (x === null && y === undefined && [...b.keys()].some((p) => p.startsWith(`${path}.`)))
      continue;
    changes.push({ path, field: path.split('.')[0] ?? path, before: x, after: y });
  }
  return changes;
}
