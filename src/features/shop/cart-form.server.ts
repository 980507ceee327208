import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, Invalid, NotFound, TooManyRequests } from '../../server/errors.ts';
import { acceptFormPosts, FORM_TOKEN_FIELD } from '../../server/form-posts.ts';
import { perMinute } from '../../server/rate-limit.ts';
import { SHOP_SITE_ID } from '../../sites/shop.ts';
import { loadCart } from './cart.server.ts';
import {
  ACTION_FIELD,
  ADD_QUANTITY_FIELD,
  CART_ACTIONS,
  CART_FORM_PATH,
  CART_FORM_REFUSED,
  CART_FORM_RETURN,
  type CartNotice,
  type CartNoticeError,
  COUPON_FIELD,
  cartNoticeSchema,
  GIFT_CARD_FIELD,
  QUANTITY_FIELD,
} from './cart-form.ts';
import { changeQuantity } from './cart-lines.server.ts';
import { limitOf, productsByCode } from './cart-products.server.ts';
import { addCoupon, removeCoupon } from './coupons.server.ts';
import { addGiftCard, giftCardTryLimit, removeGiftCard } from './orders/gift-cards.server.ts';
import { releaseHold } from './orders/holds.server.ts';
import {
  GIFT_CARD_CODE_PATTERN,
  GIFT_CARD_ERRORS,
  maskGiftCardCode,
  normaliseGiftCardCode,
} from './orders/schemas.ts';
import { cartTarget, existingKey } from './routes.server.ts';
import {
  COUPON_CODE_PATTERN,
  COUPON_ERRORS,
  MAX_QUANTITY,
  normaliseCouponCode,
} from './schemas.ts';

/**
 * `POST /ostoskori`: the cart page as a plain form, for visitors without script (decision 022).
 * The same use cases as the cart API; the answer is 303 back to `/ostoskori#tuotteet`, with what
 * happened in a signed, HttpOnly cookie the page reads once.
 */

/** The one-time notice of the cart page: signed, only sent to the cart page, gone after a minute. */
export const NOTICE_COOKIE = 'kattaus_cart_notice';
const NOTICE_SECONDS = 60;
/** A cart form is a few hundred bytes per line; nothing legitimate comes near this. */
const FORM_BODY_BYTES = 64 * 1024;
/** As the cart API's changes: typed by hand. */
const changeRateLimit = perMinute(120);

const CODE = /^[A-Za-z0-9_-]{1,40}$/;

/**
 * The pressed button: `update`, `add-coupon`, `add-giftcard`, `release-hold`,
 * `set:<code>:<quantity>`, `remove-coupon:<code>` or `remove-giftcard:<id>`.
 */
const actionSchema = z
  .string()
  .max(200)
  .default('update')
  .transform((value, ctx) => {
    if (value === CART_ACTIONS.update) return { kind: 'update' as const };
    if (value === CART_ACTIONS.addCoupon) return { kind: 'add-coupon' as const };
    if (value === CART_ACTIONS.addGiftCard) return { kind: 'add-giftcard' as const };
    if (value === CART_ACTIONS.releaseHold) return { kind: 'release-hold' as const };
    const set = /^set:([A-Za-z0-9_-]{1,40}):(\d{1,2})$/.exec(value);
    if (set?.[1] && set[2]) return { kind: 'set' as const, code: set[1], quantity: Number(set[2]) };
    const remove = /^remove-coupon:(.{1,100})$/.exec(value);
    if (remove?.[1]) return { kind: 'remove-coupon' as const, code: remove[1] };
    const card = /^remove-giftcard:(\d{1,9})$/.exec(value);
    if (card?.[1]) return { kind: 'remove-giftcard' as const, id: Number(card[1]) };
    const add = /^add:([A-Za-z0-9_-]{1,40})$/.exec(value);
    if (add?.[1]) return { kind: 'add' as const, code: add[1] };
    ctx.addIssue({ code: 'custom', message: 'validation.invalid' });
    return z.NEVER;
  });

/** The posted fields: the token, the button, the coupon field and each line's quantity as typed. */
const formSchema = z
  .object({
    // A product page is shared by every visitor and carries no token (decision 055).
    [FORM_TOKEN_FIELD]: z.string().max(200).optional(),
    [ACTION_FIELD]: actionSchema,
    [ADD_QUANTITY_FIELD]: z.string().max(10).optional(),
    [COUPON_FIELD]: z.string().max(1000).optional(),
    [GIFT_CARD_FIELD]: z.string().max(1000).optional(),
  })
  .catchall(z.string().max(1000))
  .transform((fields, ctx) => {
    const typed: Record<string, string> = {};
    for (const [name, value] of Object.entries(fields)) {
      if (!name.startsWith(QUANTITY_FIELD)) continue;
      const code = name.slice(QUANTITY_FIELD.length);
      if (!CODE.test(code)) {
        ctx.addIssue({ code: 'custom', path: [name], message: 'validation.invalid' });
        return z.NEVER;
      }
      typed[code] = typeof value === 'string' ? value.trim().slice(0, 10) : '';
    }
    return {
      action: fields[ACTION_FIELD],
      coupon: fields[COUPON_FIELD],
      giftCard: fields[GIFT_CARD_FIELD],
      addQuantity: fields[ADD_QUANTITY_FIELD]?.trim(),
      typed,
    };
  });

