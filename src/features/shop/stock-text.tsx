import type { MessageKey } from '../../i18n/fi.ts';
import { useT } from '../../i18n/react.tsx';
import { FEW_IN_STOCK } from './values.ts';

export { FEW_IN_STOCK };

/** The stock as the visitor reads it: sold out, only N, 5+, or plain 'in stock' (no limit). */
export function stockMessage(stock: number | null): { key: MessageKey; count?: number } {
  if (stock === null) return { key: 'shop.stock.unlimited' };
  if (stock <= 0) return { key: 'shop.stock.soldOut' };
  if (stock < FEW_IN_STOCK) return { key: 'shop.stock.few', count: stock };
  return { key: 'shop.stock.many' };
}

export function StockText(props: { stock: number | null; className?: string }) {
  const t = useT();
  const { key, count } = stockMessage(props.stock);
  return (
    <p className={props.className} data-stock={props.stock === 0 ? 'sold-out' : 'available'}>
      {count === undefined ? t(key) : t(key, { count })}
    </p>
  );
}
