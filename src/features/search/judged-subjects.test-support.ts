/**
 * The grown judged set of issue 17 (`judged-subjects.test.ts`, `bench/search.ts`): subjects a
 * visitor looks for, each with the forms visitors type (inflections, plurals, consonant gradation,
 * compounds, typos, prefixes, cooking-method derivations, Swedish definite forms) and a relevance
 * rule that does not look at what the engine answers: **a hit is relevant when its title or
 * category, in lower case, contains one of `match`** (the base form, or the stretch every form of
 * it shares in titles: `lihapull` for lihapulla/lihapullat).
 *
 * A subject is asked on every site of its language where some document's title contains one of
 * `match` (the subject exists there); on a site without it the query is not asked. Queries were
 * written from how people type, not from the engine's results.
 */
export interface JudgedSubject {
  lang: 'fi' | 'sv' | 'en';
  kind:
    | 'inflected'
    | 'gradation'
    | 'compound'
    | 'typo'
    | 'prefix'
    | 'derivation'
    | 'definite'
    | 'plural';
  queries: string[];
  match: string[];
}

/** Sites per search language (all that have documents in it). */
export const SITES_BY_LANG: Record<JudgedSubject['lang'], string[]> = {
  fi: ['lihakauppa', 'jyvabroiler', 'ammattilaiset', 'mestariforsmanfi', 'sibylla', 'konsernifi'],
  sv: [
    'delise',
    'foodservicese',
    'goohse',
    'lithellsse',
    'lonnebergase',
    'ridderheimsse',
    'sibylla',
    'koncernse',
  ],
  en: ['export', 'sibylla', 'konsernifi', 'koncernse'],
};

const fi = (kind: JudgedSubject['kind'], queries: string[], match: string[]): JudgedSubject => ({
  lang: 'fi',
  kind,
  queries,
  match,
});
const sv = (kind: JudgedSubject['kind'], queries: string[], match: string[]): JudgedSubject => ({
  lang: 'sv',
  kind,
  queries,
  match,
});
const en = (kind: JudgedSubject['kind'], queries: string[], match: string[]): JudgedSubject => ({
  lang: 'en',
  kind,
  queries,
  match,
});

