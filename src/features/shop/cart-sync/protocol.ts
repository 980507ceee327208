import { MAX_QUANTITY } from '../values.ts';

/**
 * Cart sync between the shop and the brand sites that sell through it (spec §4 "Cart sync"): a
 * brand site keeps a local copy of the shop's cart and talks to a hidden shop frame with
 * `postMessage`. The brand site asks with 'sync-cart' and adds with 'add'; the shop answers each
 * with its cart ('cart'), which replaces the brand site's copy. Every message is checked for its
 * origin and its shape before anything is done with it; these functions are the checks and the
 * rules, shared by both sides and free of the DOM.
 */

export const CART_SYNC_PATH = '/cart-sync';
/** The shop's page that takes a cart hand-over token (decision 021). */
export const HANDOVER_PAGE_PATH = '/ostoskori/siirto';
/** How long the badge waits for the frame's hand-over token before following its plain link. */
export const HANDOVER_WAIT_MS = 3000;
/** Request header of the frame's cart calls (see `isFramedRequest` in the sessions plugin). */
export const FRAME_HEADER = 'x-kattaus-frame';
export const FRAME_HEADER_VALUE = 'cart-sync';
/** The key of the brand site's cart in localStorage (spec §3: "under a cart key"). */
export const LOCAL_CART_KEY = 'cart';
/** Frame readiness is asked again every 200 ms (spec §9) until the shop answers. */
export const READY_RETRY_MS = 200;
/** ... at most this many times (30 s); then the badge stops loading and shows what it has. */
export const READY_MAX_TRIES = 150;

export interface LocalLineItem {
  code: string;
  quantity: number;
}

/** The brand site's copy of the cart (spec §3: lineItems with code and quantity, lineItemCount, loading). */
export interface LocalCart {
  lineItems: LocalLineItem[];
  /**
   * The number of line items, not the sum of quantities (decision 014); after a hand-over it
   * counts the shop cart's lines too, each product once (decision 102).
   */
  lineItemCount: number;
  loading: boolean;
  /** The shop's total as it answered it (`12,90`); null until the shop has answered. */
  total: string | null;
}

/**
 * Brand site → shop. An add may carry an `id` the answer repeats, so the buy control that sent it
 * knows which answer is its own; 'handover' asks for a one-time token that moves the frame's cart
 * to the shop's own session (decision 021).
 */
export type SiteMessage =
  | { type: 'sync-cart' }
  | { type: 'add'; code: string; quantity: number; id?: number }
  | { type: 'handover'; id: number };

/**
 * Shop → brand site: its cart, whether the change asked for was refused, and the cart's warnings
 * (shown instead of the success text); or a hand-over token (null when there is none to give).
 */
export type ShopMessage =
  | { type: 'cart'; cart: LocalCart; refused?: boolean; id?: number; warnings?: string[] }
  | { type: 'handover'; id: number; path: string | null };

/** A message id: a whole number the sender chose (not a secret; it only pairs answers). */
function isMessageId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

export const emptyCart: LocalCart = { lineItems: [], lineItemCount: 0, loading: true, total: null };

const CODE = /^[A-Za-z0-9_-]{1,40}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isQuantity(value: unknown, min: number): value is number {
  return (
    typeof value === 'number' && Number.isInteger(value) && value >= min && value <= MAX_QUANTITY
  );
}

/** A message the shop accepts from a brand site, or null (wrong shape, code or quantity). */
export function parseSiteMessage(data: unknown): SiteMessage | null {
  if (!isRecord(data)) return null;
  if (data.type === 'sync-cart') return { type: 'sync-cart' };
  if (data.type === 'handover')
    return isMessageId(data.id) ? { type: 'handover', id: data.id } : null;
  if (data.type === 'add' && typeof data.code === 'string' && CODE.test(data.code)) {
    const quantity = data.quantity === undefined ? 1 : data.quantity;
    if (data.id !== undefined && !isMessageId(data.id)) return null;
    if (isQuantity(quantity, 1)) {
      return {
        type: 'add',
        code: data.code,
        quantity,
        ...(data.id === undefined ? {} : { id: data.id }),
      };
    }
  }
  return null;
}

