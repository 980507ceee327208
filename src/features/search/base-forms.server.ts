import type { Database } from '../../db/client.ts';
import type { Lang } from '../../sites/types.ts';
import { analyseWord } from './analysis/analyser.server.ts';
import { type BaseForms, stemsOf } from './query.server.ts';
import {
  spellingVariants,
  type Vocabulary,
  vocabularyOf,
  wordSetOf,
} from './typo-vocabulary.server.ts';

/**
 * The base-form side of search (decision 046). The title words of a site and language (the typo
 * vocabulary's words, decision 036) are analysed once into an index from base form and compound
 * part to the title words: `kinkku` → kinkkupaisti, kinkun; `makkara` → grillimakkarat,
 * lenkkimakkara; `keitto` → jauhelihakeitto. A query word is analysed the same way, and its term
 * then also matches:
 * - its base forms and related cooking words as prefixes, with their stems (teasers and bodies
 *   are stored stemmed, so `kinkkua` in a body meets `kinkku` there);
 * - the title words analysed to any of them, exactly (`'kinkun'`, `'wieninakki'` is found by
 *   substring below);
 * - each of them that some title word contains, as a substring of titles (`%nakki%`).
 */

/** Title words per base form beyond this many: the base form's prefix and substring suffice. */
const MAX_EXACT_WORDS = 40;
/** Base forms and compound parts shorter than this are not index keys (`uu`, `ja`). */
const MIN_KEY_LENGTH = 3;

type LemmaIndex = NonNullable<Vocabulary['lemmas']>;

/** The base forms of a query's words within one site and language. */
export async function baseFormsOf(
  db: Database,
  siteId: string,
  lang: Lang,
  words: readonly string[],
): Promise<Map<string, BaseForms>> {
  const vocabulary = await vocabularyOf(db, siteId, lang);
  const index = lemmaIndexOf(vocabulary, lang);
  const found = new Map<string, { forms: string[]; parts?: string[][] }>();
  for (const word of words) {
    const analysis = analyseWord(lang, word);
    // Rule candidates count only where some title word contains them (kinkun → kinkku where
    // Kinkkupaisti is sold); the analyser's own readings always count.
    const lemmas = analysis.known
      ? analysis.lemmas
      : analysis.lemmas.filter((l) => l === word || containedInTitles(index, vocabulary, l));
    const forms = [...new Set([...lemmas, ...analysis.related])].filter((f) => f !== word);
    // A descriptive adjective stands for its noun where a title word holds it (`pippurinen` →
    // pippuri in Sitruunapippurimarinoitu, decision 164); its suffix is no compound's tail.
    const nouns =
      lang === 'fi'
        ? nounsOfAdjective(word).filter((n) => containedInTitles(index, vocabulary, n))
        : [];
    forms.push(...nouns);
    // A compound no title holds in its whole base form (a shorter stem may be in another word):
    // its longest tail some title
    // word holds stands for it (`hamburgaren` → hamburgare → burgare where the site says
    // Baconburgare). Not for words a title holds, nor for Voikko's compounds (their parts are a
    // loosening step of their own).
    const whole = analysis.lemmas.filter((l) => l.length >= word.length - 2);
    const open = lang === 'en' ? openCompound(vocabulary, word) : undefined;
    if (
      !nouns.length &&
      !analysis.known &&
      !whole.some((l) => containedInTitles(index, vocabulary, l))
    ) {
      // A title word one slip away is what was meant rather than a split (`honungskinka` →
      // Honungsskinka, not honung + skinka).
      const tail = longestTail(index, vocabulary, analysis.lemmas);
      const meant = tail ? titleWordOneSlipAway(vocabulary, word) : undefined;
      if (meant) forms.push(meant);
      else if (tail) forms.push(tail);
    }
    found.set(word, { forms, ...(open ? { parts: open } : {}) });
  }
  // The words themselves too: their stems (already kept by the query's parse) may be a head too
  // short for the rules' candidates (`såsen` → sås).
  const all = [
    ...new Set([
      ...words,
      ...[...found.values()].flatMap((f) => [...f.forms, ...(f.parts?.flat() ?? [])]),
    ]),
  ];
  const stems = all.length ? await stemsOf(db, lang, all) : new Map<string, string[]>();
  const result = new Map<string, BaseForms>();
  for (const [word, { forms, parts }] of found) {
    const exacts = new Set<string>();
    for (const form of [word, ...forms]) {
      const titleWords = index.index.get(form) ?? [];
      if (titleWords.length <= MAX_EXACT_WORDS) for (const w of titleWords) exacts.add(w);
    }
    for (const form of new Set([...forms, ...(stems.get(word) ?? [])]))
      for (const w of compoundsEndingIn(vocabulary, form)) exacts.add(w);
    exacts.delete(word);
    result.set(word, {
      prefixes: [...new Set(forms.flatMap((f) => [f, ...(stems.get(f) ?? [])]))],
      exacts: [...exacts],
      likes: forms.filter((f) => containedInTitles(index, vocabulary, f)),
      ...(parts
        ? {
            parts: parts.map((forms) => [
              ...new Set(forms.flatMap((f) => [f, ...(stems.get(f) ?? [])])),
            ]),
          }
        : {}),
    });
  }
  return result;
}