type CartForm = z.infer<typeof formSchema>;

export async function cartFormRoutes(app: FastifyInstance) {
  // Only these routes take classic form posts; everything else stays JSON.
  acceptFormPosts(app, FORM_BODY_BYTES);
  const giftCardTries = giftCardTryLimit(app);

  app.post(
    CART_FORM_PATH,
    {
      // The anti-forgery check (the form-post guard) comes before the fields are read: a forged
      // post learns nothing about them. An add from a shared product page has no token: the
      // browser's word that the post comes from this site stands in for it (decision 055).
      // Nothing else goes without one.
      config: { rateLimit: changeRateLimit, formPost: { sharedPage: addFromProductPage } },
      onRequest: async (request) => {
        if (request.site.id !== SHOP_SITE_ID) throw new NotFound();
      },
    },
    async (request, reply) => {
      const parsed = formSchema.safeParse(request.body ?? {});
      if (!parsed.success) {
        const field = String(parsed.error.issues[0]?.path[0] ?? ACTION_FIELD);
        throw new Invalid({ [field]: 'validation.invalid' }, 'The cart form has invalid fields.');
      }
      const notice = await applyCartForm(request, parsed.data, giftCardTries);
      reply.setCookie(NOTICE_COOKIE, JSON.stringify(notice), {
        path: CART_FORM_PATH,
        httpOnly: true,
        sameSite: 'lax',
        secure: request.protocol === 'https',
        signed: true,
        maxAge: NOTICE_SECONDS,
      });
      reply.header('cache-control', 'no-store');
      return reply.redirect(codeRefused(notice) ? CART_FORM_REFUSED : CART_FORM_RETURN, 303);
    },
  );
}

/** The buy control of a product page posts `add:<code>`, and only that, without the token. */
const addFromProductPage = (fields: Record<string, unknown>) =>
  typeof fields[ACTION_FIELD] === 'string' &&
  fields[ACTION_FIELD].startsWith(`${CART_ACTIONS.add}:`);

/** A refused coupon or gift card code: its box's summary takes the focus. */
const codeRefused = (notice: CartNotice) =>
  notice.coupon !== undefined || notice.giftCard !== undefined;

/** What the form asks, through the cart's use cases; a refusal writes nothing. */
async function applyCartForm(
  request: FastifyRequest,
  form: CartForm,
  giftCardTries: (request: FastifyRequest) => Promise<void>,
): Promise<CartNotice> {
  const { action } = form;
  if (action.kind === 'add-coupon') return enterCoupon(request, form.coupon ?? '');
  if (action.kind === 'remove-coupon') {
    const code = normaliseCouponCode(action.code);
    await removeCoupon(request.server.db, cartTarget(request), code);
    return { errors: [], done: 'couponRemoved', doneCode: code };
  }
  if (action.kind === 'add-giftcard') {
    return enterGiftCard(request, form.giftCard ?? '', giftCardTries);
  }
  if (action.kind === 'remove-giftcard') {
    await removeGiftCard(request.server.db, cartTarget(request), { id: action.id });
    return { errors: [], done: 'giftCardRemoved' };
  }
  if (action.kind === 'add') return addFromForm(request, action.code, form.addQuantity ?? '');
  if (action.kind === 'release-hold') {
    await releaseHold(request.server.db, existingKey(request));
    return { errors: [], done: 'holdReleased' };
  }
  const wanted = { ...form.typed };
  if (action.kind === 'set') wanted[action.code] = String(action.quantity);
  return changeQuantities(request, wanted);
}

/**
 * 'Lisää ostoskoriin' without script: the quantity on top of what the cart holds, with the cart
 * page's rules (whole numbers, at most 99 a line, within stock, still for sale).
 */
async function addFromForm(
  request: FastifyRequest,
  code: string,
  typed: string,
): Promise<CartNotice> {
  if (!/^\d{1,2}$/.test(typed) || Number(typed) < 1) {
    return { errors: [{ key: 'shop.buy.range', code, max: MAX_QUANTITY }] };
  }
  const cart = await loadCart(request.server.db, existingKey(request), request.locale.lang);
  const held = cart.lineItems.find((line) => line.code === code)?.quantity ?? 0;
  const notice = await changeQuantities(request, { [code]: String(held + Number(typed)) });
  if (notice.errors.length > 0) return { errors: notice.errors };
  return { errors: [], done: 'added' };
}

/**
 * Sets every line whose quantity changed. All of them are checked first (whole numbers 0–99,
 * within stock, still for sale); one refusal and none is written, and the page shows each refusal
 * with what was typed.
 */
