import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { contentVersionOf } from '../../db/content-changes.ts';
import type { Lang } from '../../sites/types.ts';
import { analyseWord } from './analysis/analyser.server.ts';

/**
 * Synonyms in search (decision 164): the sets of `search_synonyms`, per search language, read once
 * per process and kept until the content version moves. A write to the table is a content change
 * (src/db/content-changes.ts), so a set staff save in one process is heard by every other process
 * through PostgreSQL's notification within milliseconds, and the next search there reads the sets
 * again. A database object no handle registered (scripts) keeps them for `UNVERSIONED_MS`.
 *
 * A query word's alternatives come from the sets (`kana` → broileri, `jauhis` → jauheliha), from
 * the sets' phrases (`hot dog` → hodari), from a compound whose part has synonyms (`kanapihvi` →
 * broileri + pihvi, `saunalenkki` → sauna + makkara). The query builder matches each alternative
 * beside the word itself. (A Finnish descriptive adjective's noun, `pippurinen` → pippuri, is one
 * of the word's own base forms: base-forms.server.ts.)
 */

export type SynonymKind = 'two-way' | 'one-way';

export interface SynonymSet {
  id: number;
  lang: string;
  kind: SynonymKind;
  terms: string[];
  targets: string[];
  version: number;
  updatedAt: string;
}

/** A language's sets, arranged for lookup. */
export interface SynonymIndex {
  /** One-word term → what it also stands for (phrases as written: `sika-nauta jauheliha`). */
  words: Map<string, string[]>;
  /** Multi-word terms by their first word: the words and what the phrase stands for. */
  phrases: Map<string, { words: string[]; alternatives: string[] }[]>;
  /** One-word terms long enough to be a compound's part, longest first. */
  parts: string[];
}

/** A stretch of the query's words and what else it may be written as. */
export interface Expansion {
  /** The query's words the stretch covers (one, or a phrase's). */
  words: string[];
  /** Each alternative as its words; all of an alternative's words must match. */
  alternatives: string[][];
}

/** Sets kept this long by a database object without a content version (scripts, benches). */
const UNVERSIONED_MS = 2_000;
/** A compound's part and the rest must each be at least this long. */
const MIN_PART = 3;
/** Alternatives of one word beyond this many are left out (a compound of many synonym parts). */
const MAX_ALTERNATIVES = 12;

interface Cached {
  version: number | undefined;
  at: number;
  byLang: Map<string, Promise<SynonymIndex>>;
}

const caches = new WeakMap<object, Cached>();

/** The sets of a language as an index, read once per content version. */
export function synonymsOf(db: Database, lang: Lang): Promise<SynonymIndex> {
  const version = contentVersionOf(db);
  const now = Date.now();
  let cached = caches.get(db);
  const current = version?.complete ? version.current : undefined;
  const stale =
    !cached ||
    (version?.complete
      ? cached.version !== current
      : now - cached.at > (version ? 1_000 : UNVERSIONED_MS));
  if (!cached || stale) {
    cached = { version: current, at: now, byLang: new Map() };
    caches.set(db, cached);
  }
  let index = cached.byLang.get(lang);
  if (!index) {
    const mine = cached;
    index = readIndex(db, lang);
    mine.byLang.set(lang, index);
    index.catch(() => mine.byLang.delete(lang));
  }
  return index;
}

async function readIndex(db: Database, lang: Lang): Promise<SynonymIndex> {
  const result = (await db.execute(sql`
    select kind, terms, targets from search_synonyms where lang = ${lang} order by id
  `)) as unknown as { rows: { kind: SynonymKind; terms: string[]; targets: string[] }[] };
  return indexOf(result.rows);
}

/** The sets arranged for lookup (pure: tested on its own). */
export function indexOf(
  sets: readonly { kind: SynonymKind; terms: readonly string[]; targets: readonly string[] }[],
): SynonymIndex {
  const words = new Map<string, string[]>();
  const phrases = new Map<string, { words: string[]; alternatives: string[] }[]>();
  const add = (term: string, alternatives: readonly string[]) => {
    const key = normalizeTerm(term);
    const others = alternatives.map(normalizeTerm).filter((a) => a && a !== key);
    if (!key || !others.length) return;
    const split = key.split(' ');
    if (split.length === 1) {
      words.set(key, [...new Set([...(words.get(key) ?? []), ...others])]);
      return;
    }
    const first = split[0] as string;
    const list = phrases.get(first) ?? [];
    const known = list.find((p) => p.words.join(' ') === key);
    if (known) known.alternatives = [...new Set([...known.alternatives, ...others])];
    else list.push({ words: split, alternatives: others });
    phrases.set(first, list);
  };
  for (const set of sets) {
    if (set.kind === 'two-way') for (const term of set.terms) add(term, set.terms);
    else for (const term of set.terms) add(term, set.targets);
  }
  // The longest phrases first: `chicken nuggets` before `chicken`.
  for (const list of phrases.values()) list.sort((a, b) => b.words.length - a.words.length);
  const parts = [...words.keys()]
    .filter((w) => [...w].length >= MIN_PART && /^\p{L}+$/u.test(w))
    .sort((a, b) => b.length - a.length || a.localeCompare(b));
  return { words, phrases, parts };
}

