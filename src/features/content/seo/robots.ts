/**
 * robots.txt of a site: everything may be crawled except the JSON API, result pages of a search
 * (`?q=`) or of a facet filter (`facetTags=`), whose combinations are endless and say nothing the
 * listing pages and the sitemap do not — with one exception (decision 050): the site search
 * page's plain query, `<search page>?q=…`, which a crawler may fetch. Its longer `Allow` rule
 * wins over `Disallow: /*?q=` (the longest matching rule decides, RFC 9309 §2.2.2); a facet
 * selection (`&facetTags=`, longer still) stays disallowed, and the search page itself marks
 * paging and every other parameter `noindex` with a canonical link to the plain query.
 * `*` in paths is understood by the major crawlers (RFC 9309 leaves it to them; Google and Bing
 * document it).
 *
 * `searchPaths`: the paths of the site's search pages, language prefix included (`/haku`,
 * `/sv/sok`), as served.
 */
export function robotsTxt(origin: string, searchPaths: readonly string[] = []): string {
  return [
    'User-agent: *',
    'Allow: /',
    ...[...new Set(searchPaths)].sort().map((path) => `Allow: ${robotsPath(path)}?q=`),
    'Disallow: /api/',
    'Disallow: /*?q=',
    'Disallow: /*&q=',
    'Disallow: /*?facetTags=',
    'Disallow: /*&facetTags=',
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}

/**
 * A path as a robots.txt rule: percent-encoded as a URL carries it, and `*` and `$` (which are
 * pattern characters there) written `%2A` and `%24`, so the rule matches the page literally.
 */
function robotsPath(path: string): string {
  return new URL(path, 'http://robots.invalid').pathname
    .replace(/\*/g, '%2A')
    .replace(/\$/g, '%24');
}
