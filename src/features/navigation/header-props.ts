import { siteLogo } from '../../sites/registry.ts';
import { homePath, langPrefix } from '../../sites/resolve.ts';
import type { HeaderVariant, Lang, LogoId, Site } from '../../sites/types.ts';
import type { CartSyncConfig } from '../shop/index.ts';
import { searchPath } from './nav-paths.ts';
import type { DesktopNav, MobileNav } from './schemas.ts';

/**
 * The shop's cart as the header shows it (shop spec §3 "Cart summary (header)"): a link with the
 * number of line items, the total, whether it is still loading and the delivery street address.
 * On a brand site that sells through the shop the server knows no cart: `sync` tells the island
 * where the shop's frame is, and the browser's synced copy fills the summary in.
 */
export interface CartSummary {
  href: string;
  lineItemCount: number;
  total: string;
  loading: boolean;
  deliveryAddress: { streetAddress: string };
  sync: CartSyncConfig | null;
}

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
}

/** The shop's login link for visitors, or its 'Oma tili' link for a logged-in customer. */
export interface AccountLink {
  href: string;
  loggedIn: boolean;
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
  /** Inside a frame the header leaves the page (the shop, which opens as a hidden frame). */
  hideInFrame: boolean;
}

export function headerProps(site: Site, lang: Lang, layout: LayoutData): SiteHeaderProps {
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
