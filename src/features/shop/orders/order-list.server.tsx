import { serverT } from '../../../i18n/catalogues.ts';
import type { Lang } from '../../../sites/types.ts';
import { helsinkiDate } from '../dates.ts';
import { moneyString } from '../schemas.ts';
import styles from './orders.module.css';
import { deliveryLabel, STATUS_TEXT } from './paid.server.ts';
import { CONFIRMATION_PATH, type OrderRow } from './payments.server.ts';

/** `2026-12-03` → `3.12.2026`. */
function finnishDate(isoDate: string): string {
  const [y, m, d] = isoDate.split('-').map(Number);
  return `${d}.${m}.${y}`;
}

/**
 * The customer's orders on 'Oma tili' (contract item 7): number, date, delivery time, total and
 * status, each with a link to its confirmation page; newest first.
 */
export function CustomerOrders({ orders, lang }: { orders: OrderRow[]; lang: Lang }) {
  const t = serverT(lang);
  if (orders.length === 0) return <p>{t('account.page.noOrders')}</p>;
  return (
    <table className={styles.orders}>
      <thead>
        <tr>
          <th scope="col">{t('shop.order.number')}</th>
          <th scope="col">{t('shop.order.date')}</th>
          <th scope="col">{t('shop.order.deliveryTime')}</th>
          <th scope="col" className={styles.number}>
            {t('shop.cart.total')}
          </th>
          <th scope="col">{t('shop.order.status')}</th>
        </tr>
      </thead>
      <tbody>
        {orders.map((order) => (
          <tr key={order.id}>
            <td data-label={t('shop.order.number')}>
              <a
                href={`${CONFIRMATION_PATH}?tilaus=${order.id}`}
                aria-label={t('shop.order.show', { number: String(order.number) })}
              >
                {order.number}
              </a>
            </td>
            <td data-label={t('shop.order.date')}>{finnishDate(helsinkiDate(order.createdAt))}</td>
            <td data-label={t('shop.order.deliveryTime')}>{deliveryLabel(order, lang)}</td>
            <td data-label={t('shop.cart.total')} className={styles.number}>
              {`${moneyString(order.totalCents + order.usedGiftCardCents)} €`}
            </td>
            <td data-label={t('shop.order.status')}>{t(STATUS_TEXT[order.status])}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
