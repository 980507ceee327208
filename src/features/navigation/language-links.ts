import type { MessageKey } from '../../i18n/fi.ts';
import { homePath } from '../../sites/resolve.ts';
import type { Lang, Site } from '../../sites/types.ts';

export interface LanguageLink {
  lang: Lang;
  href: string;
  labelKey: MessageKey;
}

/**
 * Links to the site's other language versions. The switch goes to the home page of the other
 * language: from Finnish to `/en/` ('In English'), from English back to `/` ('Suomeksi').
 */
export function languageLinks(site: Site, current: Lang): LanguageLink[] {
  return site.languages
    .filter((lang) => lang !== current)
    .map((lang) => ({
      lang,
      href: homePath(site, lang),
      labelKey: `language.switchTo.${lang}` as const,
    }));
}
