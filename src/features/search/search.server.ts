import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { imageUrl } from '../../images/presets.ts';
import type { Lang } from '../../sites/types.ts';
import { contentIdOf } from '../content/index.ts';
import { analyserName, analyseWord } from './analysis/analyser.server.ts';
import { baseFormsOf, compoundPartsOf } from './base-forms.server.ts';
import { type ParsedQuery, parseQuery, type Term, wordsOf } from './query.server.ts';
import {
  type FacetCategory,
  MAX_UNPAGED_HITS,
  type MatchStep,
  type SearchHit,
  type SearchResult,
  type SortOrder,
} from './schemas.ts';
import { type SynonymIndex, synonymsOf } from './synonyms.server.ts';
import {
  FAR_TYPO_MIN_LENGTH,
  farSpellingCorrection,
  inTitleWords,
  spellingCorrection,
  titlesMayHoldEvery,
  titlesStartingWithExceed,
  typoCandidates,
} from './typo-vocabulary.server.ts';

export type Source = 'page' | 'product' | 'recipe' | 'news';
export type FacetScope = 'products' | 'recipes' | 'news';

/** Where a search looks: one site's documents in one language, of some sources. */
export interface SearchScope {
  siteId: string;
  /** undefined: a language the site does not have; the answer is empty. */
  lang: Lang | undefined;
  /** Language prefix of the hits' URLs ('' or '/en'). */
  urlPrefix: string;
  /** null: every source. Content groups are sources: 1 products, 2 recipes. */
  sources: readonly Source[] | null;
  /** Facet categories the answer carries, counted over the filtered set. */
  facetScopes: readonly FacetScope[];
}

export interface SearchOptions {
  q: string;
  page: number;
  pageSize: number;
  sortOrder: SortOrder;
  /** Answer every hit (up to MAX_UNPAGED_HITS) instead of one page. */
  skipPagination?: boolean;
  /** No hits until there is a query or a filter (facets are still counted). */
  hideResults?: boolean;
  /**
   * Leave out the count of all matches (quick suggestions): the total is then the hits up to this
   * page, and `hasMore` says whether one more hit exists. Without the count the matches are not
   * collected first, only ranked into the page.
   */
  withoutTotal?: boolean;
  productGroup?: string | undefined;
  facetTags?: readonly number[] | undefined;
  matchAnyCategoryIds?: readonly number[] | undefined;
  matchAllCategoryIds?: readonly number[] | undefined;
  searchEquipments?: readonly string[] | undefined;
  authors?: readonly string[] | undefined;
}

/**
 * How similar (pg_trgm `word_similarity`) a title word must be to a typed word to count as a
 * typo of it, when nothing matches otherwise. One wrong letter costs a short word a larger share of
 * its trigrams, so short words get a lower bar: `chiken` → chicken 0.5, `pastarmi` → pastrami
 * 0.44, while `broilerikastke` must not take every `broileri…` title (0.53) along with the one it
 * means (0.8).
 */
export function typoSimilarity(word: string): number {
  if (word.length <= 8) return 0.4;
  if (word.length <= 11) return 0.55;
  return 0.6;
}
/** Typos are looked for only in words at least this long. */
const TYPO_MIN_LENGTH = 4;

/**
 * Searches a site's documents: full-text with prefixes and stems, compound tails by substring of
 * the title, and, when that finds nothing, title words one typo away. Hits, the total and the facet
 * counts come from one statement over the same filtered set.
 */
export async function search(
  db: Database,
  scope: SearchScope,
  options: SearchOptions,
): Promise<SearchResult> {
  const query = options.q.trim();
  const lang = scope.lang;
  if (!lang) return emptyResult(query);
  const synonyms = query ? await synonymsOf(db, lang) : undefined;
  const baseForms: BaseFormsOf = Object.assign(
    (words: readonly string[]) => baseFormsOf(db, scope.siteId, lang, words),
    { synonyms },
  );
  const parsed = query ? await parseWith(db, lang, query, baseForms) : undefined;
  if (!parsed) return resultOf(query, scope, options, await wordSearch(db, scope, options, parsed));
  if (parsed.terms.length === 0) return emptyResult(query);
  const found = await searchWords({ db, scope, options, lang, query, baseForms }, parsed);
  return resultOf(query, scope, options, found.rows, found.matchedBy);
}

/** One search's inputs, as each of its steps needs them. */
interface Searching {
  db: Database;
  scope: SearchScope;
  options: SearchOptions;
  lang: Lang;
  query: string;
  baseForms: BaseFormsOf;
}

/** What a step found, and the step that found it. */
interface Found {
  rows: SearchRows;
  matchedBy?: MatchStep | undefined;
}

/** The rows found nothing: no hit on the page, or no match counted. */
function isEmpty(rows: SearchRows, scope: SearchScope, options: SearchOptions): boolean {
  return (uncounted(scope, options) ? rows.hits.length : rows.total) === 0;
}

/**
 * The query's words searched as they are, then corrected, loosened or filled in as the steps
 * below say. A selection that empties the result is the visitor's choice, not a failure of the
 * words, so filtered searches take the words as they are.
 */
