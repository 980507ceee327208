import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocate,
  type PricingCoupon,
  type PricingLine,
  priceCart,
  rateOn,
  vatOfGross,
} from './pricing.ts';

const groups = ['Naudanliha', 'Possu', 'Broileri', null] as const;
const rates = [1350, 1400, 2550, 2400, 0] as const;

const lineArb: fc.Arbitrary<PricingLine> = fc.record({
  code: fc.string({ minLength: 1, maxLength: 6 }),
  productGroup: fc.constantFrom(...groups),
  unitCents: fc.integer({ min: 1, max: 50_000 }),
  quantity: fc.integer({ min: 1, max: 99 }),
  vatBasisPoints: fc.constantFrom(...rates),
  isGiftCard: fc.boolean(),
});

const couponArb: fc.Arbitrary<PricingCoupon> = fc
  .record({
    code: fc.string({ minLength: 1, maxLength: 8 }),
    percent: fc.boolean(),
    percentOff: fc.integer({ min: 1, max: 100 }),
    amountOffCents: fc.integer({ min: 1, max: 200_000 }),
    productGroup: fc.constantFrom(...groups),
    minOrderCents: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 100_000 })),
  })
  .map(({ percent, percentOff, amountOffCents, ...rest }) => ({
    ...rest,
    percentOff: percent ? percentOff : null,
    amountOffCents: percent ? null : amountOffCents,
  }));

