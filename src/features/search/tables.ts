import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  index,
  integer,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** The search feature's table (decision 126): one document per searchable row, kept by triggers. */

// ---------------------------------------------------------------------------------------------
// Search: one document per searchable page, product, recipe and news release, kept up to date by
// triggers on those tables in the same transaction (migration 0005). See decision 011.
// ---------------------------------------------------------------------------------------------

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const searchDocuments = pgTable(
  'search_documents',
  {
    id: serial('id').primaryKey(),
    /** page, product, recipe or news: the table the document comes from. */
    source: text('source').notNull(),
    sourceId: integer('source_id').notNull(),
    siteId: text('site_id').notNull(),
    lang: text('lang').notNull(),
    /** The page type: a product's kind, 'recipe', 'news', or the page's own type. */
    type: text('type').notNull(),
    path: text('path').notNull(),
    title: text('title').notNull(),
    teaser: text('teaser').notNull().default(''),
    /** Plain text of the rest: descriptions, ingredients, steps, rich text, release bodies. */
    body: text('body').notNull().default(''),
    imageId: integer('image_id'),
    /** 1 products, 2 recipes, 0 everything else (news is told apart by `source`). */
    contentGroup: smallint('content_group').notNull().default(0),
    /** What a hit shows as its category when the row itself names one (product group, text type). */
    category: text('category'),
    facetTagIds: integer('facet_tag_ids').array().notNull().default(sql`'{}'::integer[]`),
    categoryIds: integer('category_ids').array().notNull().default(sql`'{}'::integer[]`),
    productGroup: text('product_group'),
    equipment: text('equipment').array().notNull().default(sql`'{}'::text[]`),
    authors: text('authors').array().notNull().default(sql`'{}'::text[]`),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull(),
    likeCount: integer('like_count').notNull().default(0),
    totalTime: integer('total_time'),
    isNovelty: boolean('is_novelty').notNull().default(false),
    /** Title (A, stemmed and as written), teaser (B) and body (C) in the language's configuration. */
    search: tsvector('search').notNull(),
    /**
     * The title in lower case, computed once when written: substring, prefix and typo tests read
     * it instead of folding every title of a broad match again (decision 057).
     */
    titleLower: text('title_lower').notNull().generatedAlwaysAs(sql`lower(title)`),
    /**
     * The title's words alone, the same lexemes as the A part of `search`: whether a document
     * holds the query in its title is asked of this short vector (decision 057).
     */
    titleSearch: tsvector('title_search')
      .notNull()
      .generatedAlwaysAs(
        sql`to_tsvector(search_config(lang), title) || to_tsvector('simple'::regconfig, title)`,
      ),
  },
  (t) => [
    uniqueIndex('search_documents_source_uq').on(t.source, t.sourceId),
    index('search_documents_site_idx').on(t.siteId, t.lang, t.source),
    index('search_documents_search_idx').using('gin', t.search),
    index('search_documents_title_lower_trgm_idx').using('gin', sql`${t.titleLower} gin_trgm_ops`),
    index('search_documents_title_search_idx').using('gin', t.titleSearch),
  ],
);

// ---------------------------------------------------------------------------------------------
// Synonyms (decision 164): what shoppers type for what titles say, per search language, edited by
// staff with `search.synonyms`. Two-way: every term stands for each other; one-way: each term also
// searches for the targets (`jauhis` → jauheliha), not the other way round.
// ---------------------------------------------------------------------------------------------

export const searchSynonyms = pgTable(
  'search_synonyms',
  {
    id: serial('id').primaryKey(),
    /** fi, sv or en: the search language whose queries it applies to, on every site. */
    lang: text('lang').notNull(),
    /** `two-way` or `one-way`. */
    kind: text('kind').notNull(),
    /** Lower-case words or phrases (`kana`, `hot dog`); at least two for a two-way set. */
    terms: text('terms').array().notNull(),
    /** What a one-way set's terms also search for; empty for a two-way set. */
    targets: text('targets').array().notNull().default(sql`'{}'::text[]`),
    /** Grows with every change: an edit names the version it saw (409 when it moved on). */
    version: integer('version').notNull().default(1),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('search_synonyms_lang_idx').on(t.lang),
    check(
      'search_synonyms_kind_ck',
      sql`(${t.kind} = 'two-way' and cardinality(${t.terms}) >= 2 and cardinality(${t.targets}) = 0) or (${t.kind} = 'one-way' and cardinality(${t.terms}) >= 1 and cardinality(${t.targets}) >= 1)`,
    ),
  ],
);
