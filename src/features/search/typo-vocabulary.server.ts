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

interface Vocabulary {
  builtAt: number;
  words: string[];
  /** Trigram → indices into `words` of the words holding it. */
  postings: Map<string, number[]>;
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

async function vocabularyOf(db: Database, siteId: string, lang: string): Promise<Vocabulary> {
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
    select distinct lower(title) as title from search_documents
    where site_id = ${siteId} and lang = ${lang}
  `)) as unknown as { rows: { title: string }[] };
  const distinct = new Set<string>();
  for (const row of result.rows) for (const w of titleWordsOf(row.title)) distinct.add(w);
  const words = [...distinct];
  const postings = new Map<string, number[]>();
  words.forEach((w, index) => {
    for (const trigram of trigramsOf(w)) {
      const list = postings.get(trigram);
      if (list) list.push(index);
      else postings.set(trigram, [index]);
    }
  });
  return { builtAt, words, postings };
}
