import type { CardBuyProps } from '../content/index.ts';
import { BuyControl } from './buy-control.tsx';
import { moneyString } from './values.ts';

/**
 * The shop's buy control in an `lkProductCard` of a content card grid or card carousel: the same
 * control as on the product page and in the shop's search grid (quantity 1-99, 'Lisää ostoskoriin',
 * the header's badge following through the cart event), compact. The card itself shows the price,
 * stock and gift-card marking. Without script the form goes to the product's page.
 */
export function CardBuyControl(props: CardBuyProps) {
  return (
    <BuyControl
      code={props.code}
      name={props.name}
      category={null}
      price={moneyString(props.price)}
      svhPrice={props.svhPrice === undefined ? null : moneyString(props.svhPrice)}
      stock={props.stock ?? null}
      action={props.link}
      compact
    />
  );
}