/**
 * The title words that end in a base form too short for a substring test (`sås` of `såsen` →
 * köttfärssås, löksås): compounds with it as their head, matched exactly. Longer forms are found
 * inside title words by substring already; none when more than MAX_EXACT_WORDS.
 */
export function compoundsEndingIn(vocabulary: Vocabulary, form: string): string[] {
  if (form.length < MIN_KEY_LENGTH || form.length >= MIN_SUBSTRING_HEAD) return [];
  const found = vocabulary.words.filter(
    (w) => w.length >= form.length + MIN_KEY_LENGTH && w.endsWith(form),
  );
  return found.length <= MAX_EXACT_WORDS ? found : [];
}
/** Base forms this long are looked for inside title words by substring (query.server.ts). */
const MIN_SUBSTRING_HEAD = 4;

/** A whole title word one slip (spellingVariants) from `word`, if any. */
function titleWordOneSlipAway(vocabulary: Vocabulary, word: string): string | undefined {
  const words = wordSetOf(vocabulary);
  return spellingVariants(word).find((v) => words.has(v));
}

/** Shortest part of an English closed compound (`hot` of `hotdogs`). */
const MIN_OPEN_PART_LENGTH = 3;

/**
 * An English compound written closed that the titles write open (`hotdogs` → Hot dogs,
 * `cheeseburger` → Cheese burger patties): a word no title word holds that splits into two whole
 * title words, each as written or in a base form of the rules (`dogs` → dog). English writes one
 * compound open, hyphenated or closed, so the query's spelling says little; Finnish and Swedish
 * write compounds closed, and their parts have a loosening step of their own. Each part is
 * given with its base forms; undefined when the word is no such compound.
 */
export function openCompound(vocabulary: Vocabulary, word: string): string[][] | undefined {
  if (containedInTitles(lemmaIndexOf(vocabulary, 'en'), vocabulary, word)) return undefined;
  const words = wordSetOf(vocabulary);
  const titleForms = (part: string) =>
    [...new Set([part, part.replace(/s$/, ''), ...analyseWord('en', part).lemmas])].filter((f) =>
      words.has(f),
    );
  for (let cut = MIN_OPEN_PART_LENGTH; word.length - cut >= MIN_OPEN_PART_LENGTH; cut++) {
    const head = titleForms(word.slice(0, cut));
    if (!head.length) continue;
    const tail = titleForms(word.slice(cut));
    if (tail.length) return [head, tail];
  }
  return undefined;
}

/** Shortest tail of a compound that may stand for it. */
const MIN_TAIL_LENGTH = 5;

