import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';

/**
 * The title words of each site and language, kept in memory for the typo pass of search. A typed
 * word that finds nothing is compared here with the distinct title words (a few thousand per site
 * and language at 100,000 documents) instead of with every title in the database: the words close
 * enough to be what was meant become `LIKE '%word%'` tests that the trigram index of titles
 * answers precisely, and only those titles get the costly `word_similarity`. A word close to
 * nothing costs no statement at all.
 *
 * A vocabulary follows the documents: the table's write counters (`pg_stat_user_tables`) are read
 * at most once a second by a typo search, and any insert, update or delete of a search document
 * drops every vocabulary of that database; each is also rebuilt after five minutes whatever the
 * counters say. A vocabulary that is briefly stale can only miss a typo of a word added moments
 * ago; exact and prefix matches never use it.
 */

/** How often a typo search asks the database whether the documents changed. */
export const CHANGE_CHECK_MS = 1000;
/** A vocabulary is rebuilt after this long even when no change was seen. */
const MAX_AGE_MS = 5 * 60_000;
/** More candidate words than this: the caller falls back to the likeness test over all titles. */
export const MAX_CANDIDATES = 40;

export interface Vocabulary {
  builtAt: number;
  words: string[];
  /**
   * The distinct lower-cased titles of every source but news releases (the titles that earn the
   * start bonus in the quick suggestions' mixed scope, decision 059), sorted by UTF-16 code units.
   */
  titles: string[];
  /** Trigram → indices into `words` of the words holding it. */
  postings: Map<string, number[]>;
  /**
   * Kept with the words by the base-form search (`base-forms.server.ts`), so it follows the same
   * invalidation: base form or compound part → title words analysed to it, and which candidate
   * stems some title word contains.
   */
  lemmas?: { index: Map<string, string[]>; contained: Map<string, boolean> };
}

interface DatabaseState {
  signature: string | undefined;
  checkedAt: number;
  vocabularies: Map<string, Promise<Vocabulary>>;
}

const states = new WeakMap<Database, DatabaseState>();

/**
 * The trigrams of one word as pg_trgm makes them: the word padded with two spaces in front and one
 * behind, each distinct run of three characters once.
 */
export function trigramsOf(word: string): Set<string> {
  const chars = [' ', ' ', ...word, ' '];
  const trigrams = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) trigrams.add(chars.slice(i, i + 3).join(''));
  return trigrams;
}