export const judgedSubjects: JudgedSubject[] = [
  // Finnish: consonant gradation.
  fi('gradation', ['kinkun', 'kinkut', 'kinkkuja'], ['kinkku', 'kinkun']),
  fi('gradation', ['nakit', 'nakin', 'nakkeja'], ['nakki', 'nakit']),
  fi('gradation', ['keittoa', 'keiton', 'keitot'], ['keitto']),
  fi('gradation', ['laatikon', 'laatikot', 'laatikoita'], ['laatikko']),
  fi('gradation', ['naudat', 'nautaa'], ['nauta', 'naudan']),
  fi('gradation', ['salaatin', 'salaatit'], ['salaatti']),
  fi('gradation', ['pyörykät', 'pyörykkää'], ['pyöryk']),
  fi('gradation', ['kyljykset', 'kyljyksiä'], ['kyljy']),
  // Finnish: plurals and cases of other types.
  fi('inflected', ['perunoita', 'perunat', 'perunan'], ['peruna']),
  fi('inflected', ['makkarat', 'makkaraa', 'makkaroita'], ['makkara']),
  fi('inflected', ['kastikkeet', 'kastiketta', 'kastikkeessa'], ['kastike', 'kastikk']),
  fi('inflected', ['broilerit', 'broileria', 'broilereita'], ['broiler']),
  fi('inflected', ['kanaa', 'kanat', 'kanoja'], ['kana']),
  fi('inflected', ['pekonia', 'pekonin'], ['pekoni']),
  fi('inflected', ['jauhelihaa', 'jauhelihan'], ['jauheliha']),
  fi('inflected', ['pihvit', 'pihvejä', 'pihviä'], ['pihvi']),
  fi('inflected', ['lihapullia', 'lihapullien'], ['lihapull']),
  fi('inflected', ['kiusauksia', 'kiusausta'], ['kiusaus']),
  fi('inflected', ['paistia', 'paistit'], ['paisti']),
  fi('inflected', ['fileet', 'fileetä', 'fileen'], ['filee']),
  fi('inflected', ['siivet', 'siipiä'], ['siipi', 'siivet']),
  fi('inflected', ['koivet', 'koipia'], ['koipi', 'koivet']),
  fi('inflected', ['juustoa', 'juuston'], ['juusto']),
  fi('inflected', ['valkosipulia', 'valkosipulin'], ['valkosipul']),
  fi('inflected', ['lasagnea', 'lasagnet'], ['lasagne']),
  fi('inflected', ['hampurilaisia', 'hampurilaisen'], ['hampurilai']),
  fi('inflected', ['kalkkunaa', 'kalkkunat'], ['kalkkuna']),
  fi('inflected', ['vartaat', 'vartaita'], ['varta', 'varras']),
  fi('inflected', ['pastaa', 'pastat'], ['pasta']),
  // Finnish: compounds, as a whole in an inflected form and as a head.
  fi('compound', ['grillimakkaroita', 'grillimakkarat'], ['grillimakkar']),
  fi('compound', ['kinkkukiusausta', 'kinkkukiusaukset'], ['kinkkukiusaus']),
  fi('compound', ['jauhelihakastiketta', 'jauhelihakastikkeen'], ['jauhelihakastik']),
  fi('compound', ['lihakeittoa', 'lihakeiton'], ['lihakeitto']),
  fi('compound', ['paahtopaistia', 'paahtopaistin'], ['paahtopaisti']),
  fi('compound', ['lenkkimakkaraa', 'lenkkimakkarat'], ['lenkkimakkar']),
  fi('compound', ['kanakeittoa'], ['kanakeitto']),
  // Finnish: one typo in the word or in an inflected form.
  fi('typo', ['makarra', 'makkra', 'makarat'], ['makkara']),
  fi('typo', ['brolieri', 'broilri'], ['broiler']),
  fi('typo', ['jauhelha', 'jauhliha'], ['jauheliha']),
  fi('typo', ['pekonni'], ['pekoni']),
  fi('typo', ['kastke'], ['kastike', 'kastikk']),
  fi('typo', ['lihapulat'], ['lihapull']),
  fi('typo', ['kalkuna'], ['kalkkuna']),
  // Finnish: what the visitor has typed so far.
  fi('prefix', ['kink', 'makk', 'broi', 'jauh', 'peko'], []),
  // Finnish: cooking methods.
  fi('derivation', ['grillattava', 'grillattavat', 'grillattavaa'], ['grill']),
  fi('derivation', ['uunissa', 'uuniin', 'uunista'], ['uuni']),
  fi('derivation', ['paistettu', 'paistettava'], ['paisti', 'paistettu', 'pannu']),
  fi('derivation', ['savustettu', 'savustettua'], ['savu', 'palvi']),

  // Swedish: definite and plural forms, compound tails.
  sv('definite', ['skinkan', 'skinkor', 'skinkorna'], ['skink']),
  sv('definite', ['korvar', 'korven', 'korvarna'], ['korv']),
  sv('definite', ['köttbulle', 'köttbullarna'], ['köttbull']),
  sv('definite', ['kycklingen', 'kycklingar'], ['kyckling']),
  sv('definite', ['fläsket'], ['fläsk']),
  sv('definite', ['biffen', 'biffar'], ['biff']),
  sv('definite', ['soppan', 'soppor'], ['soppa']),
  sv('definite', ['pastejen'], ['pastej']),
  sv('definite', ['falukorven', 'falukorvar'], ['falukorv']),
  sv('definite', ['isterbanden'], ['isterband']),
  sv('definite', ['potatisen'], ['potatis']),
  sv('definite', ['pannbiffar', 'pannbiffen'], ['pannbiff']),
  sv('definite', ['kalkonen'], ['kalkon']),
  sv('definite', ['baconet'], ['bacon']),
  sv('definite', ['hamburgaren', 'hamburgarna'], ['burgare']),
  sv('definite', ['stroganoffen'], ['stroganoff']),
  sv('definite', ['filén'], ['filé']),
  sv('typo', ['kottbullar', 'falukov', 'kycklig'], []),
  sv('prefix', ['skin', 'köttb', 'kyck', 'falu'], []),
  sv('derivation', ['grillad', 'grillade', 'grilla'], ['grill']),
  sv('derivation', ['rökta', 'röka'], ['rökt']),
  sv('derivation', ['ugnen', 'ugnsbakade'], ['ugn']),

  // English.
  en('plural', ['sausages', 'sausage'], ['sausage']),
  en('plural', ['burgers'], ['burger']),
  en('plural', ['patty', 'patties'], ['patt']),
  en('plural', ['chickens'], ['chicken']),
  en('plural', ['rib', 'ribs'], ['rib']),
  en('plural', ['fillets'], ['fillet']),
  en('plural', ['breasts'], ['breast']),
  en('plural', ['wing'], ['wing']),
  en('plural', ['drumstick'], ['drumstick']),
  en('plural', ['chop'], ['chop']),
  en('plural', ['meatball'], ['meatball']),
  en('typo', ['sausge', 'chiken', 'briskit', 'tenderlion'], []),
  en('prefix', ['saus', 'burg', 'tender', 'brisk'], []),
  en('derivation', ['grilled', 'grilling'], ['grill']),
];

/**
 * What a query is about, for the relevance rule: the subject's `match`, or for typo and prefix
 * subjects without one, the intended word written out here (never taken from results).
 */
const INTENDED: Record<string, string[]> = {
  kink: ['kinkku', 'kinkun'],
  makk: ['makkara'],
  broi: ['broiler'],
  jauh: ['jauheliha'],
  peko: ['pekoni'],
  kottbullar: ['köttbull'],
  falukov: ['falukorv'],
  kycklig: ['kyckling'],
  skin: ['skink'],
  köttb: ['köttbull'],
  kyck: ['kyckling'],
  falu: ['falukorv'],
  sausge: ['sausage'],
  chiken: ['chicken'],
  briskit: ['brisket'],
  tenderlion: ['tenderloin'],
  saus: ['sausage'],
  burg: ['burger'],
  tender: ['tenderloin'],
  brisk: ['brisket'],
};

export interface JudgedCase {
  q: string;
  lang: JudgedSubject['lang'];
  kind: JudgedSubject['kind'];
  match: string[];
}

/** Every query of the set with its relevance rule (before choosing the sites that have it). */
export function judgedCases(): JudgedCase[] {
  return judgedSubjects.flatMap((s) =>
    s.queries.map((q) => {
      const match = s.match.length ? s.match : INTENDED[q];
      if (!match) throw new Error(`no relevance rule for "${q}"`);
      return { q, lang: s.lang, kind: s.kind, match };
    }),
  );
}

/** The relevance rule: the hit's title or category contains one of the subject's forms. */
export function isRelevant(hit: { title: string; category: string }, match: readonly string[]) {
  const text = `${hit.title} ${hit.category}`.toLowerCase();
  return match.some((m) => text.includes(m));
}
