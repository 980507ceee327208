import { getSite, sites } from './registry.ts';
import type { Lang, Site } from './types.ts';

export interface SiteResolver {
  /** The site a Host header belongs to; unknown hosts get the default site. */
  byHost(hostHeader: string | undefined): Site;
  /** Public host names of a site, the first being its canonical one. */
  hostsOf(siteId: string): readonly string[];
}

export function createSiteResolver(options: {
  siteHosts: Record<string, string[]>;
  defaultSite: string;
}): SiteResolver {
  const fallback = getSite(options.defaultSite);
  if (!fallback) {
    throw new Error(`DEFAULT_SITE "${options.defaultSite}" is not one of the sites`);
  }
  const hosts = new Map<string, Site>();
  const hostsBySite = new Map<string, string[]>();
  for (const site of sites) {
    const configured = options.siteHosts[site.id] ?? [];
    const all = [...configured, `${site.id}.localhost`];
    hostsBySite.set(site.id, all);
    for (const host of all) {
      const taken = hosts.get(host);
      if (taken && taken.id !== site.id) {
        throw new Error(
          `Host "${host}" is configured for two sites, "${taken.id}" and "${site.id}"; ` +
            'each host may belong to one site only (check SITE_HOSTS)',
        );
      }
      hosts.set(host, site);
    }
  }
  for (const id of Object.keys(options.siteHosts)) {
    if (!getSite(id)) throw new Error(`SITE_HOSTS names an unknown site "${id}"`);
  }
  return {
    byHost(hostHeader) {
      const host = stripPort(hostHeader ?? '').toLowerCase();
      return hosts.get(host) ?? fallback;
    },
    hostsOf(siteId) {
      return hostsBySite.get(siteId) ?? [];
    },
  };
}

function stripPort(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.lastIndexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

export interface Locale {
  lang: Lang;
  /** '' for the site's default language, otherwise '/en', '/sv'. */
  prefix: string;
  /** The path without the language prefix, always starting with '/'. */
  rest: string;
}

/**
 * Language comes from the first path segment when it names one of the site's other languages
 * (`/en/...` is English); any other path is in the site's default language.
 */
export function resolveLocale(site: Site, pathname: string): Locale {
  const [, first = '', ...others] = pathname.split('/');
  const [defaultLang] = site.languages;
  const candidate = site.languages.find((l) => l === first && l !== defaultLang);
  if (candidate) {
    return { lang: candidate, prefix: `/${candidate}`, rest: `/${others.join('/')}` };
  }
  return { lang: defaultLang, prefix: '', rest: pathname || '/' };
}

export function langPrefix(site: Site, lang: Lang): string {
  return lang === site.languages[0] ? '' : `/${lang}`;
}

/** The home page of a language version: '/' for the default language, '/en/' for English. */
export function homePath(site: Site, lang: Lang): string {
  return `${langPrefix(site, lang)}/`;
}

/**
 * A link of stored content in the visitor's language version. Content stores paths inside the
 * site without the language prefix (`/reseptit/…`, decision 007); pages in another language than
 * the site's first live under `/en`, `/sv`. Links to other sites and anchors stay as they are.
 */
export function localLink(link: string, prefix: string): string {
  if (!prefix || !link.startsWith('/') || link.startsWith('//')) return link;
  return `${prefix}${link}`;
}
