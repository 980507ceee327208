/**
 * The navigation's island: the site header with its menus. Name → lazy import of the component, for the
 * app's island registry: each becomes its own chunk, fetched only when a page has the island
 * and its trigger fires.
 */
export const navigationIslands = {
  'site-header': () => import('./site-header.tsx').then((m) => m.SiteHeader),
};
