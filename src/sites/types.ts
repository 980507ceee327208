export const languages = ['fi', 'sv', 'en'] as const;
export type Lang = (typeof languages)[number];

/** Logo identifiers of the spec: named brand logos, a product's own logo, and the corporate one. */
export type LogoId =
  | 'corporate'
  | 'export'
  | 'sibylla'
  | 'sibylla-sv'
  | 'ridderheims'
  | 'lithells'
  | 'lonneberga'
  | `product:${string}`;

/**
 * Header variants of the spec: the default brand header, the shop's, the corporate sites' and one
 * Swedish brand's simple dropdown, the third brand's, the master-chef brand's dark bottom-only
 * header, and export's own.
 */
export type HeaderVariant =
  | 'brand'
  | 'shop'
  | 'corporate'
  | 'simple-dropdown'
  | 'third-brand'
  | 'master-chef'
  | 'export';

export interface ThemeTokens {
  /** Brand colour: header bar, buttons. */
  brand: string;
  /** Text on the brand colour (at least 4.5:1 against it). */
  onBrand: string;
  /** Second brand colour for highlights. */
  accent: string;
  /** Page background. */
  surface: string;
  /** Background of raised parts (cards, menus). */
  raised: string;
  /** Body text (at least 4.5:1 against surface and raised). */
  text: string;
  /** Links (at least 4.5:1 against surface). */
  link: string;
  /** Focus ring: an outer ring in this colour around an inner halo, so one of them stands out
   * (at least 3:1) on every background of the site. */
  focus: string;
  focusHalo: string;
  headingFont: string;
  bodyFont: string;
}

export interface Site {
  id: string;
  /** Brand name as visitors see it. */
  name: string;
  corporate: boolean;
  /** Languages of the site; the first is the default, served without a path prefix. */
  languages: readonly [Lang, ...Lang[]];
  logo: LogoId;
  /** The logo of a language version where it differs (sibylla's Swedish version). */
  logoByLang?: Partial<Record<Lang, LogoId>>;
  header: { variant: HeaderVariant; stickyThreshold: number };
  /** The shop's customer pages, which the header links to (spec: the URLs are settings). */
  account?: { loginHref: string; accountHref: string };
  /**
   * The site sells through the shop: it shows buy controls and a cart badge and keeps its copy of
   * the shop's cart in sync through a hidden shop frame (shop spec §4 "Cart sync").
   */
  sellsThroughShop?: boolean;
  theme: ThemeTokens;
  /** Short description per language: meta description and home-page lead. */
  tagline: Partial<Record<Lang, string>>;
}
