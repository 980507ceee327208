import { asc, eq } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Transaction } from '../../../db/client.ts';
import { serverT } from '../../../i18n/catalogues.ts';
import type { MessageKey } from '../../../i18n/fi.ts';
import type { Lang } from '../../../sites/types.ts';
import { enqueueMail } from '../../forms/index.server.ts';
import { moneyString } from '../schemas.ts';
import { type OrderStatus, orderLines, type orders } from '../tables.ts';
import { type IssuedGiftCard, issueGiftCards } from './gift-cards.server.ts';
import { moveOrder } from './lifecycle.server.ts';
import { confirmationUrl, type OrderRow } from './payments.server.ts';

/**
 * What happens when an order becomes paid, in the transaction that made it so (decision 028,
 * 030): the gift cards it bought are issued, the shopper gets the confirmation (and, apart, the
 * gift card codes) and the shop its notification, all through the outbox. Placement calls it for
 * an order of 0,00 (paid at once), the payment's return for the rest, both through `payOrder`:
 * the conditional move to `paid` makes it happen once per order.
 */

/** What the order mails need besides the transaction. */
export interface OrderMailDeps {
  /** The shop's home page on its canonical host (the confirmation link). */
  shopUrl: string;
  /** The outbox's key (`config.forms.encryptionKey`). */
  mailKey: Buffer;
  /** The shop's address for order notifications (`config.payment.shopOrderEmail`). */
  shopEmail: string;
}

type OrderLineRow = typeof orderLines.$inferSelect;

async function linesOf(tx: Transaction, orderId: string): Promise<OrderLineRow[]> {
  return tx
    .select()
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId))
    .orderBy(asc(orderLines.code));
}

export const euro = (cents: number) => `${moneyString(cents)} €`;

/** `3.12.2026` from `2026-12-03`. */
const dayOf = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number);
  return `${d}.${m}.${y}`;
};

/**
 * `ke 3.12.2026 klo 16.00–18.00` in the order's language, or how it comes when nothing is
 * delivered (an order of gift cards only).
 */
export function deliveryLabel(
  order: Pick<OrderRow, 'deliveryDate' | 'startTime' | 'endTime'>,
  lang: Lang,
): string {
  const t = serverT(lang);
  const { deliveryDate, startTime, endTime } = order;
  if (deliveryDate === null || startTime === null || endTime === null) {
    return t('checkout.byEmail.label');
  }
  const clock = (time: string) => `${Number(time.slice(0, 2))}.${time.slice(3, 5)}`;
  return t('shop.order.deliveryValue', {
    date: dayOf(deliveryDate),
    start: clock(startTime),
    end: clock(endTime),
  });
}

export const STATUS_TEXT: Record<OrderStatus, MessageKey> = {
  paid: 'shop.order.status.paid',
  pending_payment: 'shop.order.status.pending_payment',
  cancelled: 'shop.order.status.cancelled',
  expired: 'shop.order.status.expired',
};

/** The order as plain text: number, delivery time and address, lines and totals. */
export function orderSummaryText(order: OrderRow, lines: OrderLineRow[], lang: Lang): string {
  const t = serverT(lang);
  const a = order.deliveryAddress;
  const parts = [
    `${t('shop.order.number')}: ${order.number}`,
    `${t('shop.order.deliveryTime')}: ${deliveryLabel(order, lang)}`,
    `${t('shop.order.deliveryAddress')}:`,
    `${a.firstName} ${a.lastName}`,
    a.streetAddress,
    `${a.postalCode} ${a.city}`,
    '',
    ...lines.map((line) => `${line.quantity} × ${line.name}  ${euro(line.linePriceCents)}`),
    '',
    `${t('shop.cart.subTotal')}: ${euro(order.subTotalCents)}`,
  ];
  const orderDiscount =
    order.subTotalCents + order.shippingCents - order.usedGiftCardCents - order.totalCents;
  if (orderDiscount > 0) parts.push(`${t('shop.cart.orderDiscount')}: -${euro(orderDiscount)}`);
  if (order.shippingCents > 0)
    parts.push(`${t('shop.cart.shipping')}: ${euro(order.shippingCents)}`);
  if (order.usedGiftCardCents > 0) {
    parts.push(`${t('shop.order.giftCard')}: -${euro(order.usedGiftCardCents)}`);
  }
  parts.push(`${t('shop.cart.total')}: ${euro(order.totalCents)}`);
  parts.push(`${t('shop.order.vatIncluded')}: ${euro(order.vatCents)}`);
  return parts.join('\n');
}

/** The codes of the issued cards to the shopper alone (the shop's mail never carries them). */
function giftCardMailText(cards: readonly IssuedGiftCard[], lang: Lang): string {
  const t = serverT(lang);
  return [
    t('shop.order.giftCardMail.intro'),
    '',
    ...cards.map((card) =>
      t('shop.order.giftCardMail.card', {
        code: card.code,
        amount: euro(card.cents),
        validTo: dayOf(card.validTo),
      }),
    ),
  ].join('\n');
}

/**
 * The order just became paid: issue its gift cards and put the mails in the outbox, all in the
 * caller's transaction (a rollback takes them all back).
 */
export async function orderPaid(
  deps: OrderMailDeps,
  tx: Transaction,
  order: OrderRow,
): Promise<void> {
  const lines = await linesOf(tx, order.id);
  const lang = order.language as Lang;
  const t = serverT(lang);
  const fi = serverT('fi');
  const number = String(order.number);
  const cards = await issueGiftCards(tx, order, lines);
  const confirmation = {
    to: order.email,
    subject: t('shop.order.mail.subject', { number }),
    text: [
      t('shop.order.mail.intro'),
      '',
      orderSummaryText(order, lines, lang),
      '',
      t('shop.order.mail.link', { url: confirmationUrl(deps.shopUrl, order.id) }),
    ],
  };
  const codes = {
    to: order.email,
    subject: t('shop.order.giftCardMail.subject', { number }),
    text: [giftCardMailText(cards, lang)],
  };
  const notification = {
    to: deps.shopEmail,
    // The shop's copy names the shopper: it is theirs to find and erase (decision 159).
    about: order.email,
    subject: fi('shop.order.shopMail.subject', { number }),
    text: [
      fi('shop.order.shopMail.intro'),
      '',
      orderSummaryText(order, lines, 'fi'),
      '',
      `${order.email}, ${order.phoneNumber}`,
      order.additionalInformation,
    ],
  };
  const mails =
    cards.length > 0 ? [confirmation, codes, notification] : [confirmation, notification];
  for (const mail of mails) {
    await enqueueMail(tx, deps.mailKey, { ...mail, text: mail.text.join('\n') });
  }
}

/**
 * Moves the order `pending_payment → paid` (with `set` written alongside) and, only when this call
 * made the move, does what paying brings (`orderPaid`). Answers the paid order, or null when it
 * was not waiting for a payment (paid already, cancelled or expired).
 */
export async function payOrder(
  deps: OrderMailDeps,
  tx: Transaction,
  orderId: string,
  set: Pick<PgUpdateSetSource<typeof orders>, 'paymentMethodCode'> = {},
): Promise<OrderRow | null> {
  const paid = await moveOrder(tx, orderId, 'pending_payment', 'paid', set);
  if (paid) await orderPaid(deps, tx, paid);
  return paid;
}
