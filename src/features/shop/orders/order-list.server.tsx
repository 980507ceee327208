import { serverT } from '../../../i18n/catalogues.ts';
import type { Lang } from '../../../sites/types.ts';
import { helsinkiDate } from '../dates.ts';
import { moneyString } from '../schemas.ts';
import { deliveryLabel, STATUS_TEXT } from './payment-returns.server.ts';
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
    <table>
      <thead>
        <tr>
          <th scope="col">{t('shop.order.number')}</th>
          <th scope="col">{t('shop.order.date')}</th>
          <th scope="col">{t('shop.order.deliveryTime')}</th>
          <th scope="col">{t('shop.cart.total')}</th>
          <th scope="col">{t('shop.order.status')}</th>
        </tr>
      </thead>
      <tbody>
        {orders.map((order) => (
          <tr key={order.id}>
            <td>
              <a
                href={`${CONFIRMATION_PATH}?tilaus=${order.id}`}
                aria-label={t('shop.order.show', { number: String(order.number) })}
              >
                {order.number}
              </a>
            </td>
            <td>{finnishDate(helsinkiDate(order.createdAt))}</td>
            <td>{deliveryLabel(order, lang)}</td>
            <td>{`${moneyString(order.totalCents + order.usedGiftCardCents)} €`}</td>
            <td>{t(STATUS_TEXT[order.status])}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
