/**
 * The navigation's island: the site header with its menus. Name → lazy import of the component, for the
 * app's island registry: each becomes its own chunk, fetched only when a page has the island
 * and its trigger fires.
 */
export const navigationIslands = {
  'site-header': () =>
    import('./site-header.tsx').then(async (m) => {
      // The server renders the header's parts that the browser loads on first use.
      if (typeof window === 'undefined') await m.loadDeferredParts();
      return m.SiteHeader;
    }),
};

/**
 * The header for a site that sells through the shop, joined by the app's registry with the
 * shop's cart sync (`site-header-synced`).
 */
export const navigationIslandParts = {
  syncedHeader: () =>
    import('./site-header.tsx').then(async (m) => {
      if (typeof window === 'undefined') await m.loadDeferredParts();
      return m.siteHeaderWith;
    }),
};