async function searchWords(s: Searching, parsed: ParsedQuery): Promise<Found> {
  const rows = await wordSearch(s.db, s.scope, s.options, parsed);
  if (hasFilter(s.options)) return { rows, matchedBy: 'words' };
  if (isEmpty(rows, s.scope, s.options)) return loosenedSearch(s, parsed, rows);
  const corrected = await unknownFinnishWordsCorrected(s, parsed);
  if (corrected) return corrected;
  const filled = await filledWithAnyWord(s.db, s.scope, s.options, parsed, rows);
  return filled ? { rows: filled, matchedBy: 'anyWord' } : { rows, matchedBy: 'words' };
}

/**
 * A Finnish word Voikko does not know and no title word holds is a misspelling even when its
 * stem happens to start other words (`makarra` → Makaronilaatikko): its correction, when it
 * finds something, answers instead. undefined: no such word, or its correction finds nothing.
 */
async function unknownFinnishWordsCorrected(
  s: Searching,
  parsed: ParsedQuery,
): Promise<Found | undefined> {
  if (s.lang !== 'fi' || analyserName() !== 'voikko') return undefined;
  const suspects: string[] = [];
  for (const t of parsed.terms) {
    // A word the synonyms know (or a phrase of them) is no misspelling.
    if (t.alternatives?.length) continue;
    if (t.word.length < TYPO_MIN_LENGTH + 1 || analyseWord(s.lang, t.word).known) continue;
    if (!(await inTitleWords(s.db, s.scope.siteId, s.lang, t.word))) suspects.push(t.word);
  }
  if (!suspects.length) return undefined;
  const corrected = await correctedSearch(
    s.db,
    s.scope,
    s.options,
    parsed,
    new Set(suspects),
    s.baseForms,
  );
  if (corrected && !isEmpty(corrected.rows, s.scope, s.options))
    return { rows: corrected.rows, matchedBy: 'typo' };
  // Two slips in a long word (`bratvursti` → bratwurst), as the typo step allows them.
  const long = suspects.filter((w) => [...w].length >= FAR_TYPO_MIN_LENGTH);
  if (!long.length) return undefined;
  const far = await correctedSearch(
    s.db,
    s.scope,
    s.options,
    parsed,
    new Set(long),
    s.baseForms,
    farSpellingCorrection,
  );
  if (!far || isEmpty(far.rows, s.scope, s.options)) return undefined;
  return { rows: far.rows, matchedBy: 'typo' };
}

/**
 * Zero results are the last resort: when the words find nothing, the search loosens step by step
 * (decision 046): a compound's parts instead of the compound, then a typo, then any word instead
 * of all. The first step that finds something answers; when none does, the empty rows do.
 */
async function loosenedSearch(s: Searching, parsed: ParsedQuery, rows: SearchRows): Promise<Found> {
  const { db, scope, options, baseForms } = s;
  const found = (step: SearchRows) => !isEmpty(step, scope, options);
  const split = await splitCompounds(db, scope.siteId, s.lang, s.query, baseForms);
  if (split) {
    const parts = await wordSearch(db, scope, options, split);
    if (found(parts)) return { rows: parts, matchedBy: 'compoundParts' };
  }
  // Which words find nothing on their own: asked once, by whichever typo step needs it first.
  let unknown: Promise<string[]> | undefined;
  const unknownWords = () => {
    unknown ??= wordsFindingNothing(db, scope, parsed.terms);
    return unknown;
  };
  const typo = await typoSearch(db, scope, options, parsed, rows, baseForms, unknownWords);
  if (typo && found(typo)) return { rows: typo, matchedBy: 'typo' };
  const far = await farTypoSearch(db, scope, options, parsed, baseForms, unknownWords);
  if (far && found(far.rows)) return { rows: far.rows, matchedBy: 'typo' };
  if (parsed.terms.length > 1) {
    const any = await runSearch(db, scope, options, parsed, new Set(), undefined, undefined, true);
    if (found(any)) return { rows: any, matchedBy: 'anyWord' };
  }
  return { rows };
}

/** The answer made of the rows: their page of hits, the total and whether more follow. */
function resultOf(
  query: string,
  scope: SearchScope,
  options: SearchOptions,
  rows: SearchRows,
  matchedBy?: MatchStep,
): SearchResult {
  const offset = options.skipPagination ? 0 : (options.page - 1) * options.pageSize;
  const counted = !uncounted(scope, options);
  // Uncounted, one row beyond the page was asked for: it only tells that there are more.
  const hits = (counted ? rows.hits : rows.hits.slice(0, options.pageSize)).map((row) =>
    toHit(row, scope.urlPrefix),
  );
  return {
    query,
    facetCategories: rows.facets,
    hits,
    totalCount: counted ? rows.total : offset + hits.length,
    hasMore: counted ? offset + hits.length < rows.total : rows.hits.length > options.pageSize,
    ...(matchedBy ? { matchedBy } : {}),
  };
}

/** Fewer matches of every word than this: the any-word step's hits fill the places after them. */
const FEW_HITS = 5;

/**
 * A search whose every-word matches are fewer than FEW_HITS, with the any-word step's hits after
 * them (`spicy sausages`: the one title holding both words first, then the sausages and the spicy
 * ones), instead of one hit ending the loosening. The pages are of that joined order, so the total
 * is the any-word step's (a superset). undefined: not applicable, or nothing to add.
 */