describe('priceCart', () => {
  it('over 10 000 random carts: lines less discounts are the total and VAT reconciles to the cent', () => {
    fc.assert(
      fc.property(
        fc.array(lineArb, { maxLength: 12 }),
        fc.array(couponArb, { maxLength: 3 }),
        (lines, coupons) => {
          const priced = priceCart(lines, coupons);
          const sumLines = priced.lines.reduce((sum, line) => sum + line.lineCents, 0);
          expect(sumLines).toBe(priced.subTotalCents);
          expect(priced.subTotalCents - priced.orderDiscountCents + priced.shippingCents).toBe(
            priced.totalCents,
          );
          expect(priced.totalCents).toBeGreaterThanOrEqual(0);
          // What is charged per rate adds up to the total; each rate's VAT is within half a cent.
          const charged = priced.vat.reduce((sum, share) => sum + share.grossCents, 0);
          expect(charged).toBe(priced.totalCents);
          let vat = 0;
          for (const share of priced.vat) {
            expect(share.netCents + share.vatCents).toBe(share.grossCents);
            const exact = (share.grossCents * share.basisPoints) / (10_000 + share.basisPoints);
            expect(Math.abs(share.vatCents - exact)).toBeLessThanOrEqual(0.5);
            vat += share.vatCents;
          }
          expect(priced.vatTotalCents).toBe(vat);
          const shares = priced.lines.reduce((sum, line) => sum + line.orderShareCents, 0);
          expect(shares).toBe(priced.orderDiscountCents);
          priced.lines.forEach((line, i) => {
            const input = lines[i] as PricingLine;
            expect(line.grossCents).toBe(input.unitCents * input.quantity);
            expect(line.lineCents).toBeLessThanOrEqual(line.grossCents);
            expect(line.lineCents - line.orderShareCents).toBeGreaterThanOrEqual(0);
            if (input.isGiftCard) {
              // Gift cards take no coupons and carry no VAT.
              expect(line.lineCents).toBe(line.grossCents);
              expect(line.orderShareCents).toBe(0);
              expect(line.vatBasisPoints).toBe(0);
            }
          });
          const goods = lines
            .filter((line) => !line.isGiftCard)
            .reduce((sum, line) => sum + line.unitCents * line.quantity, 0);
          for (const coupon of priced.belowMinimum) {
            expect(goods).toBeLessThan(coupon.minOrderCents);
          }
        },
      ),
      { numRuns: 10_000 },
    );
    // A fixed amount of work (10 000 carts), not a speed goal: room for a busy machine.
  }, 120_000);

  it('a worked example: mixed rates, a group coupon and an order coupon', () => {
    const priced = priceCart(
      [
        {
          code: 'a',
          productGroup: 'Naudanliha',
          unitCents: 1290,
          quantity: 2,
          vatBasisPoints: 1350,
          isGiftCard: false,
        },
        {
          code: 'b',
          productGroup: 'Possu',
          unitCents: 999,
          quantity: 1,
          vatBasisPoints: 1350,
          isGiftCard: false,
        },
        {
          code: 'c',
          productGroup: null,
          unitCents: 1500,
          quantity: 1,
          vatBasisPoints: 2550,
          isGiftCard: false,
        },
        {
          code: 'g',
          productGroup: null,
          unitCents: 5000,
          quantity: 1,
          vatBasisPoints: 1350,
          isGiftCard: true,
        },
      ],
      [
        {
          code: 'PIHVI20',
          percentOff: 20,
          amountOffCents: null,
          productGroup: 'Naudanliha',
          minOrderCents: 0,
        },
        {
          code: 'GRILLI5',
          percentOff: null,
          amountOffCents: 500,
          productGroup: null,
          minOrderCents: 4000,
        },
      ],
    );
    // 25,80 − 20 % = 20,64; goods 20,64 + 9,99 + 15,00 = 45,63; − 5,00; gift card 50,00.
    expect(priced.lines.map((line) => line.lineCents)).toEqual([2064, 999, 1500, 5000]);
    expect(priced.orderDiscountCents).toBe(500);
    expect(priced.totalCents).toBe(2064 + 999 + 1500 + 5000 - 500);
    expect(priced.vat.map((share) => share.basisPoints)).toEqual([2550, 1350, 0]);
    expect(priced.vatTotalCents).toBe(priced.vat.reduce((sum, share) => sum + share.vatCents, 0));
  });

  it('keeps a coupon below its minimum in the cart without a discount', () => {
    const priced = priceCart(
      [
        {
          code: 'a',
          productGroup: null,
          unitCents: 1000,
          quantity: 1,
          vatBasisPoints: 1350,
          isGiftCard: false,
        },
      ],
      [
        {
          code: 'GRILLI5',
          percentOff: null,
          amountOffCents: 500,
          productGroup: null,
          minOrderCents: 4000,
        },
      ],
    );
    expect(priced.orderDiscountCents).toBe(0);
    expect(priced.belowMinimum.map((c) => c.code)).toEqual(['GRILLI5']);
    expect(priced.appliedCoupons).toEqual([]);
  });
});

describe('money helpers', () => {
  it('allocate splits exactly by the largest remainder', () => {
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocate(0, [5, 5])).toEqual([0, 0]);
    expect(allocate(7, [0, 0])).toEqual([0, 0]);
  });

  it('VAT included in a gross amount, rounded half up', () => {
    expect(vatOfGross(11350, 1350)).toBe(1350);
    expect(vatOfGross(12550, 2550)).toBe(2550);
    expect(vatOfGross(1000, 0)).toBe(0);
  });

  it('rates are dated: food 14 % in 2025, 13,5 % from 1 January 2026', () => {
    const rows = [
      { taxClass: 'food', validFrom: '2013-01-01', rateBasisPoints: 1400 },
      { taxClass: 'food', validFrom: '2026-01-01', rateBasisPoints: 1350 },
      { taxClass: 'standard', validFrom: '2024-09-01', rateBasisPoints: 2550 },
    ];
    expect(rateOn(rows, 'food', '2025-12-31')).toBe(1400);
    expect(rateOn(rows, 'food', '2026-01-01')).toBe(1350);
    expect(rateOn(rows, 'standard', '2026-03-01')).toBe(2550);
    expect(rateOn(rows, 'standard', '2020-01-01')).toBeNull();
  });
});
