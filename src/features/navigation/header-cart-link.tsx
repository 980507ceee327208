import { createContext, use } from 'react';
import { useT } from '../../i18n/react.tsx';
import { type CartSyncPart, useShopCartCount } from '../shop/index.ts';
import type { CartSummary } from './header-props.ts';
import { Icon } from './icons.tsx';
import styles from './site-header.module.css';

/**
 * The shop's cart sync (its `cartSync` part), on a site that sells through the shop: the app's
 * registry joins it to the header there (`site-header-synced`), so other sites' headers load
 * none of it.
 */
export const CartSyncContext = createContext<CartSyncPart | null>(null);

/**
 * The header's cart link with its count. The cart's changes (the synced copy's answers from the
 * shop's frame, the shop's own cart events) re-render this link alone, not the whole header: a
 * store update is synchronous, and the header is most of a page's elements.
 */
export function HeaderCartLink(props: { cart: CartSummary }) {
  const sync = use(CartSyncContext);
  return props.cart.sync && sync ? (
    <SyncedCartLink cart={props.cart} sync={sync} />
  ) : (
    <CartLink cart={props.cart} shown={props.cart} />
  );
}

/** On a site that sells through the shop, the count is the browser's synced copy of the cart. */
function SyncedCartLink(props: { cart: CartSummary; sync: CartSyncPart }) {
  const synced = props.sync.useSyncedCart(props.cart.sync);
  return (
    <CartLink
      cart={props.cart}
      shown={synced ?? props.cart}
      // The click hands the synced cart over to the shop (decision 021).
      onClick={synced ? props.sync.followCartLink : undefined}
    />
  );
}

function CartLink(props: {
  cart: CartSummary;
  shown: { lineItemCount: number; loading: boolean };
  onClick?: CartSyncPart['followCartLink'] | undefined;
}) {
  const t = useT();
  const { cart, shown } = props;
  // On the shop, a change made by the page's own widgets (buy control, cart page) comes as an event.
  const count = useShopCartCount() ?? shown.lineItemCount;
  return (
    <a
      className={`${styles.iconButton} ${count > 0 ? '' : styles.desktopOnly}`}
      href={cart.href}
      onClick={props.onClick}
      aria-label={count > 0 ? t('header.cartWithCount', { count }) : t('header.cart')}
      aria-busy={shown.loading || undefined}
      data-cart-count={count}
    >
      <Icon name="cart" size={26} />
      {count > 0 ? (
        <span className={styles.badge} aria-hidden="true">
          {count}
        </span>
      ) : null}
    </a>
  );
}
