import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { belongsTo } from '../../db/columns.ts';
import { images } from '../../images/tables.ts';

/**
 * The content feature's tables (decision 126): pages, products, recipes, news releases and the
 * widgets' data, their likes and the school votes. Other features read them only through what
 * `index.server.ts` exports.
 *
 * Content. Every row belongs to one site and one language; language versions of the same thing
 * share a `translationKey` (for hreflang alternates and the language switch).
 */

/** The page tree of each site and language. `path` is the friendly URL without language prefix. */
export const pages = pgTable(
  'pages',
  {
    id: serial('id').primaryKey(),
    siteId: text('site_id').notNull(),
    lang: text('lang').notNull(),
    parentId: integer('parent_id'),
    path: text('path').notNull(),
    type: text('type').notNull(),
    title: text('title').notNull(),
    /** Label in menus when it differs from the title. */
    navLabel: text('nav_label'),
    teaser: text('teaser').notNull().default(''),
    teaserImageId: integer('teaser_image_id').references(() => images.id),
    seoTitle: text('seo_title'),
    seoDescription: text('seo_description'),
    /** Blocks of the page, each validated by its block type's zod schema on write. */
    blocks: jsonb('blocks').$type<unknown[]>().notNull().default([]),
    /** Page settings by type (e.g. numberOfProducts, contentGroup). */
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    showInNav: boolean('show_in_nav').notNull().default(true),
    /** Where the page appears in the header: top row or bottom row of tabs. */
    navArea: text('nav_area').notNull().default('bottom'),
    icon: text('icon'),
    isExternal: boolean('is_external').notNull().default(false),
    externalUrl: text('external_url'),
    sortOrder: integer('sort_order').notNull().default(0),
    translationKey: text('translation_key').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('pages_site_lang_path_uq').on(t.siteId, t.lang, t.path),
    index('pages_parent_idx').on(t.parentId),
    index('pages_translation_idx').on(t.siteId, t.translationKey),
  ],
);

/** Facet categories (e.g. 'Raaka-aine', 'Ruokalaji') and their tags, per site and language. */
export const facetCategories = pgTable(
  'facet_categories',
  {
    id: serial('id').primaryKey(),
    siteId: text('site_id').notNull(),
    lang: text('lang').notNull(),
    /** products, recipes or news. */
    scope: text('scope').notNull(),
    name: text('name').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [index('facet_categories_site_idx').on(t.siteId, t.lang, t.scope)],
);

export const facetTags = pgTable(
  'facet_tags',
  {
    id: serial('id').primaryKey(),
    categoryId: belongsTo(integer('category_id'), () => facetCategories.id),
    name: text('name').notNull(),
    /** Shown in facet lists (hidden tags still filter). */
    display: boolean('display').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [index('facet_tags_category_idx').on(t.categoryId)],
);

export interface Nutrition {
  per: string;
  energyKj?: number;
  energyKcal?: number;
  fat?: number;
  saturatedFat?: number;
  carbohydrate?: number;
  sugars?: number;
  protein?: number;
  salt?: number;
}

/** Retail, broiler, food-service and shop products. Money in integer cents. */
export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    siteId: text('site_id').notNull(),
    lang: text('lang').notNull(),
    /** retail-product, broiler-product, foodservice-product or shop-product (the page type). */
    kind: text('kind').notNull(),
    path: text('path').notNull(),
    code: text('code').notNull(),
    gtin: text('gtin'),
    valoCode: text('valo_code'),
    /**
     * On a brand site that sells through the shop: the `code` of the shop's product that is this
     * product (decision 021); null when the shop does not sell it.
     */
    shopCode: text('shop_code'),
    name: text('name').notNull(),
    teaser: text('teaser').notNull().default(''),
    descriptionHtml: text('description_html').notNull().default(''),
    ingredients: text('ingredients').notNull().default(''),
    imageIds: integer('image_ids').array().notNull().default(sql`'{}'::integer[]`),
    categoryIds: integer('category_ids').array().notNull().default(sql`'{}'::integer[]`),
    facetTagIds: integer('facet_tag_ids').array().notNull().default(sql`'{}'::integer[]`),
    /** Product group for food-service search (`productGroup`). */
    productGroup: text('product_group'),
    isNovelty: boolean('is_novelty').notNull().default(false),
    nutrition: jsonb('nutrition').$type<Nutrition | null>(),
    weightGrams: integer('weight_grams'),
    priceCents: integer('price_cents'),
    pricePerKgCents: integer('price_per_kg_cents'),
    svhPriceCents: integer('svh_price_cents'),
    discountPercentage: integer('discount_percentage'),
    /** null: unlimited. */
    stock: integer('stock'),
    isGiftCard: boolean('is_gift_card').notNull().default(false),
    /** The VAT class (`vat_rates.tax_class`): `food`, `standard` or `exempt` (decision 019). */
    taxClass: text('tax_class').notNull().default('food'),
    likeCount: integer('like_count').notNull().default(0),
    translationKey: text('translation_key').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('products_site_lang_path_uq').on(t.siteId, t.lang, t.path),
    index('products_site_code_idx').on(t.siteId, t.code),
  ],
);

