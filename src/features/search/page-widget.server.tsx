import type { FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { loadFacetSearch, loadShopProductSearch } from './facet-search.server.ts';
import { FacetSearchBlock } from './facet-search-block.tsx';
import { facetSearchKindOf } from './schemas.ts';
import { loadSearchPage } from './search-page.server.ts';
import { SearchPageBlock } from './search-page-block.tsx';
import { ShopProductSearchBlock } from './shop-product-search-block.tsx';

export interface SearchWidget {
  element: ReactNode;
  /** A product, recipe or newsroom search sits inside the page's column under its lead text;
   * the site search takes the page's width below its heading. */
  inline: boolean;
  /** The site search page's indexing (decision 050): canonical plain query, else `noindex`. */
  seo?: { query: string; noindex: boolean };
}

/**
 * The search a content page holds, rendered from the request's URL: the site search on a page
 * of type `search`, a facet search where the page's `widget` setting names one (the shop's with
 * its product cards), else none.
 */
export async function loadSearchWidget(
  request: FastifyRequest,
  page: { type: string; path: string; settings: Record<string, unknown> },
): Promise<SearchWidget | undefined> {
  const kind = facetSearchKindOf(page.settings.widget);
  if (kind === 'shop') {
    const props = await loadShopProductSearch(request, page);
    return { element: <ShopProductSearchBlock search={props} />, inline: true };
  }
  if (kind) {
    const props = await loadFacetSearch(request, page, kind);
    return { element: <FacetSearchBlock search={props} />, inline: true };
  }
  if (page.type !== 'search') return undefined;
  const props = await loadSearchPage(request, page);
  return { element: <SearchPageBlock search={props} />, inline: false, seo: searchPageSeo(props) };
}

/**
 * The site search page's canonical query and whether it is kept out of the index (decision 050):
 * only its plain query (`?q=…`, or nothing) is a page of its own; an address holding anything else
 * the page shows differently by (paging, content group, page size, facets, unknown parameters;
 * defaults are left out first, as the page's own links do) is `noindex` with the plain query as
 * its canonical URL, so crawlers find no endless set of result pages.
 */
export function searchPageSeo(props: { state: { q: string }; search?: string | undefined }): {
  query: string;
  noindex: boolean;
} {
  const query = props.state.q.trim();
  const rest = [...new URLSearchParams(props.search ?? '').keys()].filter((key) => key !== 'q');
  return { query, noindex: rest.length > 0 };
}