async function filledWithAnyWord(
  db: Database,
  scope: SearchScope,
  options: SearchOptions,
  parsed: ParsedQuery,
  rows: SearchRows,
): Promise<SearchRows | undefined> {
  const quick = uncounted(scope, options);
  const few = quick ? rows.hits.length : rows.total;
  if (parsed.terms.length < 2 || few === 0 || few >= FEW_HITS) return undefined;
  // The every-word hits all sit on the first page; a later page asks for them again.
  const first =
    options.page === 1 || options.skipPagination
      ? rows.hits
      : (await runSearch(db, scope, { ...options, page: 1 }, parsed, new Set())).hits;
  const key = (h: HitRow) => `${h.source}:${h.source_id}:${h.path}`;
  const seen = new Set(first.map(key));
  const end = options.skipPagination ? MAX_UNPAGED_HITS : options.page * options.pageSize;
  const any = await runSearch(
    db,
    scope,
    options.skipPagination ? options : { ...options, page: 1, pageSize: end + first.length },
    parsed,
    new Set(),
    undefined,
    undefined,
    true,
  );
  const added = any.hits.filter((h) => !seen.has(key(h)));
  if (!added.length) return undefined;
  const joined = [...first, ...added];
  const start = options.skipPagination ? 0 : (options.page - 1) * options.pageSize;
  return {
    total: any.total,
    hits: joined.slice(start, end + (quick ? 1 : 0)),
    facets: any.facets,
  };
}

/**
 * The typo step: only the words that find nothing on their own are loosened (in `kanan
 * koipireisiä` that is the second one), to title words one typo away. undefined: no word is long
 * enough to be a typo.
 */
async function typoSearch(
  db: Database,
  scope: SearchScope,
  options: SearchOptions,
  parsed: ParsedQuery,
  rows: SearchRows,
  baseForms: BaseFormsOf,
  unknownWords: () => Promise<string[]>,
): Promise<SearchRows | undefined> {
  const terms = parsed.terms;
  if (!terms.some((t) => t.word.length >= TYPO_MIN_LENGTH)) return undefined;
  const unknown = await unknownWords();
  const fuzzy = new Set(unknown.filter((w) => w.length >= TYPO_MIN_LENGTH));
  if (!fuzzy.size) return undefined;
  // A spelling one slip away that the titles hold (`brolieri` → broileri) first: it then searches
  // in every form like a typed word; trigram likeness after it.
  const corrected = await correctedSearch(db, scope, options, parsed, fuzzy, baseForms);
  if (corrected && (uncounted(scope, options) ? corrected.rows.hits.length : corrected.rows.total))
    return corrected.rows;
  const candidates = await typoCandidatesOf(db, scope, fuzzy);
  // A loosened word close to no title word of the scope: no title is one typo away.
  if (candidates === 'none') return { total: 0, hits: [], facets: rows.facets };
  if (candidates) return runSearch(db, scope, options, parsed, fuzzy, undefined, candidates);
  return db.transaction(async (tx) => {
    // Local to this transaction: the threshold of the `<%` operator the trigram index serves.
    await tx.execute(
      sql`select set_config('pg_trgm.word_similarity_threshold', ${String(typoThreshold(fuzzy))}, true)`,
    );
    return runSearch(tx, scope, options, parsed, fuzzy);
  });
}

/** A search's analysis of words: their base forms on the site, and the language's synonyms. */
type BaseFormsOf = NonNullable<Parameters<typeof parseQuery>[3]> & {
  synonyms?: SynonymIndex | undefined;
};

/** The query parsed with the search's base forms and synonyms. */
function parseWith(
  db: Database,
  lang: Lang,
  q: string,
  baseForms: BaseFormsOf,
): Promise<ParsedQuery> {
  return parseQuery(db, lang, q, baseForms, baseForms.synonyms);
}

/**
 * The typo step's last try: long words that find nothing, each replaced by the title word two
 * edits away (farSpellingCorrection, like `fuzziness: AUTO`). undefined: no such word.
 */
async function farTypoSearch(
  db: Database,
  scope: SearchScope,
  options: SearchOptions,
  parsed: ParsedQuery,
  baseForms: BaseFormsOf,
  unknownWords: () => Promise<string[]>,
): Promise<{ rows: SearchRows; parsed: ParsedQuery } | undefined> {
  const terms = parsed.terms;
  if (!terms.some((t) => [...t.word].length >= FAR_TYPO_MIN_LENGTH)) return undefined;
  const unknown = await unknownWords();
  const far = new Set(unknown.filter((w) => [...w].length >= FAR_TYPO_MIN_LENGTH));
  if (!far.size) return undefined;
  return correctedSearch(db, scope, options, parsed, far, baseForms, farSpellingCorrection);
}

/**
 * The search with each of `words` replaced by its spelling correction (spellingCorrection), or
 * undefined when none of them has one.
 */
async function correctedSearch(
  db: Database,
  scope: SearchScope,
  options: SearchOptions,
  parsed: ParsedQuery,
  words: ReadonlySet<string>,
  baseForms: BaseFormsOf,
  correct = spellingCorrection,
): Promise<{ rows: SearchRows; parsed: ParsedQuery } | undefined> {
  if (!scope.lang) return undefined;
  let changed = false;
  const out: string[] = [];
  for (const t of parsed.terms) {
    const fix = words.has(t.word) ? await correct(db, scope.siteId, scope.lang, t.word) : undefined;
    if (fix) changed = true;
    out.push(fix ?? t.word);
  }
  if (!changed) return undefined;
  const fixed = await parseWith(db, scope.lang, out.join(' '), baseForms);
  return { rows: await wordSearch(db, scope, options, fixed), parsed: fixed };
}

