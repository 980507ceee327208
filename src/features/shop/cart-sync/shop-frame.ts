import { xsrfToken } from '../../../client/send.ts';
import type { Cart } from '../schemas.ts';
import { CART_API } from '../values.ts';
import {
  FRAME_HEADER,
  FRAME_HEADER_VALUE,
  fromAllowedOrigin,
  type LocalCart,
  localCartOf,
  parseSiteMessage,
  type ShopMessage,
  type SiteMessage,
} from './protocol.ts';

/**
 * A cart call of the frame. The frame header tells the server its cookies live in a frame under
 * another site, so they are set partitioned (see `isFramedRequest` in the sessions plugin).
 */
async function cartCall(call: 'load' | 'add', params: Record<string, string> = {}): Promise<Cart> {
  return (await frameCall(call, params)) as Cart;
}

async function frameCall(
  call: 'load' | 'add' | 'handover' | 'count',
  params: Record<string, string> = {},
): Promise<unknown> {
  const query = new URLSearchParams({ language: 'fi', ...params });
  const reads = call === 'load' || call === 'count';
  const response = await fetch(`${CART_API}/${call}?${query}`, {
    method: reads ? 'GET' : 'POST',
    credentials: 'same-origin',
    headers: {
      [FRAME_HEADER]: FRAME_HEADER_VALUE,
      ...(reads ? {} : { 'x-xsrf-token': xsrfToken() }),
    },
  });
  if (!response.ok) throw new Error(`cart ${call} answered ${response.status}`);
  return response.json();
}

/**
 * The cart as the brand site keeps it: this frame's lines, and the count of the shop cart as the
 * badge shows it, which after a hand-over includes the shop cart the lines went to (decision
 * 102). Without that count (the call failed) the frame's own.
 */
async function siteCartOf(cart: Cart): Promise<LocalCart> {
  const local = localCartOf(cart);
  try {
    const { lineItemCount } = (await frameCall('count')) as { lineItemCount: number };
    return Number.isInteger(lineItemCount) ? { ...local, lineItemCount } : local;
  } catch {
    return local;
  }
}

/**
 * What the shop answers a brand site's message: 'sync-cart' with its cart, 'add' with the cart
 * after the add (the cart API sums the quantity). A refused add (unknown code, over the stock)
 * answers the cart as it is, marked refused, so the brand site drops its optimistic line.
 */
export async function answer(message: SiteMessage): Promise<ShopMessage> {
  if (message.type === 'sync-cart') {
    return { type: 'cart', cart: await siteCartOf(await cartCall('load')) };
  }
  if (message.type === 'handover') {
    // A token for this frame's cart (decision 021); none when the cart is empty or the call fails.
    try {
      const { path } = (await frameCall('handover')) as { path: string };
      return { type: 'handover', id: message.id, path };
    } catch {
      return { type: 'handover', id: message.id, path: null };
    }
  }
  const id = message.id === undefined ? {} : { id: message.id };
  try {
    const cart = await cartCall('add', { code: message.code, quantity: String(message.quantity) });
    const warnings = [...cart.warnings, ...cart.checkoutWarnings];
    return {
      type: 'cart',
      cart: await siteCartOf(cart),
      ...id,
      ...(warnings.length ? { warnings } : {}),
    };
  } catch {
    return { type: 'cart', cart: await siteCartOf(await cartCall('load')), refused: true, ...id };
  }
}

/**
 * The shop's side of cart sync, on the shop's `/cart-sync` page that the brand sites open as a
 * hidden frame: answers messages of the allowed origins only, one at a time in arrival order, and
 * only to the window and origin that asked. Plain script, no React (decision 061): the frame shows
 * nothing, and on a phone it shares the brand page's main thread.
 */
export function answerSites(allowedOrigins: readonly string[]): () => void {
  let queue: Promise<void> = Promise.resolve();
  const onMessage = (event: MessageEvent) => {
    if (!fromAllowedOrigin(event, allowedOrigins)) return;
    const message = parseSiteMessage(event.data);
    const source = event.source as Window | null;
    if (!message || !source) return;
    const origin = event.origin;
    queue = queue
      .then(() => answer(message))
      .then((reply) => source.postMessage(reply, origin))
      .catch(() => {
        // The cart could not be read at all: no answer; the site keeps asking or its copy.
      });
  };
  window.addEventListener('message', onMessage);
  return () => window.removeEventListener('message', onMessage);
}
