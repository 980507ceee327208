import type { ComponentType } from 'react';

/**
 * Every island the pages may use: name → lazy import of its component. Each entry becomes its
 * own chunk, fetched only when a page has that island and its trigger fires.
 */
export const islands = {
  'site-header': () => import('../features/navigation/site-header.tsx').then((m) => m.SiteHeader),
  // The old header menu: no page uses it now; src/render/island.test.tsx still does.
  'menu-toggle': () => import('../features/navigation/menu-toggle.tsx').then((m) => m.MenuToggle),
} satisfies Record<string, () => Promise<ComponentType<never>>>;

export type IslandName = keyof typeof islands;
