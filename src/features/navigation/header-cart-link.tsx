import { createContext, use } from 'react';
import { useT } from '../../i18n/react.tsx';
import { type CartSyncPart, useShopCartCount } from '../shop/index.ts';
import type { AccountLink, CartSummary, HeaderVisitor } from './header-props.ts';
import { HEADER_HOLES } from './hole-names.ts';
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
 *
 * The link is a hole of a shared page (decision 157): `data-hole` stays its first attribute, and
 * the server renders it again with the visitor's count (`headerHoleFills`).
 */
export function HeaderCartLink(props: { cart: CartSummary; visitor: HeaderVisitor }) {
  const sync = use(CartSyncContext);
  return props.cart.sync && sync ? (
    <SyncedCartLink cart={props.cart} sync={sync} />
  ) : (
    <CartLink
      cart={props.cart}
      shown={{ lineItemCount: props.visitor.lineItemCount, loading: props.cart.loading }}
    />
  );
}

/** On a site that sells through the shop, the count is the browser's synced copy of the cart. */
function SyncedCartLink(props: { cart: CartSummary; sync: CartSyncPart }) {
  const synced = props.sync.useSyncedCart(props.cart.sync);
  return (
    <CartLink
      cart={props.cart}
      shown={synced ?? { lineItemCount: 0, loading: props.cart.loading }}
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
      data-hole={HEADER_HOLES.cart}
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
