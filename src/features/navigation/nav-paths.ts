import type { Lang } from '../../sites/types.ts';

/** The site search page of each language (spec §2: the quick box navigates there with `q`). */
const searchPaths: Record<Lang, string> = { fi: '/haku', sv: '/sok', en: '/search' };

/** The search page of a language version: `/haku`, `/sok`, `/en/search`. */
export function searchPath(prefix: string, lang: Lang): string {
  return `${prefix}${searchPaths[lang]}`;
}

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** Whether a menu link points at the page being shown (query and anchor ignored). */
export function isCurrentPath(link: string, currentPath: string): boolean {
  if (!link.startsWith('/')) return false;
  const target = link.split(/[?#]/, 1)[0] ?? link;
  return trimSlash(target) === trimSlash(currentPath);
}

/**
 * Whether the page being shown lies in a menu link's section: the link itself or a page under
 * it. A home page (`/`, `/en/`) contains only itself, or every tab would be in it.
 */
export function isInSection(link: string, currentPath: string): boolean {
  if (isCurrentPath(link, currentPath)) return true;
  if (!link.startsWith('/')) return false;
  const target = trimSlash(link.split(/[?#]/, 1)[0] ?? link);
  if (target === '/' || /^\/[a-z]{2}$/.test(target)) return false;
  return currentPath.startsWith(`${target}/`);
}
