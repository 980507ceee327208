import type { ComponentType } from 'react';

/**
 * Every island the pages may use: name → lazy import of its component. Each entry becomes its
 * own chunk, fetched only when a page has that island and its trigger fires.
 */
export const islands = {
  'menu-toggle': () => import('../features/navigation/menu-toggle.tsx').then((m) => m.MenuToggle),
} satisfies Record<string, () => Promise<ComponentType<never>>>;

export type IslandName = keyof typeof islands;
