import { useEffect, useSyncExternalStore } from 'react';
import {
  addToLocalCart,
  emptyCart,
  fromAllowedOrigin,
  LOCAL_CART_KEY,
  type LocalCart,
  parseLocalCart,
  parseShopMessage,
  READY_MAX_TRIES,
  READY_RETRY_MS,
  type SiteMessage,
} from './protocol.ts';

/**
 * The brand site's side of cart sync: one hidden shop frame per page, the local copy of the cart
 * in localStorage, and a small store the header's badge and the buy controls (separate islands)
 * share through this module.
 */

/** Where the shop's frame is and the origin its answers must come from (made on the server). */
export interface CartSyncConfig {
  frameUrl: string;
  shopOrigin: string;
  /** The frame's accessible name (it is hidden, but named for assistive technology). */
  frameTitle: string;
}

type Listener = () => void;

let cart: LocalCart = emptyCart;
const listeners = new Set<Listener>();
let connection: Connection | null = null;

function readStored(): LocalCart {
  try {
    const raw = window.localStorage.getItem(LOCAL_CART_KEY);
    const stored = raw ? parseLocalCart(JSON.parse(raw)) : null;
    // The stored copy shows at once; it is loading until the shop has answered.
    return stored ? { ...stored, loading: true } : emptyCart;
  } catch {
    return emptyCart;
  }
}

function setCart(next: LocalCart): void {
  cart = next;
  try {
    window.localStorage.setItem(LOCAL_CART_KEY, JSON.stringify(next));
  } catch {
    // Storage full or refused: the badge still shows the cart of this page.
  }
  for (const listener of listeners) listener();
}

class Connection {
  private readonly frame: HTMLIFrameElement;
  private ready = false;
  private tries = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  /** Adds made before the frame answered: sent once it has. */
  private readonly queued: SiteMessage[] = [];

  constructor(readonly config: CartSyncConfig) {
    this.frame = document.createElement('iframe');
    this.frame.src = config.frameUrl;
    this.frame.title = config.frameTitle;
    this.frame.hidden = true;
    this.frame.tabIndex = -1;
    this.frame.setAttribute('aria-hidden', 'true');
    this.frame.dataset.cartSync = '';
    window.addEventListener('message', this.onMessage);
    document.body.append(this.frame);
    // Readiness: 'sync-cart' every 200 ms until the shop answers (spec §4, §9).
    this.timer = setInterval(() => this.askReady(), READY_RETRY_MS);
    this.askReady();
  }

  private askReady(): void {
    if (this.ready) return;
    this.tries += 1;
    if (this.tries > READY_MAX_TRIES) {
      clearInterval(this.timer);
      setCart({ ...cart, loading: false });
      return;
    }
    this.post({ type: 'sync-cart' });
  }

  private post(message: SiteMessage): void {
    // Only ever to the shop's origin: a frame navigated elsewhere receives nothing.
    this.frame.contentWindow?.postMessage(message, this.config.shopOrigin);
  }

  private readonly onMessage = (event: MessageEvent): void => {
    if (!fromAllowedOrigin(event, [this.config.shopOrigin], this.frame.contentWindow)) return;
    const message = parseShopMessage(event.data);
    if (!message) return;
    if (!this.ready) {
      this.ready = true;
      clearInterval(this.timer);
      for (const queued of this.queued.splice(0)) this.post(queued);
    }
    // The shop's cart replaces the local one (spec §4), unless adds are still on their way.
    setCart(this.queued.length > 0 ? { ...message.cart, loading: true } : message.cart);
  };

  add(code: string, quantity: number): void {
    setCart(addToLocalCart(cart, code, quantity));
    const message: SiteMessage = { type: 'add', code, quantity };
    if (this.ready) this.post(message);
    else this.queued.push(message);
  }
}

/** Opens the shop frame once per page; later calls reuse it. */
export function connectCartSync(config: CartSyncConfig): void {
  if (connection || typeof window === 'undefined') return;
  cart = readStored();
  connection = new Connection(config);
  for (const listener of listeners) listener();
}

/** Adds a product of the shop to the cart through the frame (summed with what the cart has). */
export function addThroughShop(code: string, quantity = 1): void {
  if (!connection) throw new Error('cart sync is not connected');
  connection.add(code, quantity);
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The server knows no local cart: it renders the badge loading and empty. */
const serverCart = (): LocalCart => emptyCart;

/**
 * The synced cart for a component: connects on the first use (null config: not a selling site,
 * nothing happens) and re-renders on every change.
 */
export function useSyncedCart(config: CartSyncConfig | null): LocalCart | null {
  useEffect(() => {
    if (config) connectCartSync(config);
  }, [config]);
  const current = useSyncExternalStore(subscribe, () => cart, serverCart);
  return config ? current : null;
}
