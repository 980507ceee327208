import { useT } from '../../i18n/react.tsx';
import { followCartLink, useShopCartCount, useSyncedCart } from '../shop/index.ts';
import type { CartSummary } from './header-props.ts';
import { Icon } from './icons.tsx';
import styles from './site-header.module.css';

/**
 * The header's cart link with its count. The cart's changes (the synced copy's answers from the
 * shop's frame, the shop's own cart events) re-render this link alone, not the whole header: a
 * store update is synchronous, and the header is most of a page's elements.
 */
export function HeaderCartLink(props: { cart: CartSummary }) {
  const t = useT();
  const { cart } = props;
  // On a site that sells through the shop, the count is the browser's synced copy of the cart.
  const synced = useSyncedCart(cart.sync);
  const shown = synced ?? cart;
  // On the shop, a change made by the page's own widgets (buy control, cart page) comes as an event.
  const count = useShopCartCount() ?? shown.lineItemCount;
  return (
    <a
      className={`${styles.iconButton} ${count > 0 ? '' : styles.desktopOnly}`}
      href={cart.href}
      // On a brand site, the click hands the synced cart over to the shop (decision 021).
      onClick={synced ? followCartLink : undefined}
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
