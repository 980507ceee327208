import type { FastifyRequest } from 'fastify';
import { langPrefix } from '../../../sites/resolve.ts';
import type { Lang, Site } from '../../../sites/types.ts';

const HOST_HEADER = /^([a-z0-9.-]+)(?::(\d{1,5}))?$/;

/**
 * The origin (`https://www.sibylla.example`) that absolute URLs of a site use.
 *
 * The Host header is the client's to choose, and canonical links, sitemaps and JSON-LD are read by
 * search engines and kept in shared caches, so a host only makes it into an absolute URL when it is
 * one of the site's own. Anything else (an IP address, `localhost`, a forged name) gets the site's
 * canonical host: its first `SITE_HOSTS` entry, or `<site>.localhost` on the request's port when
 * none is configured, so development URLs keep working.
 */
export function siteOrigin(options: {
  protocol: string;
  hostHeader: string | undefined;
  /** The site's hosts, the canonical one first (`SiteResolver.hostsOf`). */
  hosts: readonly string[];
  siteId: string;
}): string {
  const scheme = options.protocol === 'https' ? 'https' : 'http';
  const match = HOST_HEADER.exec((options.hostHeader ?? '').trim().toLowerCase());
  const name = match?.[1];
  const port = validPort(match?.[2]);
  if (name && options.hosts.includes(name)) {
    return `${scheme}://${name}${port ? `:${port}` : ''}`;
  }
  const canonical = options.hosts[0] ?? `${options.siteId}.localhost`;
  // A configured public host stands on its own; a port belongs only to `<site>.localhost`.
  const keepPort = port && canonical.endsWith('.localhost');
  return `${scheme}://${canonical}${keepPort ? `:${port}` : ''}`;
}

function validPort(port: string | undefined): string | undefined {
  if (!port) return undefined;
  const n = Number(port);
  return Number.isInteger(n) && n >= 1 && n <= 65535 ? String(n) : undefined;
}

/** The origin of the request's site, checked against the site's hosts (see `siteOrigin`). */
export function requestOrigin(request: FastifyRequest): string {
  return siteOrigin({
    protocol: request.protocol,
    hostHeader: request.headers.host,
    hosts: request.server.sites.hostsOf(request.site.id),
    siteId: request.site.id,
  });
}

/**
 * The path visitors see for a content path of a language version: `/reseptit/x` in the default
 * language, `/en/recipes/x` in another; the home page `/` becomes `/` or `/en/`.
 */
export function localizedPath(site: Site, lang: Lang, path: string): string {
  const prefix = langPrefix(site, lang);
  return path === '/' || path === '' ? `${prefix}/` : `${prefix}${path}`;
}

/**
 * An absolute URL on `origin` for a root-relative path, percent-encoded where the path has letters
 * outside ASCII (`/reseptit/pyttipannu-ä` → `…/pyttipannu-%C3%A4`); escapes already in it are kept.
 * URLs that already are absolute are kept as they are.
 */
export function absoluteUrl(origin: string, pathOrUrl: string): string {
  if (/^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
  const path = pathOrUrl.startsWith('/') ? pathOrUrl : `/${pathOrUrl}`;
  return `${origin}${encodePath(path)}`;
}

function encodePath(path: string): string {
  try {
    return encodeURI(path).replace(/%25([0-9A-Fa-f]{2})/g, '%$1');
  } catch {
    // A lone surrogate cannot be encoded; such a path cannot have been requested either.
    return path;
  }
}
