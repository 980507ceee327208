/**
 * The search pages' islands. Name → lazy import of the component, for the
 * app's island registry: each becomes its own chunk, fetched only when a page has the island
 * and its trigger fires.
 */
export const searchIslands = {
  'site-search': () => import('./search-page.tsx').then((m) => m.SiteSearch),
  'facet-search': () => import('./facet-search.tsx').then((m) => m.FacetSearch),
  // The shop's search: the facet search with the shop's product cards, in a chunk of its own.
  'shop-product-search': () => import('./shop-product-search.tsx').then((m) => m.ShopProductSearch),
};
