import type { Lang } from '../sites/types.ts';
import { en } from './en.ts';
import { fi, type Messages } from './fi.ts';
import { sv } from './sv.ts';
import { type Translate, translator } from './translate.ts';

/** All catalogues, for the server. Browser code loads one language at a time (`client/`). */
export const catalogues: Record<Lang, Messages> = { fi, sv, en };

const cache = new Map<Lang, Translate>();

export function serverT(lang: Lang): Translate {
  let t = cache.get(lang);
  if (!t) {
    t = translator(catalogues[lang]);
    cache.set(lang, t);
  }
  return t;
}