/**
 * The query with each compound replaced by its parts (`kinkkukiusaukset` → kinkku kiusaus), or
 * undefined when no word of it is a compound.
 */
async function splitCompounds(
  db: Database,
  siteId: string,
  lang: NonNullable<SearchScope['lang']>,
  query: string,
  baseForms: BaseFormsOf,
): Promise<ParsedQuery | undefined> {
  const words = wordsOf(query);
  let split = false;
  const out: string[] = [];
  for (const word of words) {
    const parts = await compoundPartsOf(db, siteId, lang, word);
    if (parts.length > 1) {
      split = true;
      out.push(...parts);
    } else out.push(word);
  }
  return split ? parseWith(db, lang, out.join(' '), baseForms) : undefined;
}

/** The search for the query's words as they are (no typo allowed), ranking title matches first. */
async function wordSearch(
  db: Database,
  scope: SearchScope,
  options: SearchOptions,
  parsed: ParsedQuery | undefined,
): Promise<SearchRows> {
  return (
    (await titlesFirst(db, scope, options, parsed)) ??
    runSearch(db, scope, options, parsed, new Set())
  );
}

/**
 * The first page of an uncounted search by relevance, ranked among the documents whose title
 * starts with the query or holds every word of it, when there are more of them than the page
 * holds. Such a document scores at least 1 (a bonus of `scoreOf`; a title holding every word
 * only through synonyms counts, decision 164); any other scores only its `ts_rank`, which
 * normalised by 32 stays below 1. So they come first in the full order too: the page is the same,
 * and only they are ranked, not every document a broad stem matches (decision 057). Of those, the
 * titles that start with the query score at least 3 and the others less than 2.5: when the site's
 * titles say that more than a page of them start with it, only they
 * are ranked, and the rest of the tier is not read (decision 058). undefined: not applicable, or
 * too few such titles.
 */
