import { z } from 'zod';
import type { MessageKey } from '../../i18n/fi.ts';
import type { Translate } from '../../i18n/translate.ts';
import { COUPON_ERRORS } from './message-keys.ts';
import { GIFT_CARD_ERRORS } from './orders/schemas.ts';

/**
 * The cart page as a plain form (decision 022): what the server HTML posts to `/ostoskori` when
 * script does not run, and what the page shows after the redirect back.
 */

/** Where the answer to the cart page's forms sends the visitor back. */
export const CART_FORM_RETURN = '/ostoskori#tuotteet';
/**
 * Where a refused code (coupon or gift card) sends the visitor back: without a fragment, since a
 * fragment naming an element stops the browser's autofocus, and the box's error summary takes
 * the focus (the failed-submit pattern).
 */
export const CART_FORM_REFUSED = '/ostoskori';

/**
 * The hidden field with the anti-forgery token (the `XSRF-TOKEN` cookie's value) in the shop's
 * island forms: the form-post guard's `FORM_TOKEN_FIELD`, which browser code cannot import from
 * `src/server` (a test holds the two equal).
 */
export const XSRF_FIELD = '_xsrf';
/** A line's quantity field: `quantity.<code>`. */
export const QUANTITY_FIELD = 'quantity.';
/** The submit buttons: what the post asks for. */
export const CART_ACTIONS = {
  /** 'Päivitä ostoskori' and Enter in a field: every line's quantity as typed. */
  update: 'update',
  /** − / + / × of a line: the button's value is `<code>:<quantity>` (0 removes). */
  set: 'set',
  addCoupon: 'add-coupon',
  /** × of a coupon: the button's value is the code. */
  removeCoupon: 'remove-coupon',
  addGiftCard: 'add-giftcard',
  /** × of a gift card: the button's value is `remove-giftcard:<id>` (the cart answer's id). */
  removeGiftCard: 'remove-giftcard',
  /**
   * A product page's or product card's 'Lisää ostoskoriin' without script: the value is
   * `add:<code>`, the quantity in `ADD_QUANTITY_FIELD` (decision 055).
   */
  add: 'add',
  /**
   * 'Muokkaa ostoskoria ja vapauta toimitusaika' of a cart that holds a delivery time: lets the
   * hold go, so the lines can be changed again (decision 101).
   */
  releaseHold: 'release-hold',
} as const;
// Where the forms post and the field names the buy control shares (zod-free, for its island).
export { ACTION_FIELD, ADD_QUANTITY_FIELD, CART_FORM_PATH } from './values.ts';
export const COUPON_FIELD = 'code';
export const GIFT_CARD_FIELD = 'giftCard';

/** The field name of a line's quantity. */
export const quantityField = (code: string) => `${QUANTITY_FIELD}${code}`;

/** The message keys a refused post can show; nothing else is read back from the notice cookie. */
const noticeKeys = [
  'shop.buy.range',
  'shop.quantity.tooMany',
  'shop.quantity.soldOut',
  'shop.cart.quantityError',
  ...Object.values(COUPON_ERRORS),
  ...Object.values(GIFT_CARD_ERRORS),
] as const satisfies readonly MessageKey[];

/** One refusal: its text, the line it is about (by code), and the figure the text names. */
export const cartNoticeErrorSchema = z.object({
  key: z.enum(noticeKeys),
  code: z.string().max(40).optional(),
  max: z.number().int().min(0).max(999).optional(),
  amount: z.string().max(20).optional(),
});

/**
 * What the page shows once after a post: the refusals with what was typed (so nothing typed is
 * lost), or what was done.
 */
export const cartNoticeSchema = z.object({
  errors: z.array(cartNoticeErrorSchema).max(100).default([]),
  /** The quantities as typed, by code, when the change was refused. */
  typed: z.record(z.string().max(40), z.string().max(10)).optional(),
  /** The coupon code as typed, when it was refused. */
  coupon: z.string().max(100).optional(),
  /** The gift card code as typed, when it was refused (the notice is signed, HttpOnly, 60 s). */
  giftCard: z.string().max(100).optional(),
  done: z
    .enum([
      'updated',
      'added',
      'couponAdded',
      'couponRemoved',
      'giftCardAdded',
      'giftCardRemoved',
      'holdReleased',
    ])
    .optional(),
  /** The code that was done: a coupon code, or a gift card's masked code (`•••• 5000`). */
  doneCode: z.string().max(100).optional(),
});
export type CartNotice = z.infer<typeof cartNoticeSchema>;
export type CartNoticeError = z.infer<typeof cartNoticeErrorSchema>;

/** The text of one refusal with its figure. */
export function noticeText(t: Translate, error: CartNoticeError): string {
  if (error.key === 'shop.buy.range') return t(error.key, { min: 0, max: error.max ?? 99 });
  if (error.key === 'shop.quantity.tooMany') return t(error.key, { max: error.max ?? 0 });
  if (error.key === COUPON_ERRORS.minimumOrder) return t(error.key, { amount: error.amount ?? '' });
  return t(error.key);
}
