import type { FastifyRequest } from 'fastify';
import { siteHomeUrl } from '../../render/render-page.tsx';
import { logDegraded } from '../../server/outage.ts';
import { SHOP_SITE_ID } from '../../sites/shop.ts';
import { cartSyncConfig, headerVisitor } from '../shop/index.server.ts';
import {
  type AccountLink,
  type CartSummary,
  GUEST_VISITOR,
  type HeaderVisitor,
  type LayoutData,
} from './header-props.ts';
import { desktopNav, loadNavTree, mobileNav, type NavNode } from './nav.server.ts';

/** The shop's cart page, opened at its product list (spec §2). */
export const CART_HREF = '/ostoskori#tuotteet';
/**
 * What the header shows of the visitor (decision 157): on the shop their cart count and login
 * (`headerVisitor`); elsewhere nothing of theirs (a brand site's cart count is the browser's
 * synced copy), so every visitor is the guest there and no session is read.
 */
export async function loadHeaderVisitor(request: FastifyRequest): Promise<HeaderVisitor> {
  if (request.site.header.variant !== 'shop' && !request.site.account) return GUEST_VISITOR;
  return headerVisitor(request);
}

/**
 * The header's cart link: on the shop the shop's cart page, its count the visitor's; on a site
 * that sells through the shop a loading one that the browser fills from the synced copy, linking
 * to the shop's cart page; none elsewhere.
 */
export function cartSummary(request: FastifyRequest, shop: boolean): CartSummary | null {
  if (shop) return { href: CART_HREF, loading: false, sync: null };
  const sync = cartSyncConfig(request);
  if (!sync) return null;
  return {
    href: new URL(CART_HREF, siteHomeUrl(request, SHOP_SITE_ID)).href,
    loading: true,
    sync,
  };
}

/** The shop's login and account links, on a site with customer accounts. */
export function accountLink(request: FastifyRequest): AccountLink | null {
  const { account } = request.site;
  return account ? { loginHref: account.loginHref, accountHref: account.accountHref } : null;
}

/** Navigation trees by site and language, with the content version they were read at. */
const navTrees = new WeakMap<object, Map<string, { version: number; tree: Promise<NavNode[]> }>>();

/**
 * The navigation tree of the request's site and language, read once per content version (decision
 * 033): every page shows it, and it changes only with the content. A failed read is not kept.
 */
async function cachedNavTree(request: FastifyRequest): Promise<NavNode[]> {
  const { database } = request.server;
  await database.contentVersion.sync();
  const version = database.contentVersion.current;
  let trees = navTrees.get(database);
  if (!trees) {
    trees = new Map();
    navTrees.set(database, trees);
  }
  const key = `${request.site.id}:${request.locale.lang}`;
  const known = trees.get(key);
  if (known && known.version === version && database.contentVersion.complete) return known.tree;
  const tree = loadNavTree(request.server.db, request.site.id, request.locale.lang);
  const entry = { version, tree };
  trees.set(key, entry);
  tree.catch(() => {
    if (trees.get(key) === entry) trees.delete(key);
  });
  return tree;
}

/**
 * Everything the frame of a page needs for the request's site, language and path, from one read
 * of the page tree: the desktop and mobile navigation exactly as `/api/nav/*` answers them, so the
 * server-rendered header and the API agree. A site without pages gets empty menus; so does an
 * error page when the database is down (the page must still render). `offline` (the 503 page
 * while the database is unavailable, decision 140) asks the database nothing: empty menus, the
 * login link, no shop cart. `shared` renders the header as a guest sees it, for a page every
 * visitor shares: the visitor's own fragments are filled in per request (decision 157).
 */
export async function loadLayoutData(
  request: FastifyRequest,
  options: { offline?: boolean; shared?: boolean } = {},
): Promise<LayoutData> {
  const { site, locale } = request;
  const ctx = { site, lang: locale.lang };
  let tree: NavNode[] = [];
  if (!options.offline) {
    try {
      tree = await cachedNavTree(request);
    } catch (err) {
      logDegraded(request, err, 'navigation tree unavailable; rendering empty menus');
    }
  }
  const shop = site.header.variant === 'shop';
  return {
    desktop: desktopNav(ctx, tree),
    mobile: mobileNav(ctx, tree, locale.rest),
    currentPath: request.url.split('?', 1)[0] ?? '/',
    cart: options.offline && shop ? null : cartSummary(request, shop),
    account: accountLink(request),
    visitor: options.offline || options.shared ? GUEST_VISITOR : await loadHeaderVisitor(request),
  };
}