async function titlesFirst(
  db: Database,
  scope: SearchScope,
  options: SearchOptions,
  parsed: ParsedQuery | undefined,
): Promise<SearchRows | undefined> {
  if (!parsed || !uncounted(scope, options) || options.page !== 1) return undefined;
  if (options.sortOrder !== 0 || options.hideResults) return undefined;
  // A word no title holds (a typo, a word of bodies only): no title is in either tier, and the
  // statements would find nothing before the full one runs.
  if (
    scope.lang &&
    !(await titlesMayHoldEvery(db, scope.siteId, scope.lang, parsed.terms.map(titlePartsOf)))
  )
    return undefined;
  // The LIKE lets the trigram index of titles find them; the other test is the bonus's own.
  const like = `${parsed.normalized.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const starts = sql`(d.title_lower like ${like} and ${startsWithQuery(parsed, scope)})`;
  if (
    scope.lang &&
    (await titlesStartingWithExceed(
      db,
      scope.siteId,
      scope.lang,
      parsed.normalized,
      options.pageSize,
    ))
  ) {
    const rows = await runSearch(db, scope, options, parsed, new Set(), starts);
    if (rows.hits.length > options.pageSize) return rows;
  }
  const inTitle = sql`(${starts} or ${holdsEveryWord(parsed, new Set(), true)})`;
  const rows = await runSearch(db, scope, options, parsed, new Set(), inTitle);
  return rows.hits.length > options.pageSize ? rows : undefined;
}

/**
 * What a term matches titles by, as lower-case strings a title word would hold: the lexemes of
 * its prefix query (`'kanan':* | 'kana':*`) and its substring patterns (`%kastik%`).
 */
function titlePartsOf(term: Term): string[] {
  const lexemes = [...term.tsquery.matchAll(/'((?:[^']|'')*)'/g)].map((m) =>
    (m[1] as string).replaceAll("''", "'"),
  );
  const likes = term.likes.map((like) => like.replace(/^%|%$/g, '').replace(/\\(.)/g, '$1'));
  // An alternative may match where the word does not: its terms' parts count too (this only
  // spares a statement, so holding more is safe).
  const alternatives = (term.alternatives ?? []).flat().flatMap(titlePartsOf);
  return [...lexemes, ...likes, ...alternatives].filter(Boolean);
}

/** A paged search without facet counts or selections that needs no total (quick suggestions). */
function uncounted(scope: SearchScope, options: SearchOptions): boolean {
  return (
    options.withoutTotal === true &&
    !options.skipPagination &&
    scope.facetScopes.length === 0 &&
    !options.facetTags?.length
  );
}

function hasFilter(options: SearchOptions): boolean {
  return Boolean(
    options.facetTags?.length ||
      options.matchAnyCategoryIds?.length ||
      options.matchAllCategoryIds?.length ||
      options.productGroup ||
      options.searchEquipments?.length ||
      options.authors?.length,
  );
}

function emptyResult(query: string): SearchResult {
  return { query, facetCategories: [], hits: [], totalCount: 0, hasMore: false };
}

interface HitRow {
  source: Source;
  source_id: number;
  type: string;
  path: string;
  title: string;
  teaser: string;
  image_id: number | null;
  category: string;
  like_count: number;
  total_time: number | null;
  is_novelty: boolean;
  published_at: string;
}

interface SearchRows {
  total: number;
  hits: HitRow[];
  facets: FacetCategory[];
}

/**
 * One statement over the scope's documents: the words' matches with the filters and facet
 * selections, ranked into the page, with the total and the facet counts of the same set.
 */
async function runSearch(
  db: Database,
  scope: SearchScope,
  options: SearchOptions,
  parsed: ParsedQuery | undefined,
  /** Words that may also match a title word one typo away. */
  fuzzy: ReadonlySet<string>,
  /**
   * One more condition every hit meets, more selective than the words: the rows are picked by it
   * (and its own indexes) first, and the words then test only those.
   */
  also?: SQL,
  /** Title words each loosened word may stand for (from the vocabulary), when known. */
  candidates?: ReadonlyMap<string, readonly string[]>,
  /** Any of the words instead of all (the last step before an empty answer). */
  anyWord = false,
): Promise<SearchRows> {
  const match = { parsed, fuzzy, candidates, anyWord };
  const filters = [...(also ? [] : scopeFilters(scope)), ...selectionFilters(options)];
  filters.push(...wordFilters(match));
  if (!filters.length) filters.push(sql`true`);
  const statement = searchStatement(scope, options, match, filters, also);
  const result = (await db.execute(statement)) as unknown as {
    rows: { total: number; hits: HitRow[] | string; facets: FacetCategory[] | string }[];
  };
  const row = result.rows[0];
  if (!row) return { total: 0, hits: [], facets: [] };
  return {
    total: row.total,
    hits: typeof row.hits === 'string' ? JSON.parse(row.hits) : row.hits,
    facets: typeof row.facets === 'string' ? JSON.parse(row.facets) : row.facets,
  };
}

/** How the query's words match: with typos, by vocabulary candidates, all of them or any. */
interface WordMatch {
  parsed: ParsedQuery | undefined;
  fuzzy: ReadonlySet<string>;
  candidates: ReadonlyMap<string, readonly string[]> | undefined;
  anyWord: boolean;
}

/** The visitor's selections other than facet tags: product group, categories, equipment, authors. */
function selectionFilters(options: SearchOptions): SQL[] {
  const filters: SQL[] = [];
  if (options.productGroup)
    filters.push(sql`lower(d.product_group) = ${options.productGroup.toLowerCase()}`);
  if (options.matchAnyCategoryIds?.length)
    filters.push(sql`d.category_ids && ${intArray(options.matchAnyCategoryIds)}::int[]`);
  if (options.matchAllCategoryIds?.length)
    filters.push(sql`d.category_ids @> ${intArray(options.matchAllCategoryIds)}::int[]`);
  if (options.searchEquipments?.length)
    filters.push(sql`d.equipment && ${textArray(options.searchEquipments)}::text[]`);
  if (options.authors?.length)
    filters.push(sql`d.authors && ${textArray(options.authors)}::text[]`);
  return filters;
}

/** Every word matches (a condition each), or with `anyWord` one of several does. */
function wordFilters({ parsed, fuzzy, candidates, anyWord }: WordMatch): SQL[] {
  const terms = parsed?.terms ?? [];
  const matches = terms.map((t) => termMatch(t, fuzzy, candidates, likenessOf(parsed)));
  if (anyWord && terms.length > 1) return [sql`(${sql.join(matches, sql` or `)})`];
  return matches;
}

/** Which rows of the ranked matches the answer carries, and whether they are counted. */
function windowOf(scope: SearchScope, options: SearchOptions, parsed: ParsedQuery | undefined) {
  const hidden =
    options.hideResults === true && (parsed?.terms ?? []).length === 0 && !hasFilter(options);
  const counted = !uncounted(scope, options);
  const limit = hidden
    ? 0
    : options.skipPagination
      ? MAX_UNPAGED_HITS
      : options.pageSize + (counted ? 0 : 1);
  const offset = options.skipPagination ? 0 : (options.page - 1) * options.pageSize;
  return { hidden, counted, limit, offset };
}

/** The statement: the matches (`passing`), their page, the total and the facet counts. */
function searchStatement(
  scope: SearchScope,
  options: SearchOptions,
  match: WordMatch,
  filters: SQL[],
  also: SQL | undefined,
): SQL {
  const { parsed } = match;
  const facetTags = options.facetTags ?? [];
  const selected = [
    ...new Set([
      ...facetTags,
      ...(options.matchAnyCategoryIds ?? []),
      ...(options.matchAllCategoryIds ?? []),
    ]),
  ];
  const { hidden, counted, limit, offset } = windowOf(scope, options, parsed);
  const withFacets = scope.facetScopes.length > 0;
  const order = orderOf(options.sortOrder, scope, parsed);
  // Without the count, `passing` is read once, by the page, so it is folded into it: the matches
  // are ranked straight into the page instead of being collected first.
  const total = hidden || !counted ? sql`0` : sql`(select count(*)::int from passing)`;
  return sql`
    with ${matchesOf(scope, options, match, filters, also)}
    top as (select * from passing order by ${order} limit ${limit} offset ${offset}),
    page as (select id, row_number() over (order by ${order}) as ord from top)
    ${withFacets ? facetCountsOf(facetTags.length > 0) : sql``}
    select
      ${total} as total,
      (select coalesce(json_agg(h order by h.ord), '[]'::json) from (
        select p.ord, d.source, d.source_id, d.type, d.path, d.title,
          case when d.teaser <> '' then d.teaser else left(d.body, 300) end as teaser,
          d.image_id, coalesce(d.category, ct.name, sp.title, '') as category, d.like_count,
          d.total_time, d.is_novelty, d.published_at
        from page p
        join search_documents d on d.id = p.id
        left join facet_tags ct on ct.id = d.category_ids[1]
        left join pages sp on d.source = 'page' and sp.site_id = d.site_id and sp.lang = d.lang
          and sp.path = '/' || split_part(d.path, '/', 2) and sp.id <> d.source_id
      ) h) as hits,
      ${withFacets ? facetsJson(scope, selected) : sql`'[]'::json`} as facets
  `;
}

/**
 * The statement's first common table expressions: the facet selections and the matching rows
 * (`passing`), each with only the columns the order and the facet counts need.
 */
function matchesOf(
  scope: SearchScope,
  options: SearchOptions,
  { parsed, fuzzy }: WordMatch,
  filters: SQL[],
  also: SQL | undefined,
): SQL {
  const facetTags = options.facetTags ?? [];
  // With `also` (the title tiers of titlesFirst), the planner would otherwise drive the scan by
  // the words' index on the whole text, whose broad stems match thousands of a site's documents,
  // and test the titles row by row; the fence (`offset 0`) makes it pick the tier's rows by the
  // title indexes first. `paistettu` at 100,000 documents: 38 → 10.5 ms, the same rows.
  const source = also
    ? sql`(select * from search_documents d
        where ${sql.join([...scopeFilters(scope), also], sql` and `)} offset 0) d`
    : sql`search_documents d`;
  // Facet selections: OR within a category, AND across categories. `failed` lists the selected
  // categories a document misses, so one pass gives both the hits (none missed) and each tag's
  // count with its own category's selection left out (at most that category missed).
  const selections = facetTags.length
    ? sql`sel as (
        select coalesce(t.category_id, -x.id) as category_id, array_agg(x.id) as ids
        from unnest(${intArray(facetTags)}::int[]) as x(id)
        left join facet_tags t on t.id = x.id
        group by 1
      ),`
    : sql``;
  const failed = sql`array(select s.category_id from sel s where not (d.facet_tag_ids && s.ids))`;
  const score = parsed ? scoreOf(parsed, fuzzy, scope) : sql`0::real`;
  // Only the columns the order and the facet counts need are carried: every matching row passes
  // through the CTE. Without selected tags `passing` is the match itself, read once.
  const carried = [sql`d.id`, sql`d.title`];
  if (scope.facetScopes.length > 0 || facetTags.length) carried.push(sql`d.facet_tag_ids`);
  if (options.sortOrder === 2 || !parsed) carried.push(sql`d.published_at`);
  if (options.sortOrder === 3 || !parsed) carried.push(sql`d.like_count`);
  if (!parsed) carried.push(sql`d.is_novelty`);
  const where = sql.join(filters, sql` and `);
  const scan = sql`
      select ${sql.join(carried, sql`, `)}, ${score} as score${facetTags.length ? sql`, ${failed} as failed` : sql``}
      from ${source}${fuzzy.size && parsed ? likenessJoin(parsed) : sql``}
      where ${where}`;
  const matches = facetTags.length
    ? sql`matched as (${scan}),
    passing as (select * from matched where cardinality(failed) = 0),`
    : sql`passing as (${scan}),`;
  return sql`${selections}
    ${matches}`;
}

/** A word matches the full text (as written or stemmed, as a prefix) or sits inside a title word. */
function scopeFilters(scope: SearchScope): SQL[] {
  const filters: SQL[] = [sql`d.site_id = ${scope.siteId}`, sql`d.lang = ${scope.lang}`];
  if (scope.sources) filters.push(sql`d.source = any(${textArray(scope.sources)}::text[])`);
  return filters;
}

/** The words of a query that found nothing as a whole that match no document of the scope on their own. */
async function wordsFindingNothing(
  db: Database,
  scope: SearchScope,
  terms: readonly Term[],
): Promise<string[]> {
  // One word of a search that found nothing is itself the unknown one; of several, ask which.
  if (terms.length === 1) return terms.map((t) => t.word);
  const where = sql.join(scopeFilters(scope), sql` and `);
  const checks = terms.map(
    (term, i) =>
      sql`exists (select 1 from search_documents d where ${where} and ${termMatch(term, new Set())}) as ${sql.identifier(`t${i}`)}`,
  );
  const result = (await db.execute(sql`select ${sql.join(checks, sql`, `)}`)) as unknown as {
    rows: Record<string, boolean>[];
  };
  const row = result.rows[0] ?? {};
  return terms.filter((_, i) => !row[`t${i}`]).map((t) => t.word);
}

/**
 * A typo search measures the title's likeness to the whole query once per row, in a lateral
 * subquery (`offset 0` keeps the planner from folding it back into each use): the score reads it,
 * and so does the word's own test when the query is that one word. `word_similarity` was the
 * costliest part of a typo search, and it ran twice per title.
 */
function likenessJoin(parsed: ParsedQuery): SQL {
  return sql` cross join lateral (select word_similarity(${parsed.normalized}, d.title_lower) as likeness offset 0) l`;
}

/** The query word whose likeness the lateral `l.likeness` holds: a one-word query's word. */
function likenessOf(parsed: ParsedQuery | undefined): string | undefined {
  const only = parsed?.terms.length === 1 ? parsed.terms[0] : undefined;
  return only && only.word === parsed?.normalized ? only.word : undefined;
}

function termMatch(
  term: Term,
  fuzzy: ReadonlySet<string>,
  candidates?: ReadonlyMap<string, readonly string[]>,
  /** The word whose likeness to the title the lateral `l.likeness` already holds. */
  measured?: string,
): SQL {
  const likeness =
    measured === term.word ? sql`l.likeness` : sql`word_similarity(${term.word}, d.title_lower)`;
  const close = candidates?.get(term.word);
  if (fuzzy.has(term.word) && close?.length) {
    // The title words the vocabulary found close enough: each is a substring test the trigram
    // index answers precisely, and only those titles are measured for likeness.
    const likes = close.map((w) => sql`d.title_lower like ${`%${w}%`}`);
    return sql`((${sql.join(likes, sql` or `)}) and ${likeness} >= ${typoSimilarity(term.word)})`;
  }
  if (fuzzy.has(term.word)) {
    // A loosened word is one that matched nothing of the scope as written, so only its likeness
    // is asked. `<%` compares with the transaction's threshold, the lowest bar of the loosened
    // words; a word whose own bar is that one needs no second, costly `word_similarity` call.
    const bar = typoSimilarity(term.word);
    return bar <= typoThreshold(fuzzy)
      ? sql`(${term.word} <% d.title_lower)`
      : sql`(${term.word} <% d.title_lower and ${likeness} >= ${bar})`;
  }
  const parts = term.tsquery ? [sql`d.search @@ ${term.tsquery}::tsquery`] : [];
  for (const like of term.likes) parts.push(sql`d.title_lower like ${like}`);
  for (const alternative of term.alternatives ?? [])
    parts.push(
      sql`(${sql.join(
        alternative.map((t) => termMatch(t, new Set())),
        sql` and `,
      )})`,
    );
  return parts.length ? sql`(${sql.join(parts, sql` or `)})` : sql`false`;
}

/**
 * The title words each loosened word may stand for, from the scope's vocabulary. 'none': some
 * loosened word is close to no title word, so the typo search finds nothing. undefined: some word
 * has too many candidates; the likeness test then runs over every title of the scope.
 */
async function typoCandidatesOf(
  db: Database,
  scope: SearchScope,
  fuzzy: ReadonlySet<string>,
): Promise<Map<string, string[]> | 'none' | undefined> {
  if (!scope.lang) return 'none';
  const found = new Map<string, string[]>();
  for (const word of fuzzy) {
    const close = await typoCandidates(db, scope.siteId, scope.lang, word, typoSimilarity(word));
    if (!close) return undefined;
    if (close.length === 0) return 'none';
    found.set(word, close);
  }
  return found;
}

/** The threshold of `<%` in a typo search: the lowest bar of the loosened words. */
function typoThreshold(fuzzy: ReadonlySet<string>): number {
  return Math.min(...[...fuzzy].map(typoSimilarity));
}

/**
 * Relevance: rank over title (A), teaser (B) and body (C), plus a bonus when the title is the
 * query (6), starts with it (3), or holds every word (1.5 in the words' own forms, 1 through a
 * synonym or another alternative: an exact match is not drowned by its synonyms, decision 164).
 * The rank stays below 1, so each bonus orders the documents before the rank does. Typo searches
 * add the title's trigram likeness to the query; ordinary ones leave it out, as computing it for
 * every match is the costliest part.
 */
function scoreOf(parsed: ParsedQuery, fuzzy: ReadonlySet<string>, scope: SearchScope): SQL {
  const likeness = fuzzy.size ? sql` + l.likeness * 2` : sql``;
  const length = [...parsed.normalized].length;
  const rank = sql`ts_rank('{0.1, 0.2, 0.4, 1.0}', d.search, ${parsed.anyTsquery}::tsquery, 32)`;
  return sql`(
    ${mixesNews(scope) ? sql`${rank} * case when d.source = 'news' then 0.5 else 1 end` : rank}
    + case when ${startsWithQuery(parsed, scope)}
        then case when length(d.title) = ${length} then 6 else 3 end
        else 0 end
    + ${everyWordBonus(parsed, fuzzy)}${likeness}
  )::real`;
}

/** The every-word bonus of `scoreOf`: 1.5 in the words' own forms, 1 through alternatives. */
function everyWordBonus(parsed: ParsedQuery, fuzzy: ReadonlySet<string>): SQL {
  const own = holdsEveryWord(parsed, fuzzy, false);
  if (!parsed.terms.some((t) => t.alternatives?.length && !t.phrase))
    return sql`case when ${own} then 1.5 else 0 end`;
  return sql`case when ${own} then 1.5 when ${holdsEveryWord(parsed, fuzzy, true)} then 1 else 0 end`;
}

/**
 * The title is the query or starts with it: the bonus of 6 or 3 in `scoreOf`. Not for a news
 * release among other sources: a release's headline leads with its occasion (`Grilling season
 * starts…`), so there its start says less of its subject than a product's, recipe's or page's
 * title does; it keeps the every-word bonus and its rank. Among releases only, it counts.
 */
function startsWithQuery(parsed: ParsedQuery, scope: SearchScope): SQL {
  const length = [...parsed.normalized].length;
  const starts = sql`left(d.title_lower, ${length}) = ${parsed.normalized}`;
  return mixesNews(scope) ? sql`(${starts} and d.source <> 'news')` : starts;
}

/** The scope holds news releases and other sources too. */
function mixesNews(scope: SearchScope): boolean {
  return scope.sources === null || (scope.sources.includes('news') && scope.sources.length > 1);
}

/**
 * The title holds every word (as written, stemmed, or inside a title word; with `alternatives`
 * also through a synonym): the bonus of `scoreOf`. Asked of the title's own short vector, not of
 * the whole document's.
 */
function holdsEveryWord(
  parsed: ParsedQuery,
  fuzzy: ReadonlySet<string>,
  alternatives: boolean,
): SQL {
  // A loosened word is in no title as written, so no typo search earns the every-word bonus.
  const inTitle = parsed.terms.map((t) =>
    fuzzy.has(t.word) ? sql`false` : termInTitle(t, alternatives),
  );
  return sql`(${sql.join(inTitle, sql` and `)})`;
}

/**
 * The term in the title: as written, stemmed or inside a title word, or (with `alternatives`) one
 * of its alternatives. A phrase's own form is its words, its first alternative.
 */
function termInTitle(t: Term, alternatives: boolean): SQL {
  const parts = t.tsquery ? [sql`d.title_search @@ ${t.tsquery}::tsquery`] : [];
  for (const like of t.likes) parts.push(sql`d.title_lower like ${like}`);
  const others = t.alternatives ?? [];
  for (const alternative of alternatives ? others : t.phrase ? others.slice(0, 1) : [])
    parts.push(
      sql`(${sql.join(
        alternative.map((a) => termInTitle(a, false)),
        sql` and `,
      )})`,
    );
  return parts.length ? sql`(${sql.join(parts, sql` or `)})` : sql`false`;
}

function orderOf(sortOrder: SortOrder, scope: SearchScope, parsed: ParsedQuery | undefined): SQL {
  const tieBreak = sql`length(title), id`;
  switch (sortOrder) {
    case 1:
      return sql`lower(title) collate "C", id`;
    case 2:
      return sql`published_at desc, id desc`;
    case 3:
      return sql`like_count desc, score desc, ${tieBreak}`;
    default:
      if (parsed) return sql`score desc, ${tieBreak}`;
      if (scope.sources?.length === 1 && scope.sources[0] === 'news')
        return sql`published_at desc, id desc`;
      return sql`is_novelty desc, like_count desc, lower(title) collate "C", id`;
  }
}

function facetCountsOf(withSelections: boolean): SQL {
  return withSelections
    ? sql`, counts as (
        select x.tag, count(*)::int as n
        from (select unnest(m.facet_tag_ids) as tag, m.failed from matched m) x
        join facet_tags t on t.id = x.tag
        where cardinality(x.failed) = 0 or x.failed = array[t.category_id]
        group by x.tag
      )`
    : sql`, counts as (
        select x.tag, count(*)::int as n
        from (select unnest(m.facet_tag_ids) as tag from passing m) x
        group by x.tag
      )`;
}

function facetsJson(scope: SearchScope, selected: readonly number[]): SQL {
  return sql`(
    select coalesce(json_agg(json_build_object(
      'id', c.id,
      'name', c.name,
      'facetTags', (
        select coalesce(json_agg(json_build_object(
          'id', t.id,
          'name', t.name,
          'count', coalesce(k.n, 0),
          'selected', t.id = any(${intArray(selected)}::int[]),
          'display', t.display
        ) order by t.sort_order, t.id), '[]'::json)
        from facet_tags t
        left join counts k on k.tag = t.id
        where t.category_id = c.id
      )
    ) order by c.sort_order, c.id), '[]'::json)
    from facet_categories c
    where c.site_id = ${scope.siteId} and c.lang = ${scope.lang}
      and c.scope = any(${textArray(scope.facetScopes)}::text[])
  )`;
}

const PRODUCT_THUMBNAIL_TYPES = new Set(['retail-product', 'broiler-product']);

/** The thumbnail preset of a hit: packs on white for retail and broiler products. */
export function thumbnailPreset(type: string): 'product-thumbnail-medium' | 'thumbnail-medium' {
  return PRODUCT_THUMBNAIL_TYPES.has(type) ? 'product-thumbnail-medium' : 'thumbnail-medium';
}

function toHit(row: HitRow, urlPrefix: string): SearchHit {
  return {
    contentId: contentIdOf({ kind: row.source, id: row.source_id }),
    title: row.title,
    category: row.category,
    teaserText: shorten(row.teaser, 200),
    image:
      row.image_id === null
        ? null
        : imageUrl({ id: row.image_id, slug: row.title }, thumbnailPreset(row.type)),
    url: `${urlPrefix}${row.path}`,
    type: row.type,
    likeCount: row.like_count,
    novelty: row.is_novelty,
    totalTime: row.total_time,
    publishDate: new Date(row.published_at).toISOString(),
  };
}

/** Text cut at a word boundary with an ellipsis when longer than `max` characters. */
export function shorten(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:–-]+$/, '')}…`;
}

/** A PostgreSQL array literal of integers, for one bound parameter. */
function intArray(values: readonly number[]): string {
  return `{${values.map((v) => Math.trunc(v)).join(',')}}`;
}

/** A PostgreSQL array literal of texts, each quoted, for one bound parameter. */
export function textArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}