/** The longest proper tail (≥ 5 letters, after ≥ 3) of any of `forms` that a title word holds. */
function longestTail(index: LemmaIndex, vocabulary: Vocabulary, forms: readonly string[]) {
  let best: string | undefined;
  for (const form of forms) {
    for (let cut = 3; form.length - cut >= MIN_TAIL_LENGTH; cut++) {
      const tail = form.slice(cut);
      if ((best?.length ?? 0) >= tail.length) break;
      if (containedInTitles(index, vocabulary, tail)) {
        best = tail;
        break;
      }
    }
  }
  return best;
}

/** Whether some title word of the vocabulary holds `part` (kept per vocabulary). */
function containedInTitles(index: LemmaIndex, vocabulary: Vocabulary, part: string): boolean {
  let known = index.contained.get(part);
  if (known === undefined) {
    known = vocabulary.words.some((w) => w.includes(part));
    index.contained.set(part, known);
  }
  return known;
}

/** Base form or compound part → the title words analysed to it, built once per vocabulary. */
function lemmaIndexOf(vocabulary: Vocabulary, lang: Lang): LemmaIndex {
  if (vocabulary.lemmas) return vocabulary.lemmas;
  const index = new Map<string, string[]>();
  for (const word of vocabulary.words) {
    if (!/\p{L}/u.test(word)) continue;
    const analysis = analyseWord(lang, word);
    const keys = new Set([...analysis.lemmas, ...analysis.parts]);
    for (const key of keys) {
      if (key === word || key.length < MIN_KEY_LENGTH) continue;
      const list = index.get(key);
      if (list) list.push(word);
      else index.set(key, [word]);
    }
  }
  vocabulary.lemmas = { index, contained: new Map() };
  return vocabulary.lemmas;
}

/** Shortest part a compound is split into by the rules (without Voikko's reading). */
const MIN_PART_LENGTH = 4;

/**
 * The parts of a compound word, for the search step that looks for them when the compound finds
 * nothing (`kinkkukiusaukset` → kinkku, kiusaus). From the analyser's reading when it has one;
 * otherwise the split into two stretches that title words of the site both contain, the longest
 * tail first. [] for a word that is no compound.
 */
export async function compoundPartsOf(
  db: Database,
  siteId: string,
  lang: Lang,
  word: string,
): Promise<string[]> {
  const analysis = analyseWord(lang, word);
  if (analysis.parts.length > 1) return analysis.parts;
  if (word.length < MIN_PART_LENGTH * 2 + 1) return [];
  const vocabulary = await vocabularyOf(db, siteId, lang);
  const index = lemmaIndexOf(vocabulary, lang);
  for (let cut = MIN_PART_LENGTH; cut <= word.length - MIN_SUBSTRING_TAIL; cut++) {
    const head = word.slice(0, cut);
    const tail = word.slice(cut);
    const tailForms = analyseWord(lang, tail).lemmas;
    if (!containedInTitles(index, vocabulary, head)) continue;
    const found = tailForms.find(
      (t) => t.length >= MIN_PART_LENGTH && containedInTitles(index, vocabulary, t),
    );
    if (found) return [head, found];
  }
  return [];
}

/** A compound's tail is at least this long (`-pata`, `-vok`… are too short to tell anything). */
const MIN_SUBSTRING_TAIL = 4;

/** Finnish descriptive adjectives' endings: -inen and its common inflected forms, -llinen. */
const ADJECTIVE =
  /^(\p{L}{3,}?)(?:llinen|llisen|lliset|llisia|llisiä|inen|isen|iset|isia|isiä|ista|istä|isina)$/u;

/**
 * The noun a Finnish descriptive adjective is made of: `pippurinen` → pippuri, `hunajainen` →
 * hunaja, `valkosipulinen` → valkosipuli, `juustoinen` → juusto. A stem ending in a consonant gets
 * back the `i` the suffix took (`pippur-inen`). Titles name the flavour with the noun (`Pekoni
 * pippuri`, `sitruunapippurimarinoitu`), so the noun is matched beside the adjective.
 */
export function nounsOfAdjective(word: string): string[] {
  const match = ADJECTIVE.exec(word);
  if (!match) return [];
  const stem = match[1] as string;
  const last = stem.at(-1) ?? '';
  return /[aeiouyäö]/.test(last) ? [stem] : [`${stem}i`];
}
