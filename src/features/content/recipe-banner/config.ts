import type { Lang } from '../../../sites/types.ts';

/**
 * The recipe banner (spec §2, §4, §9): on recipe pages a mobile bottom banner linking to a
 * configured URL with configured text, or by default to the professional-kitchen site with the
 * default text (`recipeBanner.default`); closing it is remembered in a cookie for 30 days.
 */

export const RECIPE_BANNER_COOKIE = 'kattaus_recipe_banner';
export const RECIPE_BANNER_DAYS = 30;
export const RECIPE_BANNER_CLOSE_PATH = '/recipe-banner/close';

export interface RecipeBannerSetting {
  /** Where the banner links: an absolute URL, or a site's home page by its id. */
  href: { url: string } | { site: string };
  /** The banner's text per language; the default text where none is given. */
  text?: Partial<Record<Lang, string>>;
}

/** The professional-kitchen site the default banner invites to. */
const PROFESSIONAL_SITE = 'ammattilaiset';

/**
 * Each site's banner; `null`: none (the professional-kitchen sites themselves). A site not named
 * gets the default banner.
 */
const settings: Record<string, RecipeBannerSetting | null> = {
  ammattilaiset: null,
  foodservicese: null,
  mestariforsmanfi: {
    href: { site: PROFESSIONAL_SITE },
    text: { fi: 'Mestarin vinkit ammattikeittiöön: tutustu ammattilaisten resepteihin' },
  },
};

export function recipeBannerSetting(siteId: string): RecipeBannerSetting | null {
  const setting = settings[siteId];
  if (setting === null) return null;
  return setting ?? { href: { site: PROFESSIONAL_SITE } };
}