export interface RecipeIngredient {
  name: string;
  amount: number | null;
  unit: string;
  /** Link to a product page, when the ingredient is one of ours. */
  url?: string;
  /** Swedish recipes: the ingredient's place in the list (spec shop-and-widgets §3 `Order`). */
  order?: number;
}

export interface RecipeStep {
  heading: string;
  instructions: string;
  ingredients: RecipeIngredient[];
}

export interface Nutrient {
  code: string;
  name: string;
  amount: number;
  unit: string;
}

export const recipes = pgTable(
  'recipes',
  {
    id: serial('id').primaryKey(),
    siteId: text('site_id').notNull(),
    lang: text('lang').notNull(),
    path: text('path').notNull(),
    title: text('title').notNull(),
    teaser: text('teaser').notNull().default(''),
    imageId: integer('image_id').references(() => images.id),
    yield: integer('yield').notNull(),
    portionSize: real('portion_size'),
    portionUnit: text('portion_unit'),
    totalYieldKg: real('total_yield_kg'),
    totalTimeMinutes: integer('total_time_minutes').notNull(),
    steps: jsonb('steps').$type<RecipeStep[]>().notNull().default([]),
    /** Swedish recipes carry nutrients. */
    nutrients: jsonb('nutrients').$type<Nutrient[]>().notNull().default([]),
    facetTagIds: integer('facet_tag_ids').array().notNull().default(sql`'{}'::integer[]`),
    categoryIds: integer('category_ids').array().notNull().default(sql`'{}'::integer[]`),
    /** Kitchen equipment, for `searchEquipments`. */
    equipment: text('equipment').array().notNull().default(sql`'{}'::text[]`),
    likeCount: integer('like_count').notNull().default(0),
    translationKey: text('translation_key').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('recipes_site_lang_path_uq').on(t.siteId, t.lang, t.path)],
);

/**
 * Paths that were published and moved (issue 35, decision 165): a request for `fromPath` of the
 * site and language answers 301 to `toPath`, unless a live item has that path again. Chains are
 * collapsed when a path moves on (every old path points at the current one), and a path that
 * becomes live again loses its redirect.
 */
export const pathRedirects = pgTable(
  'path_redirects',
  {
    id: serial('id').primaryKey(),
    siteId: text('site_id').notNull(),
    lang: text('lang').notNull(),
    fromPath: text('from_path').notNull(),
    toPath: text('to_path').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('path_redirects_site_lang_from_uq').on(t.siteId, t.lang, t.fromPath),
    index('path_redirects_to_idx').on(t.siteId, t.lang, t.toPath),
    check('path_redirects_not_self_ck', sql`${t.fromPath} <> ${t.toPath}`),
    check(
      'path_redirects_paths_ck',
      sql`${t.fromPath} ~ '^/[^/]' and ${t.toPath} ~ '^/([^/]|$)' and length(${t.fromPath}) <= 500 and length(${t.toPath}) <= 500`,
    ),
  ],
);

export const newsReleases = pgTable(
  'news_releases',
  {
    id: serial('id').primaryKey(),
    siteId: text('site_id').notNull(),
    lang: text('lang').notNull(),
    path: text('path').notNull(),
    title: text('title').notNull(),
    teaser: text('teaser').notNull().default(''),
    bodyHtml: text('body_html').notNull().default(''),
    imageId: integer('image_id').references(() => images.id),
    publishDate: timestamp('publish_date', { withTimezone: true }).notNull(),
    categoryIds: integer('category_ids').array().notNull().default(sql`'{}'::integer[]`),
    facetTagIds: integer('facet_tag_ids').array().notNull().default(sql`'{}'::integer[]`),
    authors: text('authors').array().notNull().default(sql`'{}'::text[]`),
    /** cision or mynewsdesk: the release service it came from. */
    kind: text('kind').notNull(),
    /** Cision text type (e.g. 'Lehdistötiedote', 'Pörssitiedote'). */
    textType: text('text_type'),
    /**
     * The news-release categories (`informationType`, e.g. `PRM`) whose subscribers are mailed when
     * the release is published through the back office (decision 158).
     */
    informationTypes: text('information_types').array().notNull().default(sql`'{}'::text[]`),
    translationKey: text('translation_key').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('news_site_lang_path_uq').on(t.siteId, t.lang, t.path),
    index('news_site_date_idx').on(t.siteId, t.lang, t.publishDate),
  ],
);

