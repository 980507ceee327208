/**
 * The shop's money rules (decision 019): integer cents throughout, prices include VAT, coupons
 * as data. One pure function prices a cart; the cart answer, the checkout and the property test
 * all use it, so what the visitor sees is what the order will charge.
 */

/** One line of a cart as the pricing sees it. */
export interface PricingLine {
  code: string;
  /** The product group a group coupon matches (`products.product_group`). */
  productGroup: string | null;
  /** Catalogue price of one unit, VAT included. */
  unitCents: number;
  quantity: number;
  /** The line's VAT rate in basis points (1350 = 13,5 %); 0 for gift cards. */
  vatBasisPoints: number;
  /** Gift cards take no coupons and carry no VAT (a multi-purpose voucher). */
  isGiftCard: boolean;
}

/** A coupon's rule (`coupons` row); validity and usage limits are checked before pricing. */
export interface PricingCoupon {
  code: string;
  /** Whole percent 1–100, or null for a fixed amount. */
  percentOff: number | null;
  amountOffCents: number | null;
  /** null: the whole order; otherwise only the lines of this product group. */
  productGroup: string | null;
  minOrderCents: number;
}

export interface PricedLine {
  code: string;
  /** Catalogue price times quantity. */
  grossCents: number;
  /** What the line costs after its group coupons (`linePrice`). */
  lineCents: number;
  /** The line's share of the order discounts; its taxable amount is `lineCents - orderShareCents`. */
  orderShareCents: number;
  vatBasisPoints: number;
}

export interface VatShare {
  basisPoints: number;
  /** What the cart charges at this rate, VAT included. */
  grossCents: number;
  vatCents: number;
  netCents: number;
}

export interface PricedCart {
  lines: PricedLine[];
  /** Σ lineCents: the lines after their group coupons. */
  subTotalCents: number;
  /** Σ order-wide coupon discounts. */
  orderDiscountCents: number;
  shippingCents: number;
  /** subTotal − orderDiscount + shipping. */
  totalCents: number;
  /** Per VAT rate (highest first), only rates with something charged. */
  vat: VatShare[];
  vatTotalCents: number;
  /** Codes whose discount applies (in the order they were given). */
  appliedCoupons: string[];
  /** Codes kept in the cart that do not apply yet: the order is below their minimum. */
  belowMinimum: PricingCoupon[];
}

/** a·b / c rounded half up, for non-negative integers (exact below 2^53). */
export function mulDivRound(a: number, b: number, c: number): number {
  return Math.floor((2 * a * b + c) / (2 * c));
}

/**
 * Splits `total` cents over `weights` in proportion, by the largest remainder: the parts are whole
 * cents, never above their weight's share rounded up, and add up to `total` exactly. Ties go to
 * the earlier weight.
 */
export function allocate(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0 || total === 0) return weights.map(() => 0);
  const parts = weights.map((w) => Math.floor((total * w) / sum));
  let left = total - parts.reduce((a, b) => a + b, 0);
  const order = weights
    .map((w, i) => ({ i, rest: (total * w) % sum }))
    .sort((x, y) => y.rest - x.rest || x.i - y.i);
  for (const { i } of order) {
    if (left === 0) break;
    parts[i] = (parts[i] ?? 0) + 1;
    left -= 1;
  }
  return parts;
}

/** The VAT included in a gross amount at a rate: gross · r / (1 + r), rounded half up. */
export function vatOfGross(grossCents: number, basisPoints: number): number {
  return basisPoints === 0 ? 0 : mulDivRound(grossCents, basisPoints, 10_000 + basisPoints);
}

/** The discount a coupon takes off `base` cents (never more than the base). */
function discountOf(coupon: PricingCoupon, base: number): number {
  if (base <= 0) return 0;
  if (coupon.percentOff !== null) return Math.min(base, mulDivRound(base, coupon.percentOff, 100));
  return Math.min(base, coupon.amountOffCents ?? 0);
}

/**
 * Prices a cart.
 *
 * 1. Each line costs its unit price times its quantity (`linePriceWithoutDiscounts`).
 * 2. A coupon's minimum order is compared with the goods before any discount (gift cards do not
 *    count); below it the coupon stays in the cart but takes nothing off (`belowMinimum`).
 * 3. Product-group coupons, in the order entered, take their discount off the current price of
 *    the group's lines (a percentage rounded half up on the group's sum, a fixed amount at most
 *    the group's sum); it is split over the lines by the largest remainder and lowers their
 *    `linePrice`.
 * 4. Order coupons, in the order entered, take their discount off what the goods cost after
 *    step 3; the sum is `orderDiscount`. For VAT it is split over the goods' lines by the largest
 *    remainder.
 * 5. VAT is computed once per rate on what the cart charges at that rate (lines less their share
 *    of the order discount), rounded half up to the cent: gross · r / (1 + r).
 *
 * Gift cards take no coupons and carry no VAT.
 */
