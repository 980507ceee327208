import irregular from './irregular.json';

/**
 * The rule-based analyser (decision 046): candidate base forms of a word from its endings, with
 * Finnish consonant gradation undone (`kinkun` → kinku → kinkku, `nakit` → naki → nakki) and
 * plural stems restored (`perunoita` → perun → peruna). It over-generates on purpose: the
 * candidates that no title word of the site contains are dropped by the caller, so `kinkun` keeps
 * `kinkku` where Kinkkupaisti is sold and nothing where no title holds it. Used when Voikko is not
 * installed, for every Swedish and English word, and for Finnish words Voikko does not know
 * (`wieninakki`).
 */

type RuleLang = 'fi' | 'sv' | 'en';

const IRREGULAR = irregular as unknown as Record<RuleLang, Record<string, string>>;

/** Shortest candidate kept: shorter stems sit inside too many words to mean anything. */
export const MIN_CANDIDATE_LENGTH = 4;

// Longest first: case endings, plural markers and possessive-free clitics of nouns and adjectives.
const FI_ENDINGS = [
  'issään',
  'ineen',
  'itten',
  'iden',
  'issa',
  'issä',
  'illa',
  'illä',
  'ista',
  'istä',
  'ille',
  'iksi',
  'ihin',
  'oita',
  'öitä',
  'ssa',
  'ssä',
  'sta',
  'stä',
  'lla',
  'llä',
  'lta',
  'ltä',
  'lle',
  'ksi',
  'tta',
  'ttä',
  'ita',
  'itä',
  'ien',
  'oja',
  'öjä',
  'iin',
  'ja',
  'jä',
  'na',
  'nä',
  'ta',
  'tä',
  'en',
  'in',
  'a',
  'ä',
  'n',
  't',
];

const SV_ENDINGS = [
  'arnas',
  'ornas',
  'ernas',
  'arna',
  'orna',
  'erna',
  'ens',
  'ets',
  'ans',
  'an',
  'en',
  'et',
  'na',
  'or',
  'ar',
  'er',
  'ns',
  'n',
  's',
  't',
];

const EN_ENDINGS = ['ies', 'es', 's', 'ed', 'ing'];

/** Weak grade → strong grade of the consonants before a stem's last vowel. */
const FI_STRENGTHEN: [string, string][] = [
  ['ng', 'nk'],
  ['mm', 'mp'],
  ['nn', 'nt'],
  ['ll', 'lt'],
  ['rr', 'rt'],
  ['v', 'p'],
  ['d', 't'],
];

/** Candidate base forms of a lower-case word, the word itself first. */
export function ruleCandidates(lang: RuleLang, word: string): string[] {
  const out = new Set<string>([word]);
  const known = IRREGULAR[lang][word];
  if (known) out.add(known);
  if (lang === 'fi') for (const c of finnish(word)) out.add(c);
  else if (lang === 'sv') for (const c of swedish(word)) out.add(c);
  else for (const c of english(word)) out.add(c);
  return [...out].filter((c) => c === word || c.length >= MIN_CANDIDATE_LENGTH);
}

function finnish(word: string): string[] {
  const stems = new Set<string>();
  for (const ending of FI_ENDINGS) {
    if (!word.endsWith(ending) || word.length - ending.length < 3) continue;
    stems.add(word.slice(0, -ending.length));
  }
  const out = new Set<string>();
  for (const stem of stems) {
    const shapes = new Set<string>([stem]);
    // Plural and oblique stems: perunoi → peruna, makkaroi → makkara, pullii → pulla.
    if (/[oö]i$/.test(stem)) {
      shapes.add(`${stem.slice(0, -2)}a`);
      shapes.add(`${stem.slice(0, -2)}ä`);
      shapes.add(`${stem.slice(0, -2)}o`);
    }
    if (/[^aeiouyäö]i$/.test(stem)) {
      shapes.add(`${stem.slice(0, -1)}a`);
      shapes.add(`${stem.slice(0, -1)}ä`);
      shapes.add(`${stem.slice(0, -1)}e`);
    }
    // -us nouns (kiusaus): their oblique stems have ks, kiusaukse-n, kiusauksi-a → kiusaus.
    if (/[aeiouyäö]ks[ei]?$/.test(stem)) shapes.add(`${stem.replace(/ks[ei]?$/, '')}s`);
    // -nen words: hampurilaise-t, hampurilais-ta, hampurilaisi-a → hampurilainen.
    if (/[aeiouyäö]s[ei]?$/.test(stem)) shapes.add(`${stem.replace(/s[ei]?$/, '')}nen`);
    // e-stems of -e words: kastikkee → kastike, perunasosee → perunasose.
    if (/ee$/.test(stem)) shapes.add(weaken(stem.slice(0, -1)));
    // A stem that lost its final vowel: keitt → keitto is covered by the ending 'a'; ends in a
    // consonant: add the usual final vowels.
    if (/[^aeiouyäö]$/.test(stem)) for (const v of ['a', 'ä', 'i', 'o', 'u']) shapes.add(stem + v);
    for (const shape of shapes) {
      out.add(shape);
      for (const strong of strengthen(shape)) out.add(strong);
    }
  }
  return [...out];
}

/**
 * Strong grades of a stem (the grade of its last syllable's consonant): a single k, p or t between
 * a vowel or l/n/r/h and a vowel is doubled (kinku → kinkku, naki → nakki, keito → keitto), and
 * the weak clusters of FI_STRENGTHEN go back (ranna → ranta).
 */
function strengthen(stem: string): string[] {
  const out: string[] = [];
  const lastVowel = stem.search(/[aeiouyäö][^aeiouyäö]*$/);
  if (lastVowel < 2) return out;
  // The consonant(s) right before the last vowel group.
  let start = lastVowel;
  while (start > 0 && /[aeiouyäö]/.test(stem[start - 1] ?? '')) start--;
  const before = stem.slice(0, start);
  const after = stem.slice(start);
  const last = before.at(-1) ?? '';
  const prev = before.at(-2) ?? '';
  if (/[kpt]/.test(last) && prev !== last && /[aeiouyäölnrh]/.test(prev)) {
    out.push(`${before}${last}${after}`);
  }
  for (const [weak, strong] of FI_STRENGTHEN) {
    if (before.endsWith(weak)) out.push(`${before.slice(0, -weak.length)}${strong}${after}`);
  }
  return out;
}

/** kastikk → kastik: the weak grade of a doubled k, p or t at the end. */
function weaken(stem: string): string {
  return stem.replace(/([kpt])\1(e?)$/, '$1$2');
}

function swedish(word: string): string[] {
  const out = new Set<string>();
  for (const ending of SV_ENDINGS) {
    if (!word.endsWith(ending) || word.length - ending.length < 3) continue;
    const stem = word.slice(0, -ending.length);
    out.add(stem);
    // skinkan → skink → skinka; köttbullarna → köttbull → köttbulle.
    out.add(`${stem}a`);
    out.add(`${stem}e`);
  }
  return [...out];
}

function english(word: string): string[] {
  const out = new Set<string>();
  if (word.endsWith('ies') && word.length > 4) out.add(`${word.slice(0, -3)}y`);
  for (const ending of EN_ENDINGS) {
    if (!word.endsWith(ending) || word.length - ending.length < 3) continue;
    const stem = word.slice(0, -ending.length);
    out.add(stem);
    out.add(`${stem}e`);
    // grilled → grill, chopped → chop.
    if (/([bdglmnprt])\1$/.test(stem)) out.add(stem.slice(0, -1));
  }
  return [...out];
}
