/**
 * The lunch menu's island, for the app's island registry: its own chunk, fetched when a page has
 * the menu and the browser is idle. The editor is a further chunk, fetched when editing starts.
 */
export const lunchMenuIslands = {
  'lunch-menu': () => import('./lunch-menu.tsx').then((m) => m.LunchMenu),
};
