import { sites } from './registry.ts';
import type { Site } from './types.ts';

/**
 * The site that sells: the meat shop. Its id is also a path segment of the shop's API
 * (`/api/v1/lihakauppa/…`, `/api/search/lihakauppa-products`).
 */
export const SHOP_SITE_ID = 'lihakauppa';

export function isShopSite(site: Site): boolean {
  return site.id === SHOP_SITE_ID;
}

/** The brand sites that sell through the shop (the registry's `sellsThroughShop`). */
export function shopSellingSiteIds(): string[] {
  return sites
    .filter((site: Site) => site.sellsThroughShop === true && !isShopSite(site))
    .map((site) => site.id);
}
