import type { Lang, Site, ThemeTokens } from './types.ts';

const sans = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const serif = 'Georgia, "Times New Roman", Times, serif';

function theme(
  overrides: Partial<ThemeTokens> & Pick<ThemeTokens, 'brand' | 'accent'>,
): ThemeTokens {
  return {
    onBrand: '#ffffff',
    surface: '#ffffff',
    raised: '#f6f4f1',
    text: '#1d1d1b',
    link: overrides.brand,
    focus: '#1d1d1b',
    focusHalo: '#ffffff',
    headingFont: sans,
    bodyFont: sans,
    ...overrides,
  };
}

/** Sticky thresholds of spec §9: default 200 px, shop 130, third brand 120, master-chef brand 100. */
const threshold = { default: 200, shop: 130, thirdBrand: 120, masterChef: 100 } as const;

const brandHeader = { variant: 'brand', stickyThreshold: threshold.default } as const;

/**
 * A site that is not corporate and, unless it says otherwise, shows the brand header with the
 * default sticky threshold.
 */
function brandSite<
  const S extends Omit<Site, 'corporate' | 'header'> & Partial<Pick<Site, 'header'>>,
>(site: S): S & Pick<Site, 'corporate' | 'header'> {
  return { corporate: false, header: brandHeader, ...site };
}

/**
 * The fourteen sites. Identifiers are the spec's contract values; the two corporate sites are
 * `konsernifi` (Finnish) and `koncernse` (Swedish).
 */
