import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { isPoolExhausted } from '../../../db/client.ts';
import { serverT } from '../../../i18n/catalogues.ts';
import { Island } from '../../../render/island.server.tsx';
import type { Made } from '../../../render/page-cache.ts';
import type { PageLayout } from '../../../render/render-page.tsx';
import { renderPage } from '../../../render/render-page.tsx';
import { AppError } from '../../../server/errors.ts';
import { acceptFormPosts } from '../../../server/form-posts.ts';
import { perMinute } from '../../../server/rate-limit.ts';
import { localReturnPath } from '../../../server/return-path.ts';
import { SHOP_SITE_ID } from '../../../sites/shop.ts';
import type { Lang } from '../../../sites/types.ts';
import { loadCart } from '../cart.server.ts';
import type { CartKey } from '../cart-rows.server.ts';
import { customerAnswer, sessionCustomerId } from '../customer/accounts.server.ts';
import { withReturn } from '../customer/return-path.ts';
import { onShop } from '../customer/routes.server.ts';
import { deliveryDates } from '../delivery.server.ts';
import { checkOut } from '../orders/check-out.server.ts';
import { currentHold, deliveryOf, holdAnswer, takeHold } from '../orders/holds.server.ts';
import { paymentDeps } from '../orders/payments.server.ts';
import { PAYMENT_METHOD_PATTERN } from '../orders/schemas.ts';
import { existingKey } from '../routes.server.ts';
import { centsOfMoney, normalisePostalCode, POSTAL_CODE_PATTERN } from '../schemas.ts';
import shop from '../shop.module.css';
import styles from './checkout.module.css';
import {
  ACTION_FIELD,
  ACTIONS,
  BILLING_FIELD,
  CHECKOUT_ID_FIELD,
  CHECKOUT_PAGE_PATH,
  type CheckoutNotice,
  checkoutNoticeSchema,
  checkoutUrl,
  DATE_FIELD,
  GIFT_CARD_AMOUNT_FIELD,
  PAYMENT_CANCELLED,
  PAYMENT_METHOD_FIELD,
  PAYMENT_PARAM,
  POSTAL_CODE_PARAM,
  SLOT_FIELD,
  STEPS,
  type Step,
  TIME_FIELD,
  TOTAL_FIELD,
} from './checkout-form.ts';
import { PaymentCancelledNotice } from './checkout-page.tsx';

/**
 * The checkout page `/kassa` (decision 029): shop only, for a logged-in customer (a visitor goes
 * to `/kirjaudu?paluu=<this page>`), `noindex` and `no-store`. GET renders the steps (the island
 * `shop-checkout`, whose server HTML is also the page without script); POST takes the plain forms
 * of the steps: `action=hold` takes the delivery hold, `action=purchase` (the form
 * `purchase-form`) places the order and starts its payment with the same use cases as the JSON
 * order route, then sends the browser on to `next`. A refused post comes back with 303 and a
 * signed one-time notice cookie (as the cart page's, decision 022): the page shows the error
 * summary, its title prefixed, with the choices kept.
 */

const LOGIN_PAGE = '/kirjaudu';
export const CHECKOUT_NOTICE_COOKIE = 'kattaus_checkout_notice';
const NOTICE_SECONDS = 60;
const FORM_BODY_BYTES = 8 * 1024;
const postRateLimit = perMinute(60);
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^[0-2]\d:[0-5]\d-[0-2]\d:[0-5]\d$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Fields = Record<string, string | undefined>;

/** The postal code of `postinumero` when it is one (normalised), else null. */
export function postalCodeOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const code = normalisePostalCode(value);
  return code.length <= 20 && POSTAL_CODE_PATTERN.test(code) ? code : null;
}

/** The delivery choice of the plain form: `slot` (`<date> <time>`) or `date` and `time`. */
export function chosenSlot(fields: Fields): { date: string; time: string } {
  const slot = (fields[SLOT_FIELD] ?? '').trim();
  if (slot) {
    const [date = '', time = ''] = slot.split(' ');
    return { date, time };
  }
  return { date: (fields[DATE_FIELD] ?? '').trim(), time: (fields[TIME_FIELD] ?? '').trim() };
}

/**
 * A refusal of the hold or the placement (409 problems naming what ran out) as the page shows
 * it, and the step it belongs to.
 */
