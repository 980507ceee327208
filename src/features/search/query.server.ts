import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import type { Lang } from '../../sites/types.ts';
import { type Expansion, expand, type SynonymIndex } from './synonyms.server.ts';

/** Words of a query beyond this many are ignored. */
const MAX_WORDS = 8;
const MAX_WORD_LENGTH = 40;
/** A word this long or longer is also looked for inside title words (compound tails). */
const MIN_SUBSTRING_LENGTH = 4;

/** One word of the visitor's query and what it may match. */
export interface Term {
  word: string;
  /** Prefix query of the word as written and of its stem(s): `'kanan':* | 'kana':*`. */
  tsquery: string;
  /**
   * `%kastik%`: the stem inside a title word (`jauhelihakastike`), and each base form some title
   * word contains (`%kinkku%` for `kinkun`). Empty for short words.
   */
  likes: string[];
  /** Every lexeme the word stands for (written, stems, base forms, title words), for the rank. */
  lexemes: string[];
  /**
   * What else the word (or a phrase of the query's words) may be written as (decision 164): each
   * alternative's terms all match, and the term matches when it or one alternative does. A phrase
   * (`hot dog`) has no match of its own (`tsquery` empty): its own words are one alternative.
   */
  alternatives?: Term[][];
  /** A phrase of the query's words (`hot dog`): its first alternative is its own words. */
  phrase?: boolean;
}

/**
 * What a word also stands for beyond its spelling and stem (decision 046): base forms and related
 * cooking words matched as prefixes, title words analysed to them matched exactly, and the base
 * forms some title word contains matched as substrings of titles.
 */
export interface BaseForms {
  prefixes: string[];
  exacts: string[];
  likes: string[];
  /**
   * The parts of a closed compound the titles write open (`hotdogs` → [hot], [dogs, dog]), each
   * with its forms: the word also matches a document holding every part.
   */
  parts?: string[][];
}

export interface ParsedQuery {
  /** The query folded to lower case and single spaces, for exact and prefix title matches. */
  normalized: string;
  terms: Term[];
  /** Every alternative of every term, OR-ed: ranks documents by how much of the query they hold. */
  anyTsquery: string;
}

/** Lower-case words of a query: letters and digits, everything else separates. */
export function wordsOf(q: string): string[] {
  return q
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((w) => w.slice(0, MAX_WORD_LENGTH))
    .slice(0, MAX_WORDS);
}

/**
 * Stems of words in a language's text search configuration, as the index stored them. Stemming
 * is a pure function of the word, so answers are kept (bounded) and a repeated query costs no
 * round trip. An empty list means the configuration drops the word (a stop word).
 */
const stemCache = new Map<string, string[]>();
const STEM_CACHE_MAX = 20_000;

export async function stemsOf(
  db: Database,
  lang: Lang,
  words: readonly string[],
): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>();
  const missing: string[] = [];
  for (const w of words) {
    const cached = stemCache.get(`${lang}:${w}`);
    if (cached) result.set(w, cached);
    else if (!missing.includes(w)) missing.push(w);
  }
  if (missing.length) {
    const rows = (await db.execute(sql`
      select w.word, array(select lexeme from unnest(to_tsvector(search_config(${lang}), w.word))) as stems
      from unnest(${`{${missing.map((w) => `"${w}"`).join(',')}}`}::text[]) as w(word)
    `)) as unknown as { rows: { word: string; stems: string[] }[] };
    if (stemCache.size > STEM_CACHE_MAX) stemCache.clear();
    for (const row of rows.rows) {
      stemCache.set(`${lang}:${row.word}`, row.stems);
      result.set(row.word, row.stems);
    }
  }
  return result;
}

/**
 * Builds the terms of a query. Every word is a prefix (as-you-type), matched as written and as
 * stemmed (`kanan` → `kana`, `kastikkeessa` → `kastik`). Stop words are dropped, except when
 * dropping would leave nothing or the word is the last one, which the visitor may still be typing
 * (`oli` → `oliiviöljy`): those stay as plain prefixes. One-letter words count only alone.
 */
