import { type Cart, moneyString } from './schemas.ts';

/**
 * A cart answer for the shop's component tests: one line of `totalCents` (13.5 % VAT), nothing
 * else, then `changes`.
 */
export function cartOf(totalCents = 2490, changes: Partial<Cart> = {}): Cart {
  const money = moneyString(totalCents);
  return {
    loading: false,
    currency: 'EUR',
    currencySymbol: '€',
    vatTotal: moneyString(Math.round((totalCents * 0.135) / 1.135)),
    vatPercent: 13.5,
    vatBreakdown: [],
    orderDiscount: '0,00',
    total: money,
    subTotal: money,
    usedGiftCardAmount: '0,00',
    giftCards: [],
    shippingTotal: '0,00',
    shippingTotalWithoutDiscounts: '0,00',
    warnings: [],
    checkoutWarnings: [],
    lineItemCount: 1,
    lineItems: [
      {
        code: 'SISA400',
        productId: 1,
        name: 'Naudan sisäfilee 400 g',
        category: 'Naudanliha',
        quantity: 1,
        linePrice: money,
        linePriceWithoutDiscounts: money,
        imageUrl: null,
        isGiftCard: false,
        url: '/tuotteet/naudanliha/naudan-sisafilee',
        unitPrice: money,
        maxQuantity: 99,
        vatPercent: 13.5,
      },
    ],
    couponCodes: [],
    handlingTotal: '0,00',
    hasGiftCardsOnly: false,
    shippingMethodId: null,
    paymentMethodCode: null,
    isEditable: true,
    usedLoyaltyCouponAmount: '0,00',
    usedRefundCodeAmount: '0,00',
    ...changes,
  };
}
