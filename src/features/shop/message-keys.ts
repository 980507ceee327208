/**
 * Message keys of the shop's refusals, the texts in src/i18n. Apart from `values.ts`: an island
 * ships the texts of every key its modules name (decision 160), and most islands that use the
 * shop's plain values show none of these (decision 161).
 */

/** Message keys of coupon refusals (spec §8). */
export const COUPON_ERRORS = {
  empty: 'shop.coupon.empty',
  duplicate: 'shop.coupon.duplicate',
  invalid: 'shop.coupon.invalid',
  notCombinable: 'shop.coupon.notCombinable',
  minimumOrder: 'shop.coupon.minimumOrder',
  general: 'shop.coupon.error',
} as const;

/** The refusal of a postal code that is not one. */
export const POSTAL_CODE_INVALID = 'shop.postalCode.invalid';
