import type { FastifyInstance, FastifyRequest } from 'fastify';
import { serverT } from '../../../i18n/catalogues.ts';
import { CART_SYNC_ENTRY } from '../../../render/assets.ts';
import { renderPage, siteHomeUrl, siteOrigins } from '../../../render/render-page.tsx';
import { NotFound } from '../../../server/errors.ts';
import { isShopSite, SHOP_SITE_ID, shopSellingSiteIds } from '../../../sites/shop.ts';
import { handoverApiRoutes } from './handover-routes.server.tsx';
import { CART_SYNC_PATH } from './protocol.ts';
import type { CartSyncConfig } from './site-cart.ts';

/** The origins whose messages the shop's frame answers: every origin of each selling site. */
export function brandOrigins(request: FastifyRequest): string[] {
  return shopSellingSiteIds().flatMap((id) => siteOrigins(request, id));
}

/**
 * Cart sync for the page of a site that sells through the shop: the shop's frame address and the
 * origin its answers must come from, as this brand site sees the shop. Null on other sites.
 */
export function cartSyncConfig(request: FastifyRequest): CartSyncConfig | null {
  const { site } = request;
  if (!site.sellsThroughShop || isShopSite(site)) return null;
  const frameUrl = new URL(CART_SYNC_PATH, siteHomeUrl(request, SHOP_SITE_ID));
  return {
    frameUrl: frameUrl.href,
    shopOrigin: frameUrl.origin,
    frameTitle: serverT(request.locale.lang)('header.cart'),
  };
}

/**
 * The shop's `/cart-sync` page, which the selling brand sites open as a hidden frame: no header,
 * content or styles, only the brand sites' origins and the frame's own script (decision 061), which
 * loads the shop cart through the cart API and answers their messages. Other sites do not have it.
 */
export async function cartSyncRoutes(app: FastifyInstance) {
  await app.register(handoverApiRoutes);
  app.get(CART_SYNC_PATH, async (request, reply) => {
    if (!isShopSite(request.site)) throw new NotFound();
    const { lang } = request.locale;
    return renderPage(request, reply, {
      title: serverT(lang)('header.cart'),
      assets: request.server.assets.entry(CART_SYNC_ENTRY),
      body: <div id="cart-sync" data-allowed-origins={JSON.stringify(brandOrigins(request))} />,
    });
  });
}