/** A term as stored and compared: lower case, single spaces. */
export function normalizeTerm(term: string): string {
  return term.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * The query's words in stretches, each with its alternatives (none for most words). `analyse`
 * gives a word's base forms and compound parts (the search's analyser).
 */
export function expand(
  index: SynonymIndex,
  lang: Lang,
  words: readonly string[],
  analyse: (word: string) => { lemmas: string[]; parts: string[] } = (w) => analyseWord(lang, w),
): Expansion[] {
  const out: Expansion[] = [];
  for (let i = 0; i < words.length; i++) {
    const phrase = phraseAt(index, words, i, analyse);
    if (phrase) {
      out.push(phrase);
      i += phrase.words.length - 1;
      continue;
    }
    const word = words[i] as string;
    out.push({ words: [word], alternatives: wordAlternatives(index, word, analyse) });
  }
  return out;
}

/** A phrase of the sets starting at `i` (its last word may be inflected: `hot dogit`). */
function phraseAt(
  index: SynonymIndex,
  words: readonly string[],
  i: number,
  analyse: (word: string) => { lemmas: string[] },
): Expansion | undefined {
  const first = words[i] as string;
  const candidates = [first, ...analyse(first).lemmas];
  for (const key of new Set(candidates)) {
    for (const phrase of index.phrases.get(key) ?? []) {
      const n = phrase.words.length;
      if (i + n > words.length) continue;
      const typed = words.slice(i, i + n);
      const fits = phrase.words.every((w, k) => {
        const t = typed[k] as string;
        if (t === w || (k === 0 && key === w)) return true;
        if (k === n - 1 && t.startsWith(w) && [...t].length - [...w].length <= 3) return true;
        return analyse(t).lemmas.includes(w);
      });
      if (fits)
        return { words: typed, alternatives: phrase.alternatives.map((a) => a.split(/[\s-]+/)) };
    }
  }
  return undefined;
}

/** What one word may also be written as: its synonyms, or a compound's with a part's synonyms. */
function wordAlternatives(
  index: SynonymIndex,
  word: string,
  analyse: (word: string) => { lemmas: string[]; parts: string[] },
): string[][] {
  const analysis = analyse(word);
  const alternatives: string[][] = [];
  const seen = new Set<string>();
  const push = (alternative: string[]) => {
    const key = alternative.join(' ');
    if (alternatives.length >= MAX_ALTERNATIVES || seen.has(key) || key === word) return;
    seen.add(key);
    alternatives.push(alternative);
  };
  const whole = [word, ...analysis.lemmas].flatMap((w) => index.words.get(w) ?? []);
  for (const other of whole) push(other.split(/[\s-]+/));
  if (whole.length) return alternatives;
  for (const parts of splitsOf(index, word, analysis.parts)) {
    const choices = parts.map((p) => [p, ...(index.words.get(p) ?? [])]);
    if (choices.every((c) => c.length === 1)) continue;
    // The parts as they are too: the word may join them otherwise than the titles do
    // (`possupannu` for Possunpannu).
    for (const combination of product(choices)) push(combination.flatMap((c) => c.split(/[\s-]+/)));
  }
  return alternatives;
}

/**
 * A compound's parts where one of them has synonyms: the analyser's parts (`häränfilee` → härkä,
 * filee), or a set's term at the start or end of the word (`kanasuikaleet` → kana, suikaleet;
 * `bacontärningar` → bacon, tärningar), the rest at least MIN_PART letters.
 */
function splitsOf(index: SynonymIndex, word: string, analysed: readonly string[]): string[][] {
  const splits: string[][] = [];
  if (analysed.length > 1 && analysed.some((p) => index.words.has(p))) splits.push([...analysed]);
  const length = [...word].length;
  for (const term of index.parts) {
    const n = [...term].length;
    if (length - n < MIN_PART) continue;
    if (word.startsWith(term)) splits.push([term, word.slice(term.length)]);
    else if (word.endsWith(term)) splits.push([word.slice(0, word.length - term.length), term]);
    if (splits.length >= 3) break;
  }
  return splits;
}

function* product(choices: readonly string[][]): Generator<string[]> {
  if (!choices.length) {
    yield [];
    return;
  }
  const [head, ...rest] = choices as [string[], ...string[][]];
  for (const h of head) for (const tail of product(rest)) yield [h, ...tail];
}
