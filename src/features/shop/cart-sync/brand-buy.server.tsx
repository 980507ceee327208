import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { columnsOf } from '../../../db/columns.ts';
import { serverT } from '../../../i18n/catalogues.ts';
import { formatPrice } from '../../../i18n/format.ts';
import { getSite } from '../../../sites/registry.ts';
import { isShopSite, SHOP_SITE_ID } from '../../../sites/shop.ts';
import { products } from '../../content/index.server.ts';
import { StockAndBuyControl } from '../buy-island.server.tsx';
import styles from './brand-buy.module.css';
import { cartSyncConfig } from './routes.server.tsx';

/** What a brand site's product page needs of the shop's product it maps to (`products.shop_code`). */
export async function shopProductOf(request: FastifyRequest, shopCode: string) {
  const shopLang = getSite(SHOP_SITE_ID)?.languages[0] ?? 'fi';
  const [row] = await request.server.db
    .select(
      columnsOf(
        products,
        'code',
        'name',
        'productGroup',
        'priceCents',
        'pricePerKgCents',
        'svhPriceCents',
        'stock',
      ),
    )
    .from(products)
    .where(
      and(
        eq(products.siteId, SHOP_SITE_ID),
        eq(products.lang, shopLang),
        eq(products.code, shopCode),
        isNotNull(products.priceCents),
      ),
    )
    .orderBy(asc(products.id))
    .limit(1);
  return row;
}

/**
 * The buying part of a product page on a brand site that sells through the shop (decision 021):
 * the shop's price and stock, rendered on the server from the shop's own row, and the shop's buy
 * control adding through the hidden shop frame (cart sync). Nothing when the product has no shop
 * code, the shop does not sell it, or the site does not sell through the shop.
 */
export async function loadBrandBuyWidget(
  request: FastifyRequest,
  shopCode: string | null,
): Promise<ReactNode | undefined> {
  const { site } = request;
  if (!shopCode || !site.sellsThroughShop || isShopSite(site)) return undefined;
  const sync = cartSyncConfig(request);
  const shop = await shopProductOf(request, shopCode);
  if (!sync || !shop || shop.priceCents === null) return undefined;
  const { lang } = request.locale;
  const t = serverT(lang);
  return (
    <section className={styles.buy} aria-labelledby="brand-buy-title" data-shop-code={shop.code}>
      <h2 id="brand-buy-title" className={styles.title}>
        {t('shop.brand.buyTitle')}
      </h2>
      <p className={styles.price}>
        <span className={styles.amount}>{formatPrice(shop.priceCents)}</span>
        {shop.pricePerKgCents !== null ? (
          <span className={styles.perKg}>
            {t('product.pricePerKg', { price: formatPrice(shop.pricePerKgCents) })}
          </span>
        ) : null}
      </p>
      <StockAndBuyControl
        product={{ ...shop, priceCents: shop.priceCents }}
        lang={lang}
        stockClassName={styles.stock}
        sync={sync}
      />
      <p className={styles.note}>{t('shop.brand.note')}</p>
    </section>
  );
}
