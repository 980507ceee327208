/**
 * robots.txt of a site: everything may be crawled except the JSON API and result pages of a search
 * (`?q=`) or of a facet filter (`facetTags=`), whose combinations are endless and say nothing the
 * listing pages and the sitemap do not. `*` in paths is understood by the major crawlers (RFC 9309
 * leaves it to them; Google and Bing document it).
 */
export function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    'Allow: /',
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
