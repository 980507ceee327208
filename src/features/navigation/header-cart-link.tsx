import { useT } from '../../i18n/react.tsx';
import { followCartLink, useShopCartCount, useSyncedCart } from '../shop/index.ts';
import {
  type AccountLink,
  type CartSummary,
  HEADER_HOLES,
  type HeaderVisitor,
} from './header-props.ts';
import { Icon } from './icons.tsx';
import styles from './site-header.module.css';

/**
 * The header's cart link with its count. The cart's changes (the synced copy's answers from the
 * shop's frame, the shop's own cart events) re-render this link alone, not the whole header: a
 * store update is synchronous, and the header is most of a page's elements.
 *
 * The link is a hole of a shared page (decision 157): `data-hole` stays its first attribute, and
 * the server renders it again with the visitor's count (`headerHoleFills`).
 */
export function HeaderCartLink(props: { cart: CartSummary; visitor: HeaderVisitor }) {
  const t = useT();
  const { cart } = props;
  // On a site that sells through the shop, the count is the browser's synced copy of the cart.
  const synced = useSyncedCart(cart.sync);
  // On the shop, a change made by the page's own widgets (buy control, cart page) comes as an event.
  const count = useShopCartCount() ?? (synced ? synced.lineItemCount : props.visitor.lineItemCount);
  const loading = synced ? synced.loading : cart.loading;
  return (
    <a
      data-hole={HEADER_HOLES.cart}
      className={`${styles.iconButton} ${count > 0 ? '' : styles.desktopOnly}`}
      href={cart.href}
      // On a brand site, the click hands the synced cart over to the shop (decision 021).
      onClick={synced ? followCartLink : undefined}
      aria-label={count > 0 ? t('header.cartWithCount', { count }) : t('header.cart')}
      aria-busy={loading || undefined}
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

/** The shop's login link, or 'Oma tili' for a logged-in customer: a hole too (decision 157). */
export function HeaderAccountLink(props: { account: AccountLink; visitor: HeaderVisitor }) {
  const t = useT();
  const { loggedIn } = props.visitor;
  return (
    <a
      data-hole={HEADER_HOLES.account}
      className={`${styles.toolLink} ${styles.desktopOnly}`}
      href={loggedIn ? props.account.accountHref : props.account.loginHref}
    >
      <Icon name="user" size={20} />
      <span>{t(loggedIn ? 'header.account' : 'header.login')}</span>
    </a>
  );
}