export function refusalNotice(
  error: AppError,
  names: Map<string, string>,
): Pick<CheckoutNotice, 'step' | 'errors' | 'products'> {
  const fields = (error.extra?.errors ?? {}) as Record<string, string>;
  const keys = Object.keys(fields);
  if (keys.includes('checkoutId')) {
    return { step: STEPS.delivery, errors: { [TIME_FIELD]: 'checkout.error.holdExpired' } };
  }
  if (keys.includes('postalCode')) {
    return { step: STEPS.delivery, errors: { [TIME_FIELD]: 'checkout.error.postalCode' } };
  }
  if (keys.includes('deliveryAddress')) {
    return { step: STEPS.delivery, errors: { address: 'checkout.error.address' } };
  }
  if (keys.includes('time')) {
    return { step: STEPS.delivery, errors: { [TIME_FIELD]: 'checkout.error.slotFull' } };
  }
  // What the order would charge changed since the page showed it: the page shows it again.
  if (keys.includes('giftCards')) {
    return { step: STEPS.payment, errors: { _: 'checkout.error.giftCardChanged' } };
  }
  if (keys.includes('couponCodes')) {
    const notice =
      fields.couponCodes === 'shop.checkout.couponNeedsVerifiedEmail'
        ? 'checkout.error.verifyEmail'
        : fields.couponCodes === 'shop.checkout.couponUsedByCustomer'
          ? 'checkout.error.couponUsedByCustomer'
          : 'checkout.error.couponUsedUp';
    return { step: STEPS.payment, errors: { _: notice } };
  }
  if (keys.includes('total')) {
    return { step: STEPS.payment, errors: { _: 'checkout.error.totalChanged' } };
  }
  const products = keys.filter((key) => names.has(key));
  if (products.length > 0) {
    return {
      step: STEPS.delivery,
      errors: { [TIME_FIELD]: 'checkout.error.soldOut' },
      products: products.map((code) => names.get(code) ?? code),
    };
  }
  if (error.status === 409) {
    return { step: STEPS.payment, errors: { _: 'checkout.error.orderRefused' } };
  }
  return { step: STEPS.payment, errors: { _: 'checkout.error.general' } };
}

/**
 * Every database connection stayed busy (a burst of orders) or a service said to try again:
 * nothing was done, and the page says to try again in a moment (the JSON API answers 503).
 */
function isBusy(error: unknown): boolean {
  return isPoolExhausted(error) || (error instanceof AppError && error.status === 503);
}

const busyNotice = (step: Step): Pick<CheckoutNotice, 'step' | 'errors'> => ({
  step,
  errors: { _: 'checkout.error.busy' },
});

/** Requests that showed the notice: its cookie is cleared in their answer. */
const shown = new WeakSet<FastifyRequest>();