export const jobs = pgTable('jobs', {
  id: serial('id').primaryKey(),
  siteId: text('site_id').notNull(),
  lang: text('lang').notNull(),
  title: text('title').notNull(),
  city: text('city').notNull(),
  url: text('url').notNull(),
  applicationPeriodEnd: timestamp('application_period_end', { withTimezone: true }).notNull(),
  /** When the listing was last published from the back office (decision 171), or seeded. */
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const timelineYears = pgTable('timeline_years', {
  id: serial('id').primaryKey(),
  siteId: text('site_id').notNull(),
  lang: text('lang').notNull(),
  year: integer('year').notNull(),
  title: text('title').notNull(),
  text: text('text').notNull(),
  imageId: integer('image_id').references(() => images.id),
  /** When the year was last published from the back office (decision 171), or seeded. */
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const mapRegions = pgTable('map_regions', {
  id: serial('id').primaryKey(),
  siteId: text('site_id').notNull(),
  lang: text('lang').notNull(),
  number: integer('number').notNull(),
  buttonLabel: text('button_label').notNull(),
  buttonRegion: text('button_region').notNull(),
  buttonInfo: text('button_info').notNull(),
  /** When the button was last published from the back office (decision 171), or seeded. */
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

// ---------------------------------------------------------------------------------------------
// Likes (decision 040): one row per visitor and liked recipe or product; the row's content keeps
// its count in `like_count`, raised in the same transaction as the row is written.
// ---------------------------------------------------------------------------------------------

export const contentLikes = pgTable(
  'content_likes',
  {
    id: serial('id').primaryKey(),
    /** Exactly one of `recipe_id` and `product_id` is set. */
    recipeId: integer('recipe_id').references(() => recipes.id, { onDelete: 'cascade' }),
    productId: integer('product_id').references(() => products.id, { onDelete: 'cascade' }),
    /** An HMAC of the visitor's session token: the visitor, not their token. */
    visitor: text('visitor').notNull(),
    /** An HMAC of the client's address, for the per-address daily bound. */
    client: text('client').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('content_likes_recipe_visitor_uq').on(t.recipeId, t.visitor),
    uniqueIndex('content_likes_product_visitor_uq').on(t.productId, t.visitor),
    index('content_likes_recipe_client_idx').on(t.recipeId, t.client, t.createdAt),
    index('content_likes_product_client_idx').on(t.productId, t.client, t.createdAt),
    check('content_likes_one_target_ck', sql`num_nonnulls(${t.recipeId}, ${t.productId}) = 1`),
  ],
);

/**
 * Votes of the school material pages' vote blocks: one per visitor (session) and vote. The
 * unique key makes a visitor's parallel votes count once.
 */
export const schoolVotes = pgTable(
  'school_votes',
  {
    id: serial('id').primaryKey(),
    siteId: text('site_id').notNull(),
    /** The block's `voteId`. */
    voteId: text('vote_id').notNull(),
    /** The visitor: the hash of their session token (`Session.id`). */
    voterId: text('voter_id').notNull(),
    /** Index of the chosen option in the block's `options`. */
    option: smallint('option').notNull(),
    /**
     * The client address and the day (decision 076): a keyed hash of both, never the address.
     * Null on the votes counted before the rule.
     */
    clientKey: text('client_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('school_votes_voter_uq').on(t.siteId, t.voteId, t.voterId),
    uniqueIndex('school_votes_client_uq').on(t.siteId, t.voteId, t.clientKey),
    index('school_votes_count_idx').on(t.siteId, t.voteId, t.option),
    check('school_votes_option_ck', sql`${t.option} between 0 and 5`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Drafts and versions (decision 162). Each language version of an item (a recipe row: site,
// language, translation key) keeps its published row above, which the site reads, and its
// versions here. A save writes only these tables (private: they move no content version);
// publishing writes a version into the live row in the same transaction.
// ---------------------------------------------------------------------------------------------

/**
 * An editable item: which live row it is (`kind` names the table, `item_id` the row's id, taken
 * from the table's sequence when the item is made, so the row gets it at its first publish), its
 * newest version and the version the site shows.
 */
export const contentItems = pgTable(
  'content_items',
  {
    kind: text('kind').notNull(),
    itemId: integer('item_id').notNull(),
    siteId: text('site_id').notNull(),
    lang: text('lang').notNull(),
    translationKey: text('translation_key').notNull(),
    headVersion: integer('head_version').notNull(),
    /** Null until the first publish. */
    publishedVersion: integer('published_version'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.itemId] }),
    index('content_items_scope_idx').on(t.kind, t.siteId, t.lang),
    check(
      'content_items_kind_ck',
      sql`${t.kind} in ('recipe', 'product', 'page', 'news', 'job', 'school-material', 'timeline-year', 'map-region')`,
    ),
    check(
      'content_items_published_ck',
      sql`${t.publishedVersion} is null or ${t.publishedVersion} between 1 and ${t.headVersion}`,
    ),
  ],
);

/** Every saved version of an item: the whole document, checked by its kind's schema on write. */
export const contentVersions = pgTable(
  'content_versions',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    itemId: integer('item_id').notNull(),
    version: integer('version').notNull(),
    /** draft, or published once it has been published (it stays so when a later one is). */
    status: text('status').notNull(),
    document: jsonb('document').$type<Record<string, unknown>>().notNull(),
    /** The staff member who saved it; null for the first version taken from a seeded row. */
    authorId: uuid('author_id'),
    /** The version it was restored from, when it was. */
    restoredFrom: integer('restored_from'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    publishedBy: uuid('published_by'),
  },
  (t) => [
    uniqueIndex('content_versions_item_version_uq').on(t.kind, t.itemId, t.version),
    check('content_versions_status_ck', sql`${t.status} in ('draft', 'published')`),
    check(
      'content_versions_published_ck',
      sql`(${t.status} = 'published') = (${t.publishedAt} is not null)`,
    ),
  ],
);

/**
 * Who has an item open in the back office (Payload's document locking, as presence): a row per
 * staff member and item, its time moved by the screen's heartbeat. Rows older than the presence
 * window are nobody; they are deleted when the item is next looked at.
 */
export const contentPresence = pgTable(
  'content_presence',
  {
    kind: text('kind').notNull(),
    itemId: integer('item_id').notNull(),
    staffId: uuid('staff_id').notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.itemId, t.staffId] })],
);

/**
 * Scheduled publishing and unpublishing (decision 167): a publisher's order to publish a version
 * of an item (or take it off the site) at a time. The `content-schedule` job runs each due row
 * once across processes: it claims the row (`FOR UPDATE SKIP LOCKED`, then `state` moves from
 * pending in the same transaction as the publish and its audit row). `payload` is what the
 * kind's own publishing needs besides the version (a news release's mailing categories).
 */
export const contentSchedules = pgTable(
  'content_schedules',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    itemId: integer('item_id').notNull(),
    /** publish or unpublish. */
    action: text('action').notNull(),
    /** The version to publish (the newest when it was scheduled); for unpublish the live one. */
    version: integer('version'),
    runAt: timestamp('run_at', { withTimezone: true }).notNull(),
    siteId: text('site_id').notNull(),
    lang: text('lang').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    /** pending, done, cancelled or failed. */
    state: text('state').notNull().default('pending'),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    cancelledBy: uuid('cancelled_by'),
    doneAt: timestamp('done_at', { withTimezone: true }),
    /** Why a run failed (a stale path, a missing reference), for the screen. */
    error: text('error'),
  },
  (t) => [
    uniqueIndex('content_schedules_pending_uq')
      .on(t.kind, t.itemId, t.action)
      .where(sql`${t.state} = 'pending'`),
    index('content_schedules_due_idx').on(t.runAt).where(sql`${t.state} = 'pending'`),
    check('content_schedules_action_ck', sql`${t.action} in ('publish', 'unpublish')`),
    check(
      'content_schedules_state_ck',
      sql`${t.state} in ('pending', 'done', 'cancelled', 'failed')`,
    ),
    check('content_schedules_kind_ck', sql`${t.kind} in ('recipe', 'product', 'page', 'news')`),
  ],
);
