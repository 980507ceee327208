import type { FastifyRequest } from 'fastify';
import { siteHomeUrl } from '../../render/render-page.tsx';
import { logDegraded } from '../../server/outage.ts';
import { SHOP_SITE_ID } from '../../sites/shop.ts';
import { cartSyncConfig, headerCartSummary } from '../shop/index.server.ts';
import type { CartSummary, LayoutData } from './header-props.ts';
import { desktopNav, loadNavTree, mobileNav, type NavNode } from './nav.server.ts';

/** The shop's cart page, opened at its product list (spec §2). */
export const CART_HREF = '/ostoskori#tuotteet';
/**
 * Whether the session holds a logged-in customer (spec: logged-in status comes from the customer,
 * `loggedIn`). The shop keeps its customer under `customer` in the session; there are no customer
 * accounts yet, so today every visitor is anonymous.
 */
export async function customerLoggedIn(request: FastifyRequest): Promise<boolean> {
  let customer: unknown;
  try {
    customer = (await request.session.get()).customer;
  } catch (err) {
    // As with the menus: the page must render when the database is down (as anonymous).
    logDegraded(request, err, 'session unavailable; showing the login link');
    return false;
  }
  return (
    typeof customer === 'object' &&
    customer !== null &&
    (customer as { loggedIn?: unknown }).loggedIn === true
  );
}

/**
 * The header's cart: on the shop the session's (see headerCartSummary); on a site that sells
 * through the shop an empty, loading one that the browser fills from the synced copy, linking to
 * the shop's cart page; none elsewhere.
 */
async function cartSummary(request: FastifyRequest, shop: boolean): Promise<CartSummary | null> {
  if (shop) return { href: CART_HREF, ...(await headerCartSummary(request)), sync: null };
  const sync = cartSyncConfig(request);
  if (!sync) return null;
  return {
    href: new URL(CART_HREF, siteHomeUrl(request, SHOP_SITE_ID)).href,
    lineItemCount: 0,
    total: '0,00',
    loading: true,
    deliveryAddress: { streetAddress: '' },
    sync,
  };
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
 * login link, no shop cart.
 */
export async function loadLayoutData(
  request: FastifyRequest,
  options: { offline?: boolean } = {},
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
  const loggedIn = site.account && !options.offline ? await customerLoggedIn(request) : false;
  return {
    desktop: desktopNav(ctx, tree),
    mobile: mobileNav(ctx, tree, locale.rest),
    currentPath: request.url.split('?', 1)[0] ?? '/',
    cart: options.offline && shop ? null : await cartSummary(request, shop),
    account: site.account
      ? { href: loggedIn ? site.account.accountHref : site.account.loginHref, loggedIn }
      : null,
  };
}
