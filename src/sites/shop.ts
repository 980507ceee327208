import { sites } from './registry.ts';
import { SHOP_SITE_ID } from './shop-id.ts';
import type { Site } from './types.ts';

export { SHOP_SITE_ID };

export function isShopSite(site: Site): boolean {
  return site.id === SHOP_SITE_ID;
}

/** The brand sites that sell through the shop (the registry's `sellsThroughShop`). */
export function shopSellingSiteIds(): string[] {
  return sites
    .filter((site: Site) => site.sellsThroughShop === true && !isShopSite(site))
    .map((site) => site.id);
}
