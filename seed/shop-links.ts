import { SHOP_SITE_ID, shopSellingSiteIds } from '../src/sites/shop.ts';
import type { ProductRow } from './model.ts';

/**
 * Maps the products of the brand sites that sell through the shop to the shop's product that is
 * the same thing (decision 021): the same family, variant and pack size, which the seed writes as
 * the same `translationKey` on every site. The brand row gets the shop's `code` as `shopCode`, so
 * its product page shows the shop's price and a buy control. Deterministic: it reads only rows.
 */
export function linkShopProducts(rows: ProductRow[]): number {
  const selling = new Set(shopSellingSiteIds());
  const shopCodes = new Map<string, string>();
  for (const row of rows) {
    if (row.siteId !== SHOP_SITE_ID || row.priceCents === null || row.priceCents === undefined)
      continue;
    if (!shopCodes.has(row.translationKey)) shopCodes.set(row.translationKey, row.code);
  }
  let linked = 0;
  for (const row of rows) {
    if (!selling.has(row.siteId)) continue;
    const code = shopCodes.get(row.translationKey);
    row.shopCode = code ?? null;
    if (code) linked += 1;
  }
  return linked;
}