function takeNotice(request: FastifyRequest): CheckoutNotice | null {
  const raw = request.cookies[CHECKOUT_NOTICE_COOKIE];
  if (raw === undefined) return null;
  shown.add(request);
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || unsigned.value === null) return null;
  try {
    const parsed = checkoutNoticeSchema.safeParse(JSON.parse(unsigned.value));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function sendBack(
  request: FastifyRequest,
  reply: FastifyReply,
  postalCode: string | null,
  notice: CheckoutNotice,
) {
  reply.setCookie(CHECKOUT_NOTICE_COOKIE, JSON.stringify(notice), {
    path: CHECKOUT_PAGE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    signed: true,
    maxAge: NOTICE_SECONDS,
  });
  // No fragment: a URL fragment naming an element stops the browser's autofocus, and the error
  // summary must take the focus also without script. The notice names the step for the island.
  const back = postalCode
    ? `${CHECKOUT_PAGE_PATH}?${new URLSearchParams({ [POSTAL_CODE_PARAM]: postalCode })}`
    : CHECKOUT_PAGE_PATH;
  return reply.redirect(back, 303);
}

/** The logged-in customer and the cart of the checkout; null for anyone else. */
async function shopper(request: FastifyRequest) {
  const customerId = await sessionCustomerId(request.session);
  const key = existingKey(request);
  return customerId && key ? { customerId, key } : null;
}

/** The step a post belongs to: the purchase form's is the payment. */
const stepOf = (body: Fields): Step =>
  body[ACTION_FIELD] === ACTIONS.purchase ? STEPS.payment : STEPS.delivery;

/** The login page with `paluu` back to this request's page. */
function loginRedirect(request: FastifyRequest, reply: FastifyReply) {
  const back = localReturnPath(request.url) ?? CHECKOUT_PAGE_PATH;
  return reply.redirect(withReturn(LOGIN_PAGE, back), 303);
}

type CheckoutPageRenderer = (
  request: FastifyRequest,
  reply: FastifyReply,
  options: { failed: boolean; body: ReactNode; own?: OwnPage | undefined },
) => Promise<FastifyReply>;

/** Where the checkout page is kept for its visitor, and the versions it is made at (decision 163). */
interface OwnPage {
  key: string;
  made: Made;
}

function checkoutPage(layout: PageLayout): CheckoutPageRenderer {
  return async (request, reply, options) => {
    const t = serverT(request.locale.lang);
    const title = t('checkout.page.title');
    reply.header('cache-control', 'no-store');
    const { own } = options;
    return renderPage(request, reply, {
      title: options.failed ? t('checkout.errorTitle', { title }) : title,
      head: <meta name="robots" content="noindex" />,
      ...(own
        ? {
            onHtml: (html: Buffer) => {
              request.server.pageCache.storeOwn(own.key, own.made, request, reply, {
                status: 200,
                html,
              });
              return undefined;
            },
          }
        : {}),
      body: await layout(
        request,
        <section aria-labelledby="checkout-title" className={styles.page}>
          <h1 id="checkout-title">{title}</h1>
          {options.body}
        </section>,
      ),
    });
  };
}

/** Without a postal code: a GET form to this page asks for one (`invalid`: what was refused). */
function PostalCodeForm({ lang, invalid }: { lang: Lang; invalid: string | null }) {
  const t = serverT(lang);
  return (
    <>
      {invalid !== null ? (
        // Focused on arrival also without script (the failed-submit pattern).
        <div
          role="alert"
          tabIndex={-1}
          id="error-summary"
          className={styles.errorSummary}
          // biome-ignore lint/a11y/noAutofocus: the focus goes to the summary of a refused post, as the user asked for by posting (no script runs on this page)
          autoFocus
        >
          <h2>{t('checkout.errorSummary')}</h2>
          <ul>
            <li>
              <a href="#checkout-postal-code">{t('checkout.error.postalCode')}</a>
            </li>
          </ul>
        </div>
      ) : null}
      <form method="get" action={CHECKOUT_PAGE_PATH} className={styles.deliveryForm}>
        <p>{t('checkout.page.postalCodeIntro')}</p>
        <p className={styles.field}>
          <label htmlFor="checkout-postal-code">{t('shop.delivery.postalCode')}</label>
          <input
            id="checkout-postal-code"
            name={POSTAL_CODE_PARAM}
            className={shop.textInput}
            inputMode="numeric"
            autoComplete="postal-code"
            required
            defaultValue={invalid ?? ''}
            aria-invalid={invalid !== null ? true : undefined}
          />
        </p>
        <button type="submit" className={shop.primary}>
          {t('checkout.page.postalCodeSubmit')}
        </button>
      </form>
    </>
  );
}

/** An empty cart has nothing to check out: the way to the products. */
function EmptyCheckout({ lang, paymentCancelled }: { lang: Lang; paymentCancelled: boolean }) {
  const t = serverT(lang);
  return (
    <>
      {paymentCancelled ? <PaymentCancelledNotice text={t('shop.order.paymentCancelled')} /> : null}
      <p>{t('checkout.page.emptyCart')}</p>
      <p>
        <a href="/tuotteet" className={shop.primary}>
          {t('checkout.page.toProducts')}
        </a>
      </p>
    </>
  );
}

/**
 * `GET /kassa`: the customer's checkout for the postal code of the query (or of the customer's
 * address, by a redirect), with the notice of a refused post.
 */
async function showCheckout(
  page: CheckoutPageRenderer,
  request: FastifyRequest<{ Querystring: Record<string, unknown> }>,
  reply: FastifyReply,
) {
  reply.header('cache-control', 'no-store');
  // The customer's own page may answer them again for a moment (decision 163).
  const cache = request.server.pageCache;
  const ownKey = await cache.ownKeyOf(request);
  if (ownKey && cache.serveOwn(ownKey, request, reply)) return reply;
  const own = ownKey ? { key: ownKey, made: cache.made() } : undefined;
  const customerId = await sessionCustomerId(request.session);
  if (!customerId) return loginRedirect(request, reply);
  const { db, config } = request.server;
  const { lang } = request.locale;
  const customer = await customerAnswer(db, customerId);
  const asked = request.query[POSTAL_CODE_PARAM] ?? request.query.postalCode;
  const postalCode = postalCodeOf(asked);
  if (!postalCode) {
    const address = postalCodeOf(customer.deliveryAddress.postalCode);
    if (address && (asked === undefined || asked === '')) {
      return reply.redirect(checkoutUrl(address), 303);
    }
    const invalid = typeof asked === 'string' && asked !== '' ? asked.slice(0, 20) : null;
    cache.keepForVisitor(request);
    return page(request, reply, {
      own,
      failed: invalid !== null,
      body: <PostalCodeForm lang={lang} invalid={invalid} />,
    });
  }
  const key: CartKey | null = existingKey(request);
  const cart = await loadCart(db, key, lang);
  const paymentCancelled = request.query[PAYMENT_PARAM] === PAYMENT_CANCELLED;
  if (cart.lineItems.length === 0) {
    cache.keepForVisitor(request);
    return page(request, reply, {
      own,
      failed: false,
      body: <EmptyCheckout lang={lang} paymentCancelled={paymentCancelled} />,
    });
  }
  const notice = takeNotice(request);
  const held = await currentHold(db, key);
  // A held time counts for its own postal code; a hold of gift cards only has none.
  const hold =
    held && (deliveryOf(held) === null || held.postalCode === postalCode)
      ? holdAnswer(held, lang)
      : null;
  const delivery = await deliveryDates(db, key, lang, postalCode);
  // Read from the tables of visitors and content and the clock (a notice is read once): kept for
  // its visitor for a moment, and never past the end of a held time (decision 163).
  if (notice === null) {
    cache.keepForVisitor(request, held ? held.expiresAt.getTime() : undefined);
  }
  return page(request, reply, {
    own,
    failed: notice !== null && Object.keys(notice.errors).length > 0,
    body: (
      <Island
        name="shop-checkout"
        lang={lang}
        props={{
          cart,
          hold,
          postalCode,
          delivery,
          customer,
          paymentMethodCode: config.payment.provider,
          // The page is no-store and the session's own: its anti-forgery value may stand in it.
          form: { token: request.session.derive('xsrf'), notice },
          paymentCancelled,
        }}
      />
    ),
  });
}

type Shopper = NonNullable<Awaited<ReturnType<typeof shopper>>>;

/** `action=hold`: takes the delivery hold of the chosen time, then on to the payment step. */
async function holdFromForm(
  request: FastifyRequest,
  reply: FastifyReply,
  { key }: Shopper,
  body: Fields,
) {
  const { db } = request.server;
  const { lang } = request.locale;
  const postalCode = postalCodeOf(body[POSTAL_CODE_PARAM]);
  const { date, time } = chosenSlot(body);
  const billing = body[BILLING_FIELD] === 'on' || body[BILLING_FIELD] === 'true';
  const typed = { date, time, useDeliveryAddressForBilling: billing };
  if (!postalCode) {
    return sendBack(request, reply, null, {
      step: STEPS.delivery,
      errors: { [TIME_FIELD]: 'checkout.error.postalCode' },
    });
  }
  // Gift cards only are mailed: no time to choose, the hold only keeps the checkout.
  const mailed = (await loadCart(db, key, lang)).hasGiftCardsOnly;
  if (!mailed && !DATE.test(date)) {
    return sendBack(request, reply, postalCode, {
      step: STEPS.delivery,
      errors: { [DATE_FIELD]: 'checkout.error.chooseDate' },
      typed: { useDeliveryAddressForBilling: billing },
    });
  }
  if (!mailed && !TIME.test(time)) {
    return sendBack(request, reply, postalCode, {
      step: STEPS.delivery,
      errors: { [TIME_FIELD]: 'checkout.error.chooseTime' },
      typed: { date, useDeliveryAddressForBilling: billing },
    });
  }
  try {
    await takeHold(
      db,
      key,
      lang,
      mailed
        ? { useDeliveryAddressForBilling: billing }
        : { postalCode, date, time, useDeliveryAddressForBilling: billing },
    );
  } catch (error) {
    if (isBusy(error)) return sendBack(request, reply, postalCode, busyNotice(STEPS.delivery));
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    const cart = await loadCart(db, key, lang);
    const names = new Map(cart.lineItems.map((line) => [line.code, line.name]));
    return sendBack(request, reply, postalCode, { ...refusalNotice(error, names), typed });
  }
  return reply.redirect(checkoutUrl(postalCode, STEPS.payment), 303);
}

/**
 * `action=purchase`: places the order of the held time with the sums the shopper confirmed and
 * starts its payment (the same use case as the JSON order route), then on to `next`.
 */
async function purchaseFromForm(
  request: FastifyRequest,
  reply: FastifyReply,
  { customerId, key }: Shopper,
  body: Fields,
) {
  const { db } = request.server;
  const { lang } = request.locale;
  const postalCode = postalCodeOf(body[POSTAL_CODE_PARAM]);
  const checkoutId = body[CHECKOUT_ID_FIELD] ?? '';
  const paymentMethodCode = body[PAYMENT_METHOD_FIELD] ?? '';
  if (!UUID.test(checkoutId)) {
    return sendBack(request, reply, postalCode, {
      step: STEPS.delivery,
      errors: { [TIME_FIELD]: 'checkout.error.chooseTime' },
    });
  }
  const total = centsOfMoney(body[TOTAL_FIELD] ?? '');
  const usedGiftCard = centsOfMoney(body[GIFT_CARD_AMOUNT_FIELD] ?? '');
  if (!PAYMENT_METHOD_PATTERN.test(paymentMethodCode) || total === null || usedGiftCard === null) {
    return sendBack(request, reply, postalCode, {
      step: STEPS.payment,
      errors: { _: 'checkout.error.general' },
    });
  }
  const names = new Map(
    (await loadCart(db, key, lang)).lineItems.map((line) => [line.code, line.name]),
  );
  // The same use case as the JSON order route (`POST /checkout/order`).
  let checkedOut: Awaited<ReturnType<typeof checkOut>>;
  try {
    checkedOut = await checkOut(paymentDeps(request), {
      siteId: SHOP_SITE_ID,
      lang,
      sessionId: key.sessionId,
      customerId,
      checkoutId,
      paymentMethodCode,
      confirmed: { totalCents: total, usedGiftCardCents: usedGiftCard },
    });
  } catch (error) {
    if (isBusy(error)) return sendBack(request, reply, postalCode, busyNotice(STEPS.payment));
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    return sendBack(request, reply, postalCode, refusalNotice(error, names));
  }
  if (checkedOut.paymentError) {
    // The order stands (the cart is empty now): `next` is its confirmation page, which shows it
    // waiting for payment rather than the checkout an empty cart.
    request.log.warn({ err: checkedOut.paymentError }, 'payment could not be started');
  }
  return reply.redirect(checkedOut.next, 303);
}

export function checkoutPageRoutes(layout: PageLayout) {
  return async (fastify: FastifyInstance) => {
    acceptFormPosts(fastify, FORM_BODY_BYTES);
    fastify.addHook('onRequest', async (request) => onShop(request));
    fastify.addHook('onSend', async (request, reply) => {
      if (shown.has(request))
        reply.clearCookie(CHECKOUT_NOTICE_COOKIE, { path: CHECKOUT_PAGE_PATH });
      // The page carries the customer's address and the form's anti-forgery value: no cache
      // keeps it (the page renderer's own `no-cache` is not enough here).
      reply.header('cache-control', 'no-store');
    });
    const page = checkoutPage(layout);

    fastify.get<{ Querystring: Record<string, unknown> }>(CHECKOUT_PAGE_PATH, (request, reply) =>
      showCheckout(page, request, reply),
    );

    fastify.post(
      CHECKOUT_PAGE_PATH,
      {
        config: {
          rateLimit: postRateLimit,
          // A refused post (the form-post guard) writes nothing and says the page expired.
          formPost: {
            refused: async (request, reply) => {
              if (!(await shopper(request))) return loginRedirect(request, reply);
              const body = (request.body ?? {}) as Fields;
              return sendBack(request, reply, postalCodeOf(body[POSTAL_CODE_PARAM]), {
                step: stepOf(body),
                errors: { _: 'checkout.error.forbidden' },
              });
            },
          },
        },
      },
      async (request, reply) => {
        const visitor = await shopper(request);
        if (!visitor) return loginRedirect(request, reply);
        const body = (request.body ?? {}) as Fields;
        if (body[ACTION_FIELD] === ACTIONS.hold) return holdFromForm(request, reply, visitor, body);
        if (body[ACTION_FIELD] === ACTIONS.purchase) {
          return purchaseFromForm(request, reply, visitor, body);
        }
        return sendBack(request, reply, postalCodeOf(body[POSTAL_CODE_PARAM]), {
          step: stepOf(body),
          errors: { _: 'checkout.error.general' },
        });
      },
    );
  };
}
