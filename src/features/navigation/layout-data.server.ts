import type { FastifyRequest } from 'fastify';
import { headerLineItemCount } from '../shop/index.server.ts';
import type { LayoutData } from './header-props.ts';
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
    request.log.warn({ err }, 'session unavailable; showing the login link');
    return false;
  }
  return (
    typeof customer === 'object' &&
    customer !== null &&
    (customer as { loggedIn?: unknown }).loggedIn === true
  );
}

/**
 * Everything the frame of a page needs for the request's site, language and path, from one read
 * of the page tree: the desktop and mobile navigation exactly as `/api/nav/*` answers them, so the
 * server-rendered header and the API agree. A site without pages gets empty menus; so does an
 * error page when the database is down (the page must still render).
 */
export async function loadLayoutData(request: FastifyRequest): Promise<LayoutData> {
  const { site, locale } = request;
  const ctx = { site, lang: locale.lang };
  let tree: NavNode[] = [];
  try {
    tree = await loadNavTree(request.server.db, site.id, locale.lang);
  } catch (err) {
    request.log.warn({ err }, 'navigation tree unavailable; rendering empty menus');
  }
  const shop = site.header.variant === 'shop';
  const loggedIn = site.account ? await customerLoggedIn(request) : false;
  return {
    desktop: desktopNav(ctx, tree),
    mobile: mobileNav(ctx, tree, locale.rest),
    currentPath: request.url.split('?', 1)[0] ?? '/',
    // The session's cart (its number of line items; see headerLineItemCount).
    cart: shop ? { href: CART_HREF, lineItemCount: await headerLineItemCount(request) } : null,
    account: site.account
      ? { href: loggedIn ? site.account.accountHref : site.account.loginHref, loggedIn }
      : null,
  };
}