export async function parseQuery(
  db: Database,
  lang: Lang,
  q: string,
  baseForms?: (words: readonly string[]) => Promise<Map<string, BaseForms>>,
  synonyms?: SynonymIndex,
): Promise<ParsedQuery> {
  const normalized = q.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim();
  let words = wordsOf(q);
  if (words.some((w) => w.length > 1)) words = words.filter((w) => w.length > 1);
  const stems = await stemsOf(db, lang, words);
  const kept = words.filter(
    (w, i) => (stems.get(w)?.length ?? 0) > 0 || (i === words.length - 1 && !/\s$/.test(q)),
  );
  const chosen = [...new Set(kept.length ? kept : words)];
  const expansions: Expansion[] = synonyms
    ? expand(synonyms, lang, chosen)
    : chosen.map((w) => ({ words: [w], alternatives: [] }));
  const added = [
    ...new Set(expansions.flatMap((e) => e.alternatives.flat()).filter((w) => w.length > 1)),
  ].filter((w) => !chosen.includes(w));
  if (added.length) for (const [w, s] of await stemsOf(db, lang, added)) stems.set(w, s);
  const extra = baseForms ? await baseForms([...chosen, ...added]) : new Map<string, BaseForms>();
  const own = (word: string) => termOf(word, stems.get(word) ?? [], extra.get(word));
  // An alternative is a whole word the sets chose: a stem much shorter than it reaches other words
  // (`pastee` → `past`: pastrami), so only stems cutting at most one letter count.
  const alternative = (word: string) =>
    termOf(
      word,
      (stems.get(word) ?? []).filter((s) => [...s].length >= [...word].length - 1),
      extra.get(word),
    );
  const terms = expansions.map((e) => expandedTerm(e, own, alternative));
  const alternatives = [...new Set(terms.flatMap((t) => t.lexemes))];
  return {
    normalized,
    terms,
    anyTsquery: alternatives.map((l) => `'${l}':*`).join(' | '),
  };
}

/**
 * The term of a stretch of the query: a word's own term, or for a phrase of the sets a term with
 * no match of its own whose first alternative is its words; each with the stretch's alternatives.
 */
function expandedTerm(
  expansion: Expansion,
  own: (word: string) => Term,
  other: (word: string) => Term,
): Term {
  const alternatives = expansion.alternatives
    .map((alternative) => alternative.filter((w) => w.length > 1).map(other))
    .filter((alternative) => alternative.length > 0);
  const phrase = expansion.words.length > 1;
  if (!phrase && !alternatives.length) return own(expansion.words[0] as string);
  const base: Term = phrase
    ? { word: expansion.words.join(' '), tsquery: '', likes: [], lexemes: [] }
    : own(expansion.words[0] as string);
  const all = phrase ? [expansion.words.map(own), ...alternatives] : alternatives;
  return {
    ...base,
    ...(phrase ? { phrase: true } : {}),
    alternatives: all,
    lexemes: [...new Set([...base.lexemes, ...all.flat().flatMap((t) => t.lexemes)])],
  };
}

function lexemesOf(word: string, stems: readonly string[]): string[] {
  return [...new Set([word, ...stems])].filter((l) => /^[\p{L}\p{N}]+$/u.test(l));
}

function termOf(word: string, stems: readonly string[], extra?: BaseForms): Term {
  const own = lexemesOf(word, stems);
  // The shortest form is the one most likely to sit inside a compound: kastikkeessa → kastik.
  const shortest = [...own].sort((a, b) => a.length - b.length)[0] ?? word;
  const prefixes = [...new Set([...own, ...lexemesOf(word, extra?.prefixes ?? [])])];
  // A prefix that starts with another of the alternatives matches nothing more (`broilerin:*`
  // beside `broiler:*`); leaving it out halves the index work of a word whose stem is its head.
  const matching = prefixes.filter((l) => !prefixes.some((o) => o !== l && l.startsWith(o)));
  // Title words analysed to a base form, matched exactly; those a prefix already covers add nothing.
  const exacts = lexemesOf(word, extra?.exacts ?? []).filter(
    (e) => !matching.some((p) => e.startsWith(p)),
  );
  // A stem that is no cut of the word (Snowball's `curry` → `cury`) is not inside the compounds
  // that hold the word (Kanacurry): the word itself is then looked for there too.
  const uncut = shortest !== word && !word.startsWith(shortest) ? [word] : [];
  const substrings = [
    ...new Set([
      ...(shortest.length >= MIN_SUBSTRING_LENGTH ? [shortest] : []),
      ...uncut.filter((w) => w.length >= MIN_SUBSTRING_LENGTH),
      ...(extra?.likes ?? []).filter((l) => l.length >= MIN_SUBSTRING_LENGTH),
    ]),
  ];
  // `%kinkku%` beside `%kinkkupaisti%`: the longer one finds nothing more.
  const likes = substrings
    .filter((l) => !substrings.some((o) => o !== l && l.includes(o)))
    .map((l) => `%${l.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  // Every part of an open-written compound, each in any of its forms: `('hot':*) & ('dogs':* | 'dog':*)`.
  const parts = (extra?.parts ?? []).map((forms) =>
    lexemesOf(word, forms).filter((f) => f !== word),
  );
  const together =
    parts.length > 1 && parts.every((p) => p.length)
      ? [`(${parts.map((p) => `(${p.map((f) => `'${f}':*`).join(' | ')})`).join(' & ')})`]
      : [];
  return {
    word,
    tsquery: [...matching.map((l) => `'${l}':*`), ...exacts.map((e) => `'${e}'`), ...together].join(
      ' | ',
    ),
    likes,
    lexemes: [...new Set([...prefixes, ...exacts, ...parts.flat()])],
  };
}
