import { siteLogo } from '../../sites/registry.ts';
import { homePath, langPrefix } from '../../sites/resolve.ts';
import type { HeaderVariant, Lang, LogoId, Site } from '../../sites/types.ts';
import type { CartSyncConfig } from '../shop/index.ts';
import { searchPath } from './nav-paths.ts';
import type { DesktopNav, MobileNav } from './schemas.ts';

/**
 * The shop's cart link as every visitor of a page shares it (shop spec §3 "Cart summary
 * (header)"): where it goes, whether the count is still loading, and on a brand site that sells
 * through the shop `sync`, where the shop's frame is: the browser's synced copy fills the count
 * in there. On the shop the count is the visitor's (`HeaderVisitor`).
 */
export interface CartSummary {
  href: string;
  loading: boolean;
  sync: CartSyncConfig | null;
}

/**
 * What the header shows of one visitor (decision 157): the number of line items in their shop
 * cart and whether a customer is logged in. It reaches the island as its `visitor` prop, apart
 * from the page's shared JSON; a shared page is rendered with the guest's and the visitor's own
 * fragments are filled in per request.
 */
export interface HeaderVisitor {
  lineItemCount: number;
  loggedIn: boolean;
}

export const GUEST_VISITOR: HeaderVisitor = { lineItemCount: 0, loggedIn: false };

export { HEADER_HOLES } from './hole-names.ts';

/** What the frame of a page needs beyond the site and language: built once per request. */
export interface LayoutData {
  desktop: DesktopNav;
  mobile: MobileNav;
  /** Path of the page being shown, with its language prefix (for aria-current). */
  currentPath: string;
  /** The shop's cart, on the shop and the sites that sell through it; null on the others. */
  cart: CartSummary | null;
  /** The shop's account link; null on the other sites. */
  account: AccountLink | null;
  /** The visitor's part of the header: the guest's on a page shared through holes. */
  visitor: HeaderVisitor;
}

/** The shop's login link for visitors and its 'Oma tili' link for a logged-in customer. */
export interface AccountLink {
  loginHref: string;
  accountHref: string;
}

/** Props of the `site-header` island: plain JSON, the same on the server and in the browser. */
export interface SiteHeaderProps {
  variant: HeaderVariant;
  stickyThreshold: number;
  siteName: string;
  logo: LogoId;
  homeHref: string;
  searchAction: string;
  currentPath: string;
  desktop: DesktopNav;
  mobile: MobileNav;
  cart: CartSummary | null;
  account: AccountLink | null;
  /** The visitor's part (the island's JSON leaves it out, see `Island`). */
  visitor: HeaderVisitor;
  /** Inside a frame the header leaves the page (the shop, which opens as a hidden frame). */
  hideInFrame: boolean;
}

export function headerProps(
  site: Site,
  lang: Lang,
  layout: LayoutData,
): Omit<SiteHeaderProps, 'visitor'> {
  return {
    variant: site.header.variant,
    stickyThreshold: site.header.stickyThreshold,
    siteName: site.name,
    logo: siteLogo(site, lang),
    homeHref: homePath(site, lang),
    searchAction: searchPath(langPrefix(site, lang), lang),
    currentPath: layout.currentPath,
    desktop: layout.desktop,
    mobile: layout.mobile,
    cart: layout.cart,
    account: layout.account,
    hideInFrame: site.header.variant === 'shop',
  };
}
