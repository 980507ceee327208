import type { FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { Island } from '../../render/island.server.tsx';
import { SHOP_SITE_ID } from '../../sites/shop.ts';
import { StockAndBuyControl } from './buy-island.server.tsx';
import { loadCart } from './cart.server.ts';
import { takeCartNotice } from './cart-form.server.ts';
import { loadBrandBuyWidget } from './cart-sync/brand-buy.server.tsx';
import { customerAnswer, sessionCustomerId } from './customer/accounts.server.ts';
import { currentHold, holdAnswer } from './orders/holds.server.ts';
import styles from './shop.module.css';

/**
 * What the shop puts on the pages the content feature renders: the buying part of a product page
 * and the cart page. The app hands these to the page loader as widgets, so content never imports
 * the shop.
 */

/** The columns of a product row the shop needs (content's row has them all). */
export interface ShopProductRow {
  id: number;
  siteId: string;
  code: string;
  name: string;
  productGroup: string | null;
  priceCents: number | null;
  svhPriceCents: number | null;
  stock: number | null;
  /** On a brand site that sells through the shop: the shop's product code (decision 021). */
  shopCode: string | null;
}

/**
 * Stock, buy control, the product's delivery dates and the view_item event in the shop; on a brand
 * site that sells through the shop, the shop's price and buy control for a product it maps to.
 */
export async function loadShopProductWidget(
  request: FastifyRequest,
  product: ShopProductRow,
): Promise<ReactNode | undefined> {
  if (request.site.id !== SHOP_SITE_ID) return loadBrandBuyWidget(request, product.shopCode);
  if (product.priceCents === null) return undefined;
  const { lang } = request.locale;
  return (
    <div className={styles.purchase}>
      <StockAndBuyControl
        product={{ ...product, priceCents: product.priceCents }}
        lang={lang}
        stockClassName={styles.stock}
      />
      <Island
        name="shop-availability-check"
        lang={lang}
        hydrate="visible"
        props={{ productId: product.id }}
      />
      <Island name="shop-delivery-check" lang={lang} hydrate="idle" props={{ sticky: true }} />
    </div>
  );
}

/** The session's cart key when the session is stored (no cart before that). */
function cartKeyOf(request: FastifyRequest) {
  const session = request.session;
  if (!session || session.isNew) return null;
  return { sessionId: session.id, siteId: SHOP_SITE_ID };
}

/** The cart page (`/ostoskori`, page type `cart`) of the shop: its items, rendered with the page. */
export async function loadShopPageWidget(
  request: FastifyRequest,
  page: { type: string },
): Promise<{ element: ReactNode; inline: boolean; failed: boolean } | undefined> {
  if (request.site.id !== SHOP_SITE_ID || page.type !== 'cart') return undefined;
  const notice = takeCartNotice(request) ?? null;
  // The header's badge already marks every shop page private to the session (header.server.ts).
  const cart = await loadCart(request.server.db, cartKeyOf(request), request.locale.lang);
  // The step to the order details depends on the login and the delivery postal code (spec §2).
  const customerId = await sessionCustomerId(request.session);
  const customer = customerId ? await customerAnswer(request.server.db, customerId) : null;
  // A held delivery time locks the lines (decision 101); the page says what is held.
  const held = cart.isEditable ? null : await currentHold(request.server.db, cartKeyOf(request));
  const hold = held ? holdAnswer(held, request.locale.lang) : null;
  // Read from the tables of visitors and content alone (a notice is read once, a held time ends
  // by the clock): its visitor may get it again for a moment (decision 163).
  if (notice === null && held === null) request.server.pageCache.keepForVisitor(request);
  return {
    element: (
      <Island
        name="shop-cart"
        lang={request.locale.lang}
        props={{
          cart,
          // The page is private to the session (above), so its anti-forgery token may stand in it.
          form: { token: request.session.derive('xsrf'), notice },
          shopper: {
            loggedIn: customer !== null,
            postalCode: customer?.deliveryAddress.postalCode ?? '',
          },
          hold: hold
            ? { label: hold.label, expiresAt: hold.expiresAt, postalCode: hold.postalCode }
            : null,
        }}
      />
    ),
    inline: true,
    // A refused post: the page's title begins with 'Virhe:' (the failed-submit pattern).
    failed: (notice?.errors.length ?? 0) > 0,
  };
}
