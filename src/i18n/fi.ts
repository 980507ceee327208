/**
 * The source catalogue. Keys are stable identifiers; `sv.ts` and `en.ts` must define every key
 * (the type checker refuses a missing one). `{name}` marks a value filled in by `t()`.
 */
export const fi = {
  'document.titleSeparator': ' | ',
  'layout.skipToContent': 'Siirry sisältöön',
  'layout.mainNavigation': 'Päävalikko',
  'layout.footer': 'Alatunniste',
  'layout.copyright': '© {year} {name}',
  'layout.groupSite': 'Kattaus-konserni',
  'layout.homeLink': '{name} – etusivu',
  'language.switchTo.fi': 'Suomeksi',
  'language.switchTo.sv': 'På svenska',
  'language.switchTo.en': 'In English',
  'language.name.fi': 'suomi',
  'language.name.sv': 'svenska',
  'language.name.en': 'English',
  'language.menu': 'Kieli',
  'menu.open': 'Avaa valikko',
  'menu.close': 'Sulje valikko',
  'menu.home': 'Etusivu',
  'menu.label': 'Valikko',
  'search.label': 'Hae sivustolta',
  'search.placeholder': 'Etsi tuote, resepti tai muuta tietoa',
  'search.button': 'Hae',
  'home.ourSites': 'Sivustomme',
  'home.ourSitesLead': 'Konsernin brändit ja palvelut verkossa.',
  'home.siteLanguages': 'Kielet: {languages}',
  'error.notFound.title': 'Sivua ei löytynyt',
  'error.notFound.body': 'Etsimääsi sivua ei ole tai se on siirretty toiseen osoitteeseen.',
  'error.server.title': 'Jotain meni vikaan',
  'error.server.body': 'Sivua ei voitu näyttää. Yritä hetken kuluttua uudelleen.',
  'error.backHome': 'Siirry etusivulle',
  'validation.required': 'Tämä kenttä on pakollinen',
  'validation.invalid': 'Tarkista kentän arvo',
} as const;

export type MessageKey = keyof typeof fi;
export type Messages = { readonly [K in MessageKey]: string };