async function changeQuantities(
  request: FastifyRequest,
  wanted: Record<string, string>,
): Promise<CartNotice> {
  const { db } = request.server;
  const { lang } = request.locale;
  const cart = await loadCart(db, existingKey(request), lang);
  const inCart = new Map(cart.lineItems.map((line) => [line.code, line.quantity]));
  const errors: CartNoticeError[] = [];
  const changes: [string, number][] = [];
  for (const [code, value] of Object.entries(wanted)) {
    if (!/^\d{1,3}$/.test(value) || Number(value) > MAX_QUANTITY) {
      errors.push({ key: 'shop.buy.range', code, max: MAX_QUANTITY });
      continue;
    }
    const quantity = Number(value);
    if (quantity !== (inCart.get(code) ?? 0)) changes.push([code, quantity]);
  }
  const adding = changes.filter(([, quantity]) => quantity > 0).map(([code]) => code);
  const catalogue = await productsByCode(db, SHOP_SITE_ID, lang, adding);
  for (const [code, quantity] of changes) {
    if (quantity === 0) continue;
    const product = catalogue.get(code);
    if (!product) {
      errors.push({ key: 'shop.cart.quantityError', code });
      continue;
    }
    const limit = limitOf(product);
    if (quantity > limit) {
      errors.push(
        limit === 0
          ? { key: 'shop.quantity.soldOut', code }
          : { key: 'shop.quantity.tooMany', code, max: limit },
      );
    }
  }
  if (errors.length > 0) return { errors, typed: wanted };
  for (const [code, quantity] of changes) {
    try {
      await changeQuantity(db, cartTarget(request), lang, code, quantity);
    } catch (error) {
      // Only a race with another change gets here (the stock went down meanwhile).
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      const max = error.extra?.maxQuantity;
      return {
        errors: [
          typeof max === 'number'
            ? { key: max === 0 ? 'shop.quantity.soldOut' : 'shop.quantity.tooMany', code, max }
            : { key: 'shop.cart.quantityError', code },
        ],
        typed: wanted,
      };
    }
  }
  return { errors: [], done: 'updated' };
}

/** Enters a coupon code with the coupon box's rules and texts. */
async function enterCoupon(request: FastifyRequest, typed: string): Promise<CartNotice> {
  const code = normaliseCouponCode(typed);
  const refused = (error: CartNoticeError): CartNotice => ({
    errors: [error],
    coupon: typed.slice(0, 100),
  });
  if (!code) return refused({ key: COUPON_ERRORS.empty });
  if (!COUPON_CODE_PATTERN.test(code)) return refused({ key: COUPON_ERRORS.invalid });
  try {
    await addCoupon(request.server.db, cartTarget(request), request.locale.lang, code);
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    const key = (error.extra?.errors as Record<string, string> | undefined)?.code;
    const known = Object.values(COUPON_ERRORS).find((k) => k === key) ?? COUPON_ERRORS.general;
    const amount = error.extra?.minOrder;
    return refused({ key: known, ...(typeof amount === 'string' ? { amount } : {}) });
  }
  return { errors: [], done: 'couponAdded', doneCode: code };
}

/**
 * Enters a gift card with the gift-card box's rules and texts. Each try counts against the
 * client's gift-card budget, shared with the API (too many is a refusal shown in the box).
 */
async function enterGiftCard(
  request: FastifyRequest,
  typed: string,
  tries: (request: FastifyRequest) => Promise<void>,
): Promise<CartNotice> {
  const code = normaliseGiftCardCode(typed);
  const refused = (key: CartNoticeError['key']): CartNotice => ({
    errors: [{ key }],
    // What was typed comes back in the field, except a card the cart holds already.
    giftCard: key === GIFT_CARD_ERRORS.duplicate ? '' : typed.slice(0, 100),
  });
  if (!code) return refused(GIFT_CARD_ERRORS.empty);
  try {
    await tries(request);
  } catch (error) {
    if (error instanceof TooManyRequests) return refused(GIFT_CARD_ERRORS.tooMany);
    throw error;
  }
  if (!GIFT_CARD_CODE_PATTERN.test(code)) return refused(GIFT_CARD_ERRORS.invalid);
  try {
    const { added } = await addGiftCard(request.server.db, cartTarget(request), code);
    if (!added) return refused(GIFT_CARD_ERRORS.duplicate);
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    return refused(GIFT_CARD_ERRORS.invalid);
  }
  return { errors: [], done: 'giftCardAdded', doneCode: maskGiftCardCode(code) };
}

/** Requests that showed the notice: its cookie is cleared in their answer. */
const shown = new WeakSet<FastifyRequest>();

/** The notice of the last post, once: valid only with the server's signature. */
export function takeCartNotice(request: FastifyRequest): CartNotice | undefined {
  const raw = request.cookies[NOTICE_COOKIE];
  if (raw === undefined) return undefined;
  shown.add(request);
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || unsigned.value === null) return undefined;
  try {
    const parsed = cartNoticeSchema.safeParse(JSON.parse(unsigned.value));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** `onSend`: a notice shown is cleared, so a reload does not show it again. */
export async function clearShownNotice(request: FastifyRequest, reply: FastifyReply) {
  if (shown.has(request)) reply.clearCookie(NOTICE_COOKIE, { path: CART_FORM_PATH });
}
