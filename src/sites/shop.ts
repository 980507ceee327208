import type { Site } from './types.ts';

/**
 * The site that sells: the meat shop. Its id is also a path segment of the shop's API
 * (`/api/v1/lihakauppa/…`, `/api/search/lihakauppa-products`).
 */
export const SHOP_SITE_ID = 'lihakauppa';

export function isShopSite(site: Site): boolean {
  return site.id === SHOP_SITE_ID;
}