/** Lower-case words of a title, split as pg_trgm splits them (letters and digits). */
export function titleWordsOf(title: string): string[] {
  return title
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * The title words of a site and language that may be a typo of `word` by pg_trgm's
 * `word_similarity` at `bar`: those sharing at least `bar` of the word's trigrams. That is the
 * most any stretch of a title inside one word can reach (the likeness is the shared trigrams over
 * the union of both sets), so no title word the likeness test would accept is left out; the
 * caller still applies the test itself. undefined: too many to be worth it.
 */
export async function typoCandidates(
  db: Database,
  siteId: string,
  lang: string,
  word: string,
  bar: number,
): Promise<string[] | undefined> {
  const vocabulary = await vocabularyOf(db, siteId, lang);
  const trigrams = trigramsOf(word);
  const needed = Math.ceil(bar * trigrams.size - 1e-9);
  const shared = new Map<number, number>();
  for (const trigram of trigrams) {
    for (const index of vocabulary.postings.get(trigram) ?? []) {
      shared.set(index, (shared.get(index) ?? 0) + 1);
    }
  }
  const candidates: string[] = [];
  for (const [index, count] of shared) {
    if (count < needed) continue;
    candidates.push(vocabulary.words[index] as string);
    if (candidates.length > MAX_CANDIDATES) return undefined;
  }
  return candidates.sort();
}

const wordSets = new WeakMap<Vocabulary, Set<string>>();

/** The title words of a vocabulary as a set, made once per vocabulary. */
export function wordSetOf(vocabulary: Vocabulary): ReadonlySet<string> {
  let words = wordSets.get(vocabulary);
  if (!words) {
    words = new Set(vocabulary.words);
    wordSets.set(vocabulary, words);
  }
  return words;
}

/** The title words of a site and language (built once, dropped when the documents change). */
export async function vocabularyOf(
  db: Database,
  siteId: string,
  lang: string,
): Promise<Vocabulary> {
  let state = states.get(db);
  if (!state) {
    state = { signature: undefined, checkedAt: 0, vocabularies: new Map() };
    states.set(db, state);
  }
  const now = Date.now();
  if (now - state.checkedAt >= CHANGE_CHECK_MS) {
    state.checkedAt = now;
    const signature = await signatureOf(db);
    if (signature !== state.signature) {
      state.signature = signature;
      state.vocabularies.clear();
    }
  }
  const key = `${siteId}\u0000${lang}`;
  let pending = state.vocabularies.get(key);
  if (pending) {
    const built = await pending.catch(() => undefined);
    if (built && now - built.builtAt < MAX_AGE_MS) return built;
    if (state.vocabularies.get(key) === pending) state.vocabularies.delete(key);
  }
  pending = state.vocabularies.get(key) ?? buildVocabulary(db, siteId, lang);
  state.vocabularies.set(key, pending);
  try {
    return await pending;
  } catch (error) {
    if (state.vocabularies.get(key) === pending) state.vocabularies.delete(key);
    throw error;
  }
}

/** What changes when any search document is written: the table's write counters. */
async function signatureOf(db: Database): Promise<string> {
  const result = (await db.execute(sql`
    select coalesce(n_tup_ins, 0)::text || ':' || coalesce(n_tup_upd, 0)::text || ':' ||
      coalesce(n_tup_del, 0)::text || ':' || coalesce(n_live_tup, 0)::text as signature
    from pg_stat_user_tables where relid = 'search_documents'::regclass
  `)) as unknown as { rows: { signature: string }[] };
  return result.rows[0]?.signature ?? '';
}

async function buildVocabulary(db: Database, siteId: string, lang: string): Promise<Vocabulary> {
  const builtAt = Date.now();
  const result = (await db.execute(sql`
    select distinct title_lower as title, source = 'news' as news from search_documents
    where site_id = ${siteId} and lang = ${lang}
  `)) as unknown as { rows: { title: string; news: boolean }[] };
  const distinct = new Set<string>();
  const titles = new Set<string>();
  for (const row of result.rows) {
    if (!row.news) titles.add(row.title);
    for (const w of titleWordsOf(row.title)) distinct.add(w);
  }
  // The default order is by UTF-16 code units: a prefix's titles stand together.
  const sorted = [...titles].sort();
  const words = [...distinct];
  const postings = new Map<string, number[]>();
  words.forEach((w, index) => {
    for (const trigram of trigramsOf(w)) {
      const list = postings.get(trigram);
      if (list) list.push(index);
      else postings.set(trigram, [index]);
    }
  });
  return { builtAt, words, titles: sorted, postings };
}

/**
 * Whether more than `count` distinct titles of a site and language (news releases aside) start
 * with `prefix` (lower case), by a binary search of the sorted titles. Like the words, it may be a
 * second behind the documents, so the answer only chooses which statement to run, never what a
 * search answers.
 */
export async function titlesStartingWithExceed(
  db: Database,
  siteId: string,
  lang: string,
  prefix: string,
  count: number,
): Promise<boolean> {
  const { titles } = await vocabularyOf(db, siteId, lang);
  return startingWithExceeds(titles, prefix, count);
}

/** Whether more than `count` of the sorted `titles` start with `prefix`. */
export function startingWithExceeds(
  titles: readonly string[],
  prefix: string,
  count: number,
): boolean {
  let low = 0;
  let high = titles.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((titles[middle] as string) < prefix) low = middle + 1;
    else high = middle;
  }
  const beyond = titles[low + count];
  return beyond?.startsWith(prefix) === true;
}

/** Words shorter than this are not corrected by spelling variants (too many would fit). */
const MIN_CORRECTED_LENGTH = 5;
const VOWELS = 'aeiouyäöå';

/**
 * Spellings one slip away from a typed word, of the kinds visitors make and trigram likeness
 * misses on short words: a letter left out or doubled, two neighbours swapped (`brolieri`), a vowel
 * left out (`kastke`), a doubled consonant doubled in the wrong place (`makarra` → makkara).
 */
export function spellingVariants(word: string): string[] {
  const chars = [...word];
  const out = new Set<string>();
  const at = (i: number) => chars[i] ?? '';
  for (let i = 0; i < chars.length; i++) {
    out.add([...chars.slice(0, i), ...chars.slice(i + 1)].join(''));
    out.add([...chars.slice(0, i + 1), at(i), ...chars.slice(i + 1)].join(''));
    if (i + 1 < chars.length && at(i) !== at(i + 1)) {
      out.add([...chars.slice(0, i), at(i + 1), at(i), ...chars.slice(i + 2)].join(''));
    }
  }
  for (let i = 1; i < chars.length; i++) {
    for (const v of VOWELS) out.add([...chars.slice(0, i), v, ...chars.slice(i)].join(''));
  }
  for (let i = 0; i + 1 < chars.length; i++) {
    if (at(i) !== at(i + 1) || VOWELS.includes(at(i))) continue;
    const single = [...chars.slice(0, i), ...chars.slice(i + 1)];
    for (let j = 1; j < single.length; j++) {
      const c = single[j] ?? '';
      if (j === i || VOWELS.includes(c)) continue;
      out.add([...single.slice(0, j + 1), c, ...single.slice(j + 1)].join(''));
    }
  }
  out.delete(word);
  return [...out];
}

/**
 * The spelling of `word` one slip away (spellingVariants) that the site's title words hold: a
 * whole title word first, otherwise the variant inside the most title words. undefined: none, or
 * the word is too short to correct.
 */
