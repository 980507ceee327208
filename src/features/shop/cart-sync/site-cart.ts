import { useEffect, useSyncExternalStore } from 'react';
import {
  addToLocalCart,
  emptyCart,
  fromAllowedOrigin,
  HANDOVER_WAIT_MS,
  LOCAL_CART_KEY,
  type LocalCart,
  parseLocalCart,
  parseShopMessage,
  READY_MAX_TRIES,
  READY_RETRY_MS,
  type ShopMessage,
  type SiteMessage,
} from './protocol.ts';

/** What the shop answered an add: its warnings (none: plain success), or refused. */
export type AddOutcome = { ok: true; warnings: string[] } | { ok: false };

/** An add gives up waiting for the shop after this long (the frame never answered). */
const ADD_WAIT_MS = 15_000;

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
  /** Until the frame's page has loaded its window is `about:blank`, of this page's origin. */
  private loaded = false;
  private tries = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  /** Adds made before the frame answered: sent once it has. */
  private readonly queued: SiteMessage[] = [];
  private nextId = 1;
  /** Callers waiting for the answer to their message, by its id. */
  private readonly waiting = new Map<number, (message: ShopMessage | null) => void>();

  constructor(readonly config: CartSyncConfig) {
    this.frame = document.createElement('iframe');
    this.frame.src = config.frameUrl;
    this.frame.title = config.frameTitle;
    this.frame.hidden = true;
    this.frame.tabIndex = -1;
    this.frame.setAttribute('aria-hidden', 'true');
    this.frame.dataset.cartSync = '';
    this.frame.addEventListener(
      'load',
      () => {
        this.loaded = true;
        this.askReady();
      },
      { once: true },
    );
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
    // Posted to the blank document before the shop's page is there, the message would only be
    // refused (a console warning naming the origins); the tries still count towards giving up.
    if (this.loaded) this.post({ type: 'sync-cart' });
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
    if (message.type === 'cart') {
      // The shop's cart replaces the local one (spec §4), unless adds are still on their way.
      const pending =
        this.queued.length > 0 || [...this.waiting.keys()].some((id) => id !== message.id);
      setCart(pending ? { ...message.cart, loading: true } : message.cart);
    }
    if (message.id !== undefined) {
      this.waiting.get(message.id)?.(message);
      this.waiting.delete(message.id);
    }
  };

  /** Sends a message now, or once the frame is ready; resolves with its answer (null: none came). */
  private ask(message: SiteMessage & { id: number }, waitMs: number): Promise<ShopMessage | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(message.id);
        resolve(null);
      }, waitMs);
      this.waiting.set(message.id, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      if (this.ready) this.post(message);
      else this.queued.push(message);
    });
  }

  async add(code: string, quantity: number): Promise<AddOutcome> {
    setCart(addToLocalCart(cart, code, quantity));
    const answer = await this.ask({ type: 'add', code, quantity, id: this.nextId++ }, ADD_WAIT_MS);
    if (answer?.type !== 'cart' || answer.refused) {
      // No answer at all: the shop's next cart replaces the optimistic line; until then, not loading.
      if (!answer) setCart({ ...cart, loading: false });
      return { ok: false };
    }
    return { ok: true, warnings: answer.warnings ?? [] };
  }

  /** The address of the shop's hand-over page for this frame's cart, or null (decision 021). */
  async handover(): Promise<string | null> {
    if (!this.ready) return null;
    const answer = await this.ask({ type: 'handover', id: this.nextId++ }, HANDOVER_WAIT_MS);
    if (answer?.type !== 'handover' || !answer.path) return null;
    return new URL(answer.path, this.config.shopOrigin).href;
  }
}

/** The page's frame settings until the frame opens (`connectCartSync`). */
let pending: CartSyncConfig | null = null;

/** What shows that a visitor is using the page (decision 063). */
const USE_EVENTS = [
  'pointerdown',
  'pointermove',
  'touchstart',
  'keydown',
  'focusin',
  'scroll',
] as const;

/** The browser's next idle time, at the latest after `timeout` ms. */
function whenIdle(run: () => void, timeout: number): void {
  if ('requestIdleCallback' in window) window.requestIdleCallback(run, { timeout });
  else setTimeout(run, Math.min(timeout, 1_000));
}

/** The first idle time after the visitor first points, touches, types, focuses or scrolls. */
function afterFirstUse(run: () => void): void {
  const once = () => {
    for (const type of USE_EVENTS) window.removeEventListener(type, once, true);
    whenIdle(run, 1_000);
  };
  for (const type of USE_EVENTS)
    window.addEventListener(type, once, { capture: true, passive: true });
}

/**
 * Connects the page to the shop's cart once; later calls reuse it. The stored copy of the cart
 * shows at once. The shop's frame is a page of its own that loads its own script and asks the
 * cart API, so it waits (decision 063): with a stored cart, for the browser's first idle time (at
 * the latest after 5 s), so the badge soon shows the shop's count; without one, for the visitor's
 * first use of the page, as the count is then very likely 0 and a visitor who only reads pays
 * nothing for it. An add or the cart link opens it at once.
 */
export function connectCartSync(config: CartSyncConfig): void {
  if (connection || pending || typeof window === 'undefined') return;
  const stored = readStored();
  pending = config;
  if (stored.lineItems.length > 0) {
    cart = stored;
    whenIdle(openFrame, 5_000);
  } else {
    // Nothing to wait for: the badge is empty and not loading until the shop says otherwise.
    cart = { ...stored, loading: false };
    afterFirstUse(openFrame);
  }
  for (const listener of listeners) listener();
}

/** The connection, opening the frame now if `connectCartSync` has not yet. */
function openFrame(): Connection | null {
  if (!connection && pending) {
    connection = new Connection(pending);
    pending = null;
  }
  return connection;
}

/**
 * Adds a product of the shop to the cart through the frame (summed with what the cart has) and
 * resolves with the shop's answer.
 */
export function addThroughShop(code: string, quantity = 1): Promise<AddOutcome> {
  const current = openFrame();
  if (!current) throw new Error('cart sync is not connected');
  return current.add(code, quantity);
}

/**
 * The click on the cart link of a brand site (decision 021): when the synced cart has lines, the
 * shop frame is asked for a one-time hand-over token and the visitor goes to the shop's hand-over
 * page with it, so the lines reach the shop's own session. Anything else (a modified click, an
 * empty cart, no answer in time) follows the link as it is: the link works without this.
 */
export function followCartLink(event: {
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  defaultPrevented: boolean;
  preventDefault(): void;
  currentTarget: EventTarget | null;
}): void {
  const current = openFrame();
  if (!current || event.defaultPrevented || cart.lineItems.length === 0) return;
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return;
  const link = event.currentTarget;
  if (!(link instanceof HTMLAnchorElement)) return;
  event.preventDefault();
  link.setAttribute('aria-busy', 'true');
  void current.handover().then((url) => {
    link.removeAttribute('aria-busy');
    window.location.assign(url ?? link.href);
  });
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

/**
 * What the header of a site that sells through the shop takes from here (the shop's `cartSync`
 * island part, which the app's registry joins to the header on those sites only).
 */
export interface CartSyncPart {
  useSyncedCart: typeof useSyncedCart;
  followCartLink: typeof followCartLink;
}

export const cartSyncPart: CartSyncPart = { useSyncedCart, followCartLink };