/** The lines of a cart as stored locally: codes once each, whole quantities 1–99. */
function parseLines(value: unknown): LocalLineItem[] | null {
  if (!Array.isArray(value)) return null;
  const lines: LocalLineItem[] = [];
  for (const item of value) {
    if (!isRecord(item) || typeof item.code !== 'string' || !CODE.test(item.code)) return null;
    if (!isQuantity(item.quantity, 1)) return null;
    if (lines.some((line) => line.code === item.code)) return null;
    lines.push({ code: item.code, quantity: item.quantity });
  }
  return lines;
}

/** A cart as the shop sends it or localStorage holds it, or null when it is not one. */
export function parseLocalCart(value: unknown): LocalCart | null {
  if (!isRecord(value)) return null;
  const lineItems = parseLines(value.lineItems);
  if (!lineItems) return null;
  const total =
    typeof value.total === 'string' && /^-?\d+,\d{2}$/.test(value.total) ? value.total : null;
  const lineItemCount =
    typeof value.lineItemCount === 'number' && Number.isInteger(value.lineItemCount)
      ? value.lineItemCount
      : lineItems.length;
  return { lineItems, lineItemCount, loading: value.loading === true, total };
}

/** A message the brand site accepts from the shop, or null. */
export function parseShopMessage(data: unknown): ShopMessage | null {
  if (!isRecord(data)) return null;
  if (data.type === 'handover') {
    if (!isMessageId(data.id)) return null;
    // Only a path of the shop's hand-over page: the brand site puts the shop's origin before it.
    const path =
      typeof data.path === 'string' &&
      data.path.startsWith(`${HANDOVER_PAGE_PATH}?token=`) &&
      /^[A-Za-z0-9_-]{43}$/.test(data.path.slice(HANDOVER_PAGE_PATH.length + 7))
        ? data.path
        : null;
    return { type: 'handover', id: data.id, path };
  }
  if (data.type !== 'cart') return null;
  const cart = parseLocalCart(data.cart);
  if (!cart) return null;
  const warnings =
    Array.isArray(data.warnings) && data.warnings.every((w) => typeof w === 'string')
      ? (data.warnings as string[]).slice(0, 20)
      : undefined;
  return {
    type: 'cart',
    cart,
    ...(data.refused === true ? { refused: true } : {}),
    ...(isMessageId(data.id) ? { id: data.id } : {}),
    ...(warnings && warnings.length > 0 ? { warnings } : {}),
  };
}

/**
 * Whether a message event comes from an allowed origin and, when the expected window is known,
 * from that window. `*`, `null` (sandboxed and file pages) and anything not in the list are refused.
 */
export function fromAllowedOrigin(
  event: { origin: string; source: unknown },
  allowed: readonly string[],
  expectedSource?: unknown,
): boolean {
  if (!event.origin || event.origin === 'null' || !allowed.includes(event.origin)) return false;
  return expectedSource === undefined || event.source === expectedSource;
}

/**
 * An add applied to the local copy while the shop works on it: the quantity is summed with the
 * line's (spec §4), up to the limit of 99; a new code becomes a new line. The copy is marked
 * loading until the shop's answer replaces it.
 */
export function addToLocalCart(cart: LocalCart, code: string, quantity: number): LocalCart {
  const existing = cart.lineItems.find((line) => line.code === code);
  const lineItems = existing
    ? cart.lineItems.map((line) =>
        line.code === code
          ? { code, quantity: Math.min(MAX_QUANTITY, line.quantity + quantity) }
          : line,
      )
    : [...cart.lineItems, { code, quantity: Math.min(MAX_QUANTITY, quantity) }];
  // The count may include the shop cart's own lines (decision 102): a new line adds one, until
  // the shop's answer says how many there are.
  const lineItemCount = Math.max(lineItems.length, cart.lineItemCount + (existing ? 0 : 1));
  return { ...cart, lineItems, lineItemCount, loading: true };
}

/** The shop's full cart reduced to what travels to the brand site. */
export function localCartOf(cart: {
  lineItems: readonly { code: string; quantity: number }[];
  lineItemCount: number;
  total: string;
}): LocalCart {
  return {
    lineItems: cart.lineItems.map(({ code, quantity }) => ({ code, quantity })),
    lineItemCount: cart.lineItemCount,
    loading: false,
    total: cart.total,
  };
}
