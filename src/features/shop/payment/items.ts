import type { PricedCart, PricingLine } from '../pricing.ts';
import type { PaymentItem } from './provider.ts';

/**
 * A priced cart (decision 019) as a payment's items: what each line charges after its group
 * coupons and its share of the order discounts, with its own VAT rate, so the items add up to the
 * cart's total to the cent and, per rate, to the cart's VAT breakdown. A line whose charge does not
 * divide by its quantity becomes two items of the same product (some units a cent dearer).
 * Shipping is an item of its own; a gift card redeemed as payment (`usedGiftCardAmount`) is a
 * negative item without VAT, so `amountCents` is what is left to pay.
 */

export const SHIPPING_PRODUCT_CODE = 'toimitus';
export const GIFT_CARD_PAYMENT_CODE = 'lahjakortti';

export interface PaymentItemsOptions {
  /** Item descriptions by product code (the product's name). */
  descriptions?: Readonly<Record<string, string>>;
  shippingDescription?: string;
  /** The shipping's VAT rate in basis points; needed when the cart has shipping. */
  shippingVatBasisPoints?: number;
  /** Gift-card balance used as payment, 0 … total. */
  giftCardCents?: number;
  giftCardDescription?: string;
}

function vatPercentage(basisPoints: number): number {
  return basisPoints / 100;
}

/** `lines` are the ones `priceCart` priced into `priced`, in the same order. */
export function paymentItemsOf(
  lines: readonly PricingLine[],
  priced: PricedCart,
  options: PaymentItemsOptions = {},
): { amountCents: number; items: PaymentItem[] } {
  if (lines.length !== priced.lines.length) throw new Error('Not the lines of this priced cart.');
  const items: PaymentItem[] = [];
  for (const [i, line] of priced.lines.entries()) {
    const quantity = lines[i]?.quantity ?? 0;
    if (lines[i]?.code !== line.code || quantity < 1) {
      throw new Error('Not the lines of this priced cart.');
    }
    const charged = line.lineCents - line.orderShareCents;
    const base = Math.floor(charged / quantity);
    const dearer = charged - base * quantity;
    const description = options.descriptions?.[line.code]?.slice(0, 1000);
    const item = (unitPriceCents: number, count: number): PaymentItem => ({
      unitPriceCents,
      units: count,
      vatPercentage: vatPercentage(line.vatBasisPoints),
      productCode: line.code,
      ...(description ? { description } : {}),
    });
    if (dearer > 0) items.push(item(base + 1, dearer));
    if (quantity - dearer > 0) items.push(item(base, quantity - dearer));
  }
  if (priced.shippingCents > 0) {
    if (options.shippingVatBasisPoints === undefined) {
      throw new Error('The cart has shipping: its VAT rate is needed.');
    }
    items.push({
      unitPriceCents: priced.shippingCents,
      units: 1,
      vatPercentage: vatPercentage(options.shippingVatBasisPoints),
      productCode: SHIPPING_PRODUCT_CODE,
      ...(options.shippingDescription ? { description: options.shippingDescription } : {}),
    });
  }
  const giftCard = options.giftCardCents ?? 0;
  if (!Number.isInteger(giftCard) || giftCard < 0 || giftCard > priced.totalCents) {
    throw new Error('A gift card pays 0 … the total.');
  }
  if (giftCard > 0) {
    items.push({
      unitPriceCents: -giftCard,
      units: 1,
      vatPercentage: 0,
      productCode: GIFT_CARD_PAYMENT_CODE,
      ...(options.giftCardDescription ? { description: options.giftCardDescription } : {}),
    });
  }
  return { amountCents: priced.totalCents - giftCard, items };
}
