type Texts = Record<string, string>;

/**
 * The page's texts in each language: the islands' own (the client entry adds each island's before
 * it hydrates it) and those of the parts their code has loaded lazily since. Every island's
 * translator reads its language's, so a part's texts are there once the part has come. The build
 * puts this module with React in the hydration runtime's chunk, which every island's code imports
 * anyway (vite.config.ts).
 */
const byLang = new Map<string, Texts>();

/** The page's texts in `lang`, which translators read and loaded texts are added to. */
export function pageTexts(lang: string): Texts {
  let texts = byLang.get(lang);
  if (!texts) {
    texts = {};
    byLang.set(lang, texts);
  }
  return texts;
}

/**
 * A lazily loaded part's code with its texts in the page's language (decision 161): the build
 * turns every lazy import of island code whose module shows texts into this (vite.config.ts
 * `partTexts`), so the island's own texts need not hold the texts of a dialog nobody opens.
 */
export async function withPartTexts<M>(
  code: Promise<M>,
  texts: Record<string, () => Promise<{ default: Texts }>>,
): Promise<M> {
  const pageLang = document.documentElement.lang;
  const lang = Object.hasOwn(texts, pageLang) ? pageLang : 'fi';
  const [module, part] = await Promise.all([code, texts[lang]?.()]);
  if (part) Object.assign(pageTexts(lang), part.default);
  return module;
}
