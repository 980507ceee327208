import { describe, expect, it } from 'vitest';
import { spellingVariants } from '../typo-vocabulary.server.ts';
import { analyserName, analyseWord } from './analyser.server.ts';
import { ruleCandidates } from './rules.ts';
import { basesOf, loadVoikko } from './voikko.server.ts';

describe('rule-based analyser', () => {
  it.each([
    ['kinkun', 'kinkku'],
    ['nakit', 'nakki'],
    ['keittoa', 'keitto'],
    ['perunoita', 'peruna'],
    ['makkaroita', 'makkara'],
    ['naudan', 'nauta'],
    ['lihapullia', 'lihapulla'],
    ['kinkkukiusauksen', 'kinkkukiusaus'],
    ['kiusauksia', 'kiusaus'],
    ['kanahampurilaiset', 'kanahampurilainen'],
    ['hampurilaisia', 'hampurilainen'],
    ['hampurilaista', 'hampurilainen'],
  ])('undoes Finnish endings and gradation: %s → %s', (word, base) => {
    expect(ruleCandidates('fi', word)).toContain(base);
  });

  it.each([
    ['skinkan', 'skinka'],
    ['korvarna', 'korv'],
    ['köttbullarna', 'köttbull'],
    ['kycklingen', 'kyckling'],
  ])('undoes Swedish definite and plural forms: %s → %s', (word, base) => {
    expect(ruleCandidates('sv', word)).toContain(base);
  });

  it('undoes English plurals', () => {
    expect(ruleCandidates('en', 'sausages')).toContain('sausage');
    expect(ruleCandidates('en', 'patties')).toContain('patty');
  });

  it.each([
    ['feet', 'foot'],
    ['knives', 'knife'],
    ['halves', 'half'],
  ])('knows English irregular plurals (data table): %s → %s', (word, base) => {
    expect(ruleCandidates('en', word)).toContain(base);
  });
});

describe('analyser', () => {
  it('reads the bases of WORDBASES, leaving derivational endings out', () => {
    expect(basesOf('+jauhe(jauhe)+liha(liha)+keitto(keitto)')).toEqual(['jauhe', 'liha', 'keitto']);
    expect(basesOf('+grillat(grillata)+tav+a(+a)')).toEqual(['grillata']);
  });

  it('reaches the cooking method from a derivation (data table)', () => {
    expect(analyseWord('fi', 'grillattava').related).toContain('grilli');
    expect(
      analyseWord('fi', 'uunissa').related.concat(analyseWord('fi', 'uunissa').lemmas),
    ).toContain('uuni');
    expect(analyseWord('sv', 'grillade').related).toContain('grill');
  });

  it.runIf(loadVoikko() !== undefined && process.env.SEARCH_ANALYSER !== 'rules')(
    'uses Voikko where installed: base forms and compound parts',
    () => {
      expect(analyserName()).toBe('voikko');
      expect(analyseWord('fi', 'kinkun')).toMatchObject({
        known: true,
        lemmas: ['kinkku', 'kinkun'],
      });
      expect(analyseWord('fi', 'grillimakkarat').parts).toEqual(['grilli', 'makkara']);
      expect(analyseWord('fi', 'perunoita').lemmas).toContain('peruna');
    },
  );
});

describe('spelling variants', () => {
  it.each([
    ['brolieri', 'broileri'],
    ['kastke', 'kastike'],
    ['makarra', 'makkara'],
    ['makkra', 'makkara'],
    ['pekonni', 'pekoni'],
  ])('%s is one slip from %s', (typed, meant) => {
    expect(spellingVariants(typed)).toContain(meant);
  });
});
