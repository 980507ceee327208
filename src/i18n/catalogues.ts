import type { Lang } from '../sites/types.ts';
import { en } from './en.ts';
import { fi, type Messages } from './fi.ts';
import { sv } from './sv.ts';
import { knownLang, type Translate, translator } from './translate.ts';

/** All catalogues, for the server. Browser code loads one language at a time (`client/`). */
export const catalogues: Record<Lang, Messages> = { fi, sv, en };

const cache = new Map<Lang, Translate>();

/** `t()` in a language; an unknown locale (said once) gets Finnish, the default language. */
export function serverT(locale: Lang | string): Translate {
  const lang = knownLang(locale);
  let t = cache.get(lang);
  if (!t) {
    t = translator(catalogues[lang], lang);
    cache.set(lang, t);
  }
  return t;
}
