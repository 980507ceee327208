/**
 * The search pages' islands. Name → lazy import of the component, for the
 * app's island registry: each becomes its own chunk, fetched only when a page has the island
 * and its trigger fires.
 */
export const searchIslands = {
  'site-search': () => import('./search-page.tsx').then((m) => m.SiteSearch),
  'facet-search': () => import('./facet-search.tsx').then((m) => m.FacetSearch),
};

/**
 * Parts of islands that the app joins with another feature's parts: the shop's product search is
 * this grid with the shop's card part (`shopIslandParts`), in chunks of their own.
 */
export const searchIslandParts = {
  shopProductSearch: () => import('./shop-product-search.tsx').then((m) => m.shopProductSearchWith),
};