export async function spellingCorrection(
  db: Database,
  siteId: string,
  lang: string,
  word: string,
): Promise<string | undefined> {
  if ([...word].length < MIN_CORRECTED_LENGTH) return undefined;
  const vocabulary = await vocabularyOf(db, siteId, lang);
  const whole = wordSetOf(vocabulary);
  let best: { variant: string; count: number } | undefined;
  for (const variant of spellingVariants(word)) {
    if (whole.has(variant)) return variant;
    let count = 0;
    for (const w of vocabulary.words) if (w.includes(variant)) count++;
    if (count > (best?.count ?? 0)) best = { variant, count };
  }
  // Slips of other kinds (a consonant left out: `chiken` → chicken): a whole title word one edit
  // away, before the costlier trigram likeness over the titles.
  return best?.variant ?? closestTitleWord(vocabulary.words, word, 1);
}

/** Whether some title word of the site holds the typed word (as a prefix, a tail or inside). */
export async function inTitleWords(
  db: Database,
  siteId: string,
  lang: string,
  word: string,
): Promise<boolean> {
  return someTitleWordHolds(await vocabularyOf(db, siteId, lang), word);
}

/**
 * Whether every one of `terms` may match some title of the site: each is the lower-case strings
 * a query word matches titles by (its written form, stems and base forms as prefixes or inside a
 * title word), and a term matches only where a title word holds one of them. false: no title can
 * hold every word (a typo, a word only bodies use), so a statement asking the titles alone would
 * find nothing. A stem the index made otherwise than by cutting the word (`patty` → `patti`) can
 * make it false where a title would match: the answer only spares a statement, it never decides
 * what a search answers.
 */
export async function titlesMayHoldEvery(
  db: Database,
  siteId: string,
  lang: string,
  terms: readonly (readonly string[])[],
): Promise<boolean> {
  const vocabulary = await vocabularyOf(db, siteId, lang);
  return terms.every((parts) => parts.some((part) => someTitleWordHolds(vocabulary, part)));
}

const heldParts = new WeakMap<Vocabulary, Map<string, boolean>>();
/** Answers kept per vocabulary; beyond this many, the oldest go. */
const HELD_PARTS_MAX = 5_000;

/** Whether some title word of the vocabulary holds `part`, remembered for the vocabulary's life. */
function someTitleWordHolds(vocabulary: Vocabulary, part: string): boolean {
  let known = heldParts.get(vocabulary);
  if (!known) {
    known = new Map();
    heldParts.set(vocabulary, known);
  }
  let held = known.get(part);
  if (held === undefined) {
    held = vocabulary.words.some((w) => w.includes(part));
    if (known.size >= HELD_PARTS_MAX) known.delete(known.keys().next().value as string);
    known.set(part, held);
  }
  return held;
}

/**
 * Edits between two words (a letter inserted, left out or changed, two neighbours swapped), or
 * `max + 1` as soon as it is certain to be more than `max`.
 */
export function editDistance(a: string, b: string, max: number): number {
  const x = [...a];
  const y = [...b];
  if (Math.abs(x.length - y.length) > max) return max + 1;
  let before: number[] = [];
  let previous = y.map((_, j) => j + 1);
  previous.unshift(0);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let d = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1])
        d = Math.min(d, (before[j - 2] ?? 0) + 1);
      current.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    before = previous;
    previous = current;
  }
  return Math.min(previous[y.length] ?? max + 1, max + 1);
}

/**
 * Words at least this long may be two edits from what was meant (`bolognaise` → bolognese), as
 * with Elasticsearch's `fuzziness: AUTO`; shorter ones one slip at most (spellingVariants).
 */
export const FAR_TYPO_MIN_LENGTH = 8;

/**
 * The title word of the site two edits from a long typed word (`bolognaise` → bolognese), for the
 * typo step when one slip finds nothing: the closest, then the one of the same first letter and
 * nearest length. undefined: the word is shorter than FAR_TYPO_MIN_LENGTH or no title word is that
 * close.
 */
export async function farSpellingCorrection(
  db: Database,
  siteId: string,
  lang: string,
  word: string,
): Promise<string | undefined> {
  if ([...word].length < FAR_TYPO_MIN_LENGTH) return undefined;
  const vocabulary = await vocabularyOf(db, siteId, lang);
  return closestTitleWord(vocabulary.words, word, 2);
}

/**
 * The title word at most `max` edits from `word` (none for the word itself): the closest, then one
 * of the same first letter, then the nearest length, then the first in order. undefined: none.
 */
export function closestTitleWord(
  words: readonly string[],
  word: string,
  max: number,
): string | undefined {
  const length = [...word].length;
  let best: { w: string; rank: [number, number, number] } | undefined;
  for (const w of words) {
    const d = editDistance(word, w, max);
    if (d > max || d === 0) continue;
    const rank: [number, number, number] = [
      d,
      w[0] === word[0] ? 0 : 1,
      Math.abs([...w].length - length),
    ];
    if (
      !best ||
      rank[0] < best.rank[0] ||
      (rank[0] === best.rank[0] &&
        (rank[1] < best.rank[1] ||
          (rank[1] === best.rank[1] &&
            (rank[2] < best.rank[2] || (rank[2] === best.rank[2] && w < best.w)))))
    )
      best = { w, rank };
  }
  return best?.w;
}
