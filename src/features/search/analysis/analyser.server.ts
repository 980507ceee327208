import type { Lang } from '../../../sites/types.ts';
import derivations from './derivations.json';
import { MIN_CANDIDATE_LENGTH, ruleCandidates } from './rules.ts';
import { loadVoikko, type Voikko } from './voikko.server.ts';

/**
 * Base forms of words for search (decision 046). Finnish goes through Voikko when this machine has
 * it (`libvoikko1` + `voikko-fi`, reached through koffi), and through the rule-based analyser
 * otherwise; Swedish and English always through the rules (their Snowball stems come from the
 * database as before). `SEARCH_ANALYSER=rules` turns Voikko off, to measure the fallback.
 */

export type AnalyserName = 'voikko' | 'rules';

/** What a word stands for. */
export interface WordAnalysis {
  /**
   * Base forms: `kinkun` → kinkku, `perunoita` → peruna (and perunoita, the compound peru+noita
   * Voikko also reads). From the rules: candidates, the caller keeps those some title holds.
   */
  lemmas: string[];
  /** Bases of a compound's parts: `grillimakkarat` → grilli, makkara. Empty for simple words. */
  parts: string[];
  /** Words of the same cooking method (derivations.json): `grillattava` → grilli, grillattu. */
  related: string[];
  /** true: the lemmas are the analyser's readings, not rule candidates. */
  known: boolean;
}

type SearchLang = 'fi' | 'sv' | 'en';

interface DerivationGroup {
  triggers: string[];
  find: string[];
}
const DERIVATIONS = derivations as unknown as Record<SearchLang, DerivationGroup[]>;

let chosen: { name: AnalyserName; voikko: Voikko | undefined } | undefined;

/** The analyser Finnish uses on this machine. */
export function analyserName(): AnalyserName {
  return choose().name;
}

function choose(): { name: AnalyserName; voikko: Voikko | undefined } {
  if (chosen) return chosen;
  const voikko = process.env.SEARCH_ANALYSER === 'rules' ? undefined : loadVoikko();
  chosen = { name: voikko ? 'voikko' : 'rules', voikko };
  return chosen;
}

const CACHE_MAX = 50_000;
const cache = new Map<string, WordAnalysis>();

/** The analysis of one lower-case word in a search language; answers are kept (bounded). */
export function analyseWord(lang: Lang, word: string): WordAnalysis {
  const searchLang: SearchLang = lang === 'fi' ? 'fi' : lang === 'en' ? 'en' : 'sv';
  const key = `${searchLang}:${word}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const analysis = analyse(searchLang, word);
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(key, analysis);
  return analysis;
}

function analyse(lang: SearchLang, word: string): WordAnalysis {
  const { voikko } = choose();
  const readings = lang === 'fi' && voikko && /\p{L}/u.test(word) ? voikko.analyse(word) : [];
  const lemmas = new Set<string>();
  const parts = new Set<string>();
  const bases = new Set<string>();
  for (const reading of readings) {
    lemmas.add(reading.baseform);
    for (const base of reading.bases) bases.add(base);
    // Parts of a compound (two or more bases that are words); one base is the word itself.
    const words = reading.bases.filter((b) => b.length >= 3);
    if (words.length > 1) for (const b of words) parts.add(b);
  }
  const known = readings.length > 0;
  if (!known) for (const candidate of ruleCandidates(lang, word)) lemmas.add(candidate);
  lemmas.add(word);
  const related = new Set<string>();
  for (const group of DERIVATIONS[lang]) {
    const forms = [word, ...lemmas, ...bases];
    if (forms.some((f) => group.triggers.some((t) => f.startsWith(t)))) {
      for (const f of group.find) related.add(f);
    }
  }
  for (const l of lemmas) related.delete(l);
  return {
    lemmas: [...lemmas].filter((l) => l === word || l.length >= MIN_CANDIDATE_LENGTH - 1),
    parts: [...parts],
    related: [...related],
    known,
  };
}
