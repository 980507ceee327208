import { and, asc, eq, or } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { columnsOf } from '../../db/columns.ts';
import { serverT } from '../../i18n/catalogues.ts';
import { imageUrl } from '../../images/presets.ts';
import { NotFound } from '../../server/errors.ts';
import { langPrefix } from '../../sites/resolve.ts';
import type { Lang, Site } from '../../sites/types.ts';
import { pages } from '../content/index.server.ts';
import { languageLinks } from './language-links.ts';
import {
  type DesktopNav,
  langOfLanguageId,
  type MobileNav,
  type NavQuery,
  type Tab,
} from './schemas.ts';

/** A page of the navigation tree, with the children shown in menus. */
export interface NavNode {
  id: number;
  path: string;
  label: string;
  area: string;
  icon: string | null;
  isExternal: boolean;
  externalUrl: string | null;
  teaserImageId: number | null;
  children: NavNode[];
}

/** The menu pages of a site's language version as a tree under its home page. */
export async function loadNavTree(db: Database, siteId: string, lang: Lang): Promise<NavNode[]> {
  const rows = await db
    .select(
      columnsOf(
        pages,
        'id',
        'parentId',
        'path',
        'title',
        'navLabel',
        'navArea',
        'icon',
        'isExternal',
        'externalUrl',
        'teaserImageId',
      ),
    )
    .from(pages)
    // The home page is read even when it is not in the menus: its children are the top level.
    .where(
      and(
        eq(pages.siteId, siteId),
        eq(pages.lang, lang),
        or(eq(pages.showInNav, true), eq(pages.path, '/')),
      ),
    )
    .orderBy(asc(pages.sortOrder), asc(pages.id));
  const nodes = new Map<number, NavNode & { parentId: number | null }>();
  for (const row of rows) {
    nodes.set(row.id, {
      id: row.id,
      parentId: row.parentId,
      path: row.path,
      label: row.navLabel ?? row.title,
      area: row.navArea,
      icon: row.icon,
      isExternal: row.isExternal,
      externalUrl: row.externalUrl,
      teaserImageId: row.teaserImageId,
      children: [],
    });
  }
  const home = rows.find((r) => r.path === '/');
  const roots: NavNode[] = [];
  for (const node of nodes.values()) {
    if (node.path === '/') continue;
    const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
    if (parent && parent.path !== '/') parent.children.push(node);
    else if (node.parentId === null || node.parentId === home?.id) roots.push(node);
  }
  return roots;
}

interface NavContext {
  site: Site;
  lang: Lang;
}

function href(ctx: NavContext, node: NavNode): string {
  if (node.isExternal && node.externalUrl) return node.externalUrl;
  return `${langPrefix(ctx.site, ctx.lang)}${node.path}`;
}

function toTab(ctx: NavContext, node: NavNode): Tab {
  const t = serverT(ctx.lang);
  return {
    label: node.label,
    link: href(ctx, node),
    icon: node.icon,
    isExternal: node.isExternal,
    showBorder: node.area === 'top' && node.icon === null,
    children: node.children.map((child) => ({
      label: child.label,
      link: href(ctx, child),
      isExternal: child.isExternal,
    })),
    teaserImage: node.teaserImageId
      ? imageUrl({ id: node.teaserImageId, slug: node.label }, 'third')
      : null,
    showMoreLabel: node.children.length > 0 ? t('nav.showMore', { label: node.label }) : null,
  };
}

function languageMenu(ctx: NavContext) {
  const t = serverT(ctx.lang);
  return languageLinks(ctx.site, ctx.lang).map((l) => ({
    label: t(l.labelKey),
    link: l.href,
    lang: l.lang,
  }));
}

export function desktopNav(ctx: NavContext, tree: NavNode[]): DesktopNav {
  return {
    topTabs: tree.filter((n) => n.area === 'top').map((n) => toTab(ctx, n)),
    bottomTabs: tree.filter((n) => n.area !== 'top').map((n) => toTab(ctx, n)),
    languageMenu: languageMenu(ctx),
  };
}

/** `currentPath` expands the accordion that holds the page being shown. */
export function mobileNav(ctx: NavContext, tree: NavNode[], currentPath: string): MobileNav {
  const main = tree.filter((n) => n.area !== 'top');
  const utility = tree.filter((n) => n.area === 'top');
  const t = serverT(ctx.lang);
  return {
    barLinks: main.slice(0, 3).map((n) => ({ label: n.label.toUpperCase(), link: href(ctx, n) })),
    navAccordions: main.map((n) => ({
      label: n.label,
      link: href(ctx, n),
      children: n.children.map((c) => ({
        label: c.label,
        link: href(ctx, c),
        isExternal: c.isExternal,
      })),
      expanded: currentPath === n.path || currentPath.startsWith(`${n.path}/`),
      showMoreLabel: n.children.length > 0 ? t('nav.showMore', { label: n.label }) : null,
      isExternal: n.isExternal,
      teaserImage: n.teaserImageId
        ? imageUrl({ id: n.teaserImageId, slug: n.label }, 'third')
        : null,
    })),
    navLinks: utility.map((n) => ({ label: n.label, link: href(ctx, n), icon: n.icon })),
    languageMenu: languageMenu(ctx),
  };
}

// ---------------------------------------------------------------------------------------------
// `/api/nav/desktop` and `/api/nav/mobile`
// ---------------------------------------------------------------------------------------------

/** The site's language a request names; 404 when the site has no such language. */
function navContextOf(site: Site, query: NavQuery): NavContext {
  const lang = langOfLanguageId(query.languageId);
  if (!lang || !site.languages.includes(lang)) throw new NotFound('The site has no such language.');
  return { site, lang };
}

/** The path of the page `pageId` names in the site's language version; 404 when there is none. */
async function pagePathOf(db: Database, ctx: NavContext, pageId: number): Promise<string> {
  const [page] = await db
    .select({ path: pages.path })
    .from(pages)
    .where(and(eq(pages.id, pageId), eq(pages.siteId, ctx.site.id), eq(pages.lang, ctx.lang)));
  if (!page) throw new NotFound('No such page on this site.');
  return page.path;
}

/** `/api/nav/desktop`: the desktop header's navigation of a language version. */
export async function desktopNavigation(
  db: Database,
  site: Site,
  query: NavQuery,
): Promise<DesktopNav> {
  const ctx = navContextOf(site, query);
  if (query.pageId) await pagePathOf(db, ctx, query.pageId);
  return desktopNav(ctx, await loadNavTree(db, site.id, ctx.lang));
}

/** `/api/nav/mobile`: the mobile menu, with the accordion of page `pageId` expanded. */
export async function mobileNavigation(
  db: Database,
  site: Site,
  query: NavQuery,
): Promise<MobileNav> {
  const ctx = navContextOf(site, query);
  const currentPath = query.pageId ? await pagePathOf(db, ctx, query.pageId) : '/';
  return mobileNav(ctx, await loadNavTree(db, site.id, ctx.lang), currentPath);
}