export const sites = [
  {
    id: 'konsernifi',
    name: 'Kattaus',
    corporate: true,
    languages: ['fi', 'en'],
    logo: 'corporate',
    header: { variant: 'corporate', stickyThreshold: threshold.default },
    theme: theme({ brand: '#0b4a37', accent: '#b3122e', raised: '#eef4f1' }),
    tagline: {
      fi: 'Suomalainen elintarvikekonserni: lihaa, broileria, valmisruokaa ja leikkeleitä.',
      en: 'A Finnish food group: meat, chicken, ready meals and cold cuts.',
    },
  },
  {
    id: 'koncernse',
    name: 'Kattaus Sverige',
    corporate: true,
    languages: ['sv', 'en'],
    logo: 'corporate',
    header: { variant: 'corporate', stickyThreshold: threshold.default },
    theme: theme({ brand: '#0b4a37', accent: '#1c5fa8', raised: '#eef4f1' }),
    tagline: {
      sv: 'Livsmedelskoncernens svenska verksamhet: chark, färdigmat och snabbmat.',
      en: 'The group in Sweden: charcuterie, ready meals and fast food.',
    },
  },
  brandSite({
    id: 'lihakauppa',
    name: 'Lihakauppa',
    languages: ['fi'],
    logo: 'product:lihakauppa',
    header: { variant: 'shop', stickyThreshold: threshold.shop },
    account: { loginHref: '/kirjaudu', accountHref: '/oma-tili' },
    theme: theme({ brand: '#8c1c13', accent: '#3d5a2a', raised: '#f7f1ec', headingFont: serif }),
    tagline: { fi: 'Kotimaista lihaa kotiovelle: pihvit, paistit, jauhelihat ja makkarat.' },
  }),
  brandSite({
    id: 'jyvabroiler',
    name: 'Jyväbroileri',
    languages: ['fi'],
    logo: 'product:jyvabroiler',
    sellsThroughShop: true,
    header: { variant: 'third-brand', stickyThreshold: threshold.thirdBrand },
    theme: theme({
      brand: '#f2b705',
      onBrand: '#1d1d1b',
      accent: '#7a4a00',
      link: '#7a4a00',
      raised: '#fdf6e1',
    }),
    tagline: { fi: 'Viljalla ruokittua kotimaista broileria arkeen ja juhlaan.' },
  }),
  brandSite({
    id: 'export',
    name: 'Kattaus Export',
    languages: ['en'],
    logo: 'export',
    header: { variant: 'export', stickyThreshold: threshold.default },
    theme: theme({ brand: '#123a63', accent: '#b3122e', raised: '#eef2f7' }),
    tagline: { en: 'Finnish pork, beef and poultry for food industry partners worldwide.' },
  }),
  brandSite({
    id: 'ammattilaiset',
    name: 'Kattaus Ammattilaiset',
    languages: ['fi'],
    logo: 'product:ammattilaiset',
    theme: theme({ brand: '#00594f', accent: '#c05a00', raised: '#edf5f3' }),
    tagline: { fi: 'Tuotteet, reseptit ja ideat ammattikeittiöille ja ravintoloille.' },
  }),
  brandSite({
    id: 'foodservicese',
    name: 'Kattaus Foodservice',
    languages: ['sv'],
    logo: 'product:foodservice',
    theme: theme({ brand: '#00594f', accent: '#1c5fa8', raised: '#edf5f3' }),
    tagline: { sv: 'Produkter och recept för storkök, restauranger och skolor.' },
  }),
  brandSite({
    id: 'delise',
    name: 'Deli',
    languages: ['sv'],
    logo: 'product:deli',
    theme: theme({ brand: '#5b2a86', accent: '#c0392b', raised: '#f5f0fa', headingFont: serif }),
    tagline: { sv: 'Pålägg, korv och delikatesser till frukost, lunch och fest.' },
  }),
  brandSite({
    id: 'ridderheimsse',
    name: 'Ridderheims',
    languages: ['sv'],
    logo: 'ridderheims',
    header: { variant: 'simple-dropdown', stickyThreshold: threshold.default },
    theme: theme({
      brand: '#1b2a4a',
      accent: '#9a7b2f',
      link: '#1b2a4a',
      raised: '#f4f1ea',
      headingFont: serif,
    }),
    tagline: { sv: 'Delikatesser sedan länge: skinka, korv och patéer för det goda bordet.' },
  }),
  brandSite({
    id: 'mestariforsmanfi',
    name: 'Mestari Forsman',
    languages: ['fi'],
    logo: 'product:mestariforsman',
    sellsThroughShop: true,
    header: { variant: 'master-chef', stickyThreshold: threshold.masterChef },
    theme: theme({
      brand: '#111111',
      onBrand: '#f5efe3',
      accent: '#c9a45c',
      surface: '#ffffff',
      raised: '#f5efe3',
      link: '#6b4f12',
      headingFont: serif,
    }),
    tagline: { fi: 'Mestarin käsityönä tehdyt leikkeleet, makkarat ja herkut.' },
  }),
  brandSite({
    id: 'lithellsse',
    name: 'Lithells',
    languages: ['sv'],
    logo: 'lithells',
    theme: theme({ brand: '#c8102e', accent: '#1d4f91', link: '#a00d25', raised: '#fbf0f1' }),
    tagline: { sv: 'Korv, skinka och köttbullar som hela familjen tycker om.' },
  }),
  brandSite({
    id: 'lonnebergase',
    name: 'Lönneberga',
    languages: ['sv'],
    logo: 'lonneberga',
    theme: theme({ brand: '#2e6b30', accent: '#a4412a', raised: '#f1f6ee' }),
    tagline: { sv: 'Svensk chark från gården: falukorv, prinskorv och rökt skinka.' },
  }),
  brandSite({
    id: 'goohse',
    name: 'GOOH!',
    languages: ['sv'],
    logo: 'product:gooh',
    theme: theme({ brand: '#e4002b', accent: '#1d1d1b', link: '#b00021', raised: '#fff1f3' }),
    tagline: { sv: 'Färdiga rätter som går snabbt: värm, ät och njut.' },
  }),
  brandSite({
    id: 'sibylla',
    name: 'Sibylla',
    languages: ['fi', 'sv', 'en'],
    logo: 'sibylla',
    logoByLang: { sv: 'sibylla-sv' },
    theme: theme({
      brand: '#d52b1e',
      accent: '#ffcd00',
      link: '#b3241a',
      raised: '#fff6e0',
    }),
    tagline: {
      fi: 'Grillimakkarat, hampurilaiset ja pikaruoka Sibyllan tapaan.',
      sv: 'Korv, burgare och snabbmat på Sibyllas vis.',
      en: 'Hot dogs, burgers and fast food the Sibylla way.',
    },
  }),
] as const satisfies readonly Site[];

export type SiteId = (typeof sites)[number]['id'];

const byId = new Map<string, Site>(sites.map((s) => [s.id, s]));

export function getSite(id: string): Site | undefined {
  return byId.get(id);
}

export function siteLogo(site: Site, lang: Lang) {
  return site.logoByLang?.[lang] ?? site.logo;
}
