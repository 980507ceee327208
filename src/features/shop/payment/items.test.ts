import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PricingCoupon, type PricingLine, priceCart } from '../pricing.ts';
import { GIFT_CARD_PAYMENT_CODE, paymentItemsOf, SHIPPING_PRODUCT_CODE } from './items.ts';
import { checkPaymentRequest, type PaymentItem } from './provider.ts';

const line = (code: string, unitCents: number, quantity: number, vat = 1350): PricingLine => ({
  code,
  productGroup: null,
  unitCents,
  quantity,
  vatBasisPoints: vat,
  isGiftCard: vat === 0,
});

const sum = (items: PaymentItem[]) =>
  items.reduce((total, item) => total + item.unitPriceCents * item.units, 0);

function request(amountCents: number, items: PaymentItem[]) {
  return {
    stamp: 's',
    reference: 'r',
    amountCents,
    currency: 'EUR' as const,
    language: 'fi' as const,
    items,
    customer: { email: 'a@example.fi' },
    redirectUrls: { success: 'https://shop.example/ok', cancel: 'https://shop.example/no' },
  };
}

describe('paymentItemsOf', () => {
  it('a coupon, a gift card bought, shipping and a gift card redeemed: one item each', () => {
    const lines = [line('100234', 1290, 3), line('LAHJAKORTTI25', 2500, 1, 0)];
    const coupon: PricingCoupon = {
      code: 'TERVETULOA10',
      percentOff: 10,
      amountOffCents: null,
      productGroup: null,
      minOrderCents: 0,
    };
    const priced = priceCart(lines, [coupon], 590);
    const { amountCents, items } = paymentItemsOf(lines, priced, {
      descriptions: { '100234': 'Naudan jauheliha 400 g' },
      shippingVatBasisPoints: 2550,
      giftCardCents: 1000,
    });
    // 3 × 12,90 = 38,70 less 10 % = 34,83 = 3 × 11,61; gift cards take no coupons.
    expect(items).toEqual([
      {
        unitPriceCents: 1161,
        units: 3,
        vatPercentage: 13.5,
        productCode: '100234',
        description: 'Naudan jauheliha 400 g',
      },
      { unitPriceCents: 2500, units: 1, vatPercentage: 0, productCode: 'LAHJAKORTTI25' },
      { unitPriceCents: 590, units: 1, vatPercentage: 25.5, productCode: SHIPPING_PRODUCT_CODE },
      { unitPriceCents: -1000, units: 1, vatPercentage: 0, productCode: GIFT_CARD_PAYMENT_CODE },
    ]);
    expect(amountCents).toBe(priced.totalCents - 1000);
    expect(sum(items)).toBe(amountCents);
  });

  it('a charge that does not divide by the quantity is two items: 10,00 over 3 as 1 × 3,34 and 2 × 3,33', () => {
    const lines = [line('A', 1000, 3)];
    const fixed: PricingCoupon = {
      code: 'X',
      percentOff: null,
      amountOffCents: 2000,
      productGroup: null,
      minOrderCents: 0,
    };
    const { items } = paymentItemsOf(lines, priceCart(lines, [fixed]));
    expect(items.map((i) => [i.unitPriceCents, i.units])).toEqual([
      [334, 1],
      [333, 2],
    ]);
  });

  it('refuses shipping without its VAT rate, a gift card above the total, and foreign lines', () => {
    const lines = [line('A', 1000, 1)];
    expect(() => paymentItemsOf(lines, priceCart(lines, [], 500))).toThrow(/VAT/);
    expect(() => paymentItemsOf(lines, priceCart(lines, []), { giftCardCents: 1001 })).toThrow();
    expect(() => paymentItemsOf([line('B', 1000, 1)], priceCart(lines, []))).toThrow();
  });

  it('over 2 000 random carts: the items add up to the amount, per VAT rate to the goods, and pass the request check', () => {
    const rates = [1350, 1400, 2550, 2400, 0] as const;
    const lineArb = fc.record({
      code: fc.stringMatching(/^[A-Z0-9]{1,6}$/),
      productGroup: fc.constantFrom('Naudanliha', 'Possu', null),
      unitCents: fc.integer({ min: 1, max: 50_000 }),
      quantity: fc.integer({ min: 1, max: 99 }),
      vatBasisPoints: fc.constantFrom(...rates),
      isGiftCard: fc.boolean(),
    });
    const couponArb = fc.record({
      code: fc.constantFrom('A', 'B', 'C'),
      percentOff: fc.option(fc.integer({ min: 1, max: 100 }), { nil: null }),
      amountOffCents: fc.integer({ min: 1, max: 200_000 }),
      productGroup: fc.constantFrom('Naudanliha', 'Possu', null),
      minOrderCents: fc.constant(0),
    });
    fc.assert(
      fc.property(
        fc.array(lineArb, { minLength: 1, maxLength: 10 }),
        fc.array(couponArb, { maxLength: 3 }),
        fc.integer({ min: 0, max: 2000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (lines, coupons, shipping, giftShare) => {
          const priced = priceCart(
            lines,
            coupons.map((c) => ({ ...c, amountOffCents: c.percentOff ? null : c.amountOffCents })),
            shipping,
          );
          const giftCardCents = Math.floor(priced.totalCents * giftShare);
          const { amountCents, items } = paymentItemsOf(lines, priced, {
            shippingVatBasisPoints: 2550,
            giftCardCents,
          });
          expect(sum(items)).toBe(amountCents);
          expect(amountCents).toBe(priced.totalCents - giftCardCents);
          for (const share of priced.vat) {
            const atRate = items.filter(
              (i) =>
                i.vatPercentage * 100 === share.basisPoints &&
                i.productCode !== GIFT_CARD_PAYMENT_CODE &&
                i.productCode !== SHIPPING_PRODUCT_CODE,
            );
            expect(sum(atRate)).toBe(share.grossCents);
          }
          for (const item of items) expect(item.units).toBeGreaterThanOrEqual(1);
          if (amountCents > 0)
            expect(() => checkPaymentRequest(request(amountCents, items))).not.toThrow();
        },
      ),
      { numRuns: 2000 },
    );
  });
});