export function priceCart(
  lines: readonly PricingLine[],
  coupons: readonly PricingCoupon[],
  shippingCents = 0,
): PricedCart {
  const gross = lines.map((line) => line.unitCents * line.quantity);
  const lineCents = [...gross];
  const goods = lines.map((line, i) => (line.isGiftCard ? -1 : i)).filter((i) => i >= 0);
  const goodsBeforeDiscounts = goods.reduce((sum, i) => sum + (gross[i] ?? 0), 0);

  const applicable: PricingCoupon[] = [];
  const belowMinimum: PricingCoupon[] = [];
  for (const coupon of coupons) {
    if (goodsBeforeDiscounts >= coupon.minOrderCents) {
      applicable.push(coupon);
    } else {
      belowMinimum.push(coupon);
    }
  }

  for (const coupon of applicable) {
    if (coupon.productGroup === null) continue;
    const members = goods.filter((i) => lines[i]?.productGroup === coupon.productGroup);
    const current = members.map((i) => lineCents[i] ?? 0);
    const off = discountOf(
      coupon,
      current.reduce((a, b) => a + b, 0),
    );
    allocate(off, current).forEach((part, k) => {
      const i = members[k] as number;
      lineCents[i] = (lineCents[i] ?? 0) - part;
    });
  }

  let orderDiscountCents = 0;
  for (const coupon of applicable) {
    if (coupon.productGroup !== null) continue;
    const base = goods.reduce((sum, i) => sum + (lineCents[i] ?? 0), 0) - orderDiscountCents;
    orderDiscountCents += discountOf(coupon, base);
  }
  const shares = new Array<number>(lines.length).fill(0);
  allocate(
    orderDiscountCents,
    goods.map((i) => lineCents[i] ?? 0),
  ).forEach((part, k) => {
    shares[goods[k] as number] = part;
  });

  const byRate = new Map<number, number>();
  lines.forEach((line, i) => {
    const charged = (lineCents[i] ?? 0) - (shares[i] ?? 0);
    const rate = line.isGiftCard ? 0 : line.vatBasisPoints;
    byRate.set(rate, (byRate.get(rate) ?? 0) + charged);
  });
  const vat: VatShare[] = [...byRate.entries()]
    .filter(([, grossCents]) => grossCents > 0)
    .sort(([a], [b]) => b - a)
    .map(([basisPoints, grossCents]) => {
      const vatCents = vatOfGross(grossCents, basisPoints);
      return { basisPoints, grossCents, vatCents, netCents: grossCents - vatCents };
    });

  const subTotalCents = lineCents.reduce((a, b) => a + b, 0);
  return {
    lines: lines.map((line, i) => ({
      code: line.code,
      grossCents: gross[i] ?? 0,
      lineCents: lineCents[i] ?? 0,
      orderShareCents: shares[i] ?? 0,
      vatBasisPoints: line.isGiftCard ? 0 : line.vatBasisPoints,
    })),
    subTotalCents,
    orderDiscountCents,
    shippingCents,
    totalCents: subTotalCents - orderDiscountCents + shippingCents,
    vat,
    vatTotalCents: vat.reduce((sum, share) => sum + share.vatCents, 0),
    appliedCoupons: applicable.map((coupon) => coupon.code),
    belowMinimum,
  };
}

/** A rate in basis points as the contract's percent number: 1350 → 13.5. */
export function percentOfBasisPoints(basisPoints: number): number {
  return basisPoints / 100;
}

/** A VAT class's rate on a date, from dated rows (the latest `validFrom` not after the date). */
export function rateOn(
  rows: readonly { taxClass: string; validFrom: string; rateBasisPoints: number }[],
  taxClass: string,
  isoDate: string,
): number | null {
  let best: { validFrom: string; rateBasisPoints: number } | null = null;
  for (const row of rows) {
    if (row.taxClass !== taxClass || row.validFrom > isoDate) continue;
    if (!best || row.validFrom > best.validFrom) best = row;
  }
  return best ? best.rateBasisPoints : null;
}
