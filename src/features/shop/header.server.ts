import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import type { PageLayout } from '../../render/render-page.tsx';
import { logDegraded } from '../../server/outage.ts';
import { SHOP_SITE_ID } from '../../sites/shop.ts';
import { shopAdminRoutes } from './admin/routes.server.ts';
import { lineItemCount as countLineItems } from './cart.server.ts';
import { cartFormRoutes, clearShownNotice } from './cart-form.server.ts';
import { handoverPageRoutes } from './cart-sync/handover-routes.server.tsx';
import { cartSyncRoutes } from './cart-sync/routes.server.tsx';
import { checkoutPageRoutes } from './checkout/pages.server.tsx';
import { accountPageRoutes } from './customer/pages.server.tsx';
import { customerRoutes } from './customer/routes.server.ts';
import { orderPaymentPageRoutes, orderPaymentsPlugin } from './orders/payment-routes.server.tsx';
import { testBankPageRoutes } from './payment/testbank-page.server.tsx';
import { reviewRoutes } from './reviews/routes.server.ts';
import { cartRoutes } from './routes.server.ts';

/** Requests whose answer shows the session's cart: no shared cache may keep them. */
const showsCart = new WeakSet<FastifyRequest>();

type HeaderVisitor = { lineItemCount: number; loggedIn: boolean };

const GUEST: HeaderVisitor = { lineItemCount: 0, loggedIn: false };

/**
 * What this process last read of visitors' header parts, by session id, with the versions it was
 * read at (decision 157). Any committed write to sessions or carts, here or in another process,
 * moves `visitors` and voids every entry; a content change (a product's price, its language
 * version) moves `current`. An entry also ends after `VISITOR_TTL_MS`: a session expires by time,
 * not by a write.
 */
const visitorMemory = new WeakMap<
  object,
  LRUCache<string, { visitor: HeaderVisitor; content: number; visitors: number; at: number }>
>();
const VISITOR_TTL_MS = 60_000;
const VISITORS_KEPT = 10_000;

/**
 * What the header shows of the visitor on the shop (spec §3 "Cart summary (header)"; decision
 * 157): `lineItemCount` is the number of line items, not the sum of their quantities: the spec
 * names it beside `lineItems`, says the mobile icon shows "when the cart has line items", and the
 * retail site's cart keeps `lineItemCount` apart from each line's own `quantity`; `loggedIn`
 * whether a customer is logged in. From one read of the session and one count, remembered until a
 * session or cart changes anywhere; a visitor without a session cookie costs nothing. The session
 * is peeked, not read as the page's own: the answer is marked private here instead, and a shared
 * page keeps only the guest's fragments. A database failure shows the guest's header; the page
 * still renders.
 */
export async function headerVisitor(request: FastifyRequest): Promise<HeaderVisitor> {
  // Every shop page shows a cart: its answer stays private to the browser, as before the page
  // was shared (a guest's shows the empty cart).
  showsCart.add(request);
  const session = request.session;
  if (!session || session.isNew) return GUEST;
  const { database } = request.server;
  const version = database.contentVersion;
  let memory = visitorMemory.get(database);
  if (!memory) {
    memory = new LRUCache({ max: VISITORS_KEPT });
    visitorMemory.set(database, memory);
  }
  try {
    // Every write committed anywhere before this request is known before memory is asked.
    await version.sync();
    const read = { content: version.current, visitors: version.visitors, at: Date.now() };
    const key = `${session.id}:${request.locale.lang}`;
    const known = memory.get(key);
    if (
      known &&
      version.complete &&
      known.content === read.content &&
      known.visitors === read.visitors &&
      read.at - known.at < VISITOR_TTL_MS
    ) {
      return known.visitor;
    }
    const visitor = await readHeaderVisitor(request, session);
    if (version.complete) memory.set(key, { visitor, ...read });
    return visitor;
  } catch (err) {
    logDegraded(request, err, 'cart summary unavailable; showing an empty cart');
    return GUEST;
  }
}

async function readHeaderVisitor(
  request: FastifyRequest,
  session: NonNullable<FastifyRequest['session']>,
): Promise<HeaderVisitor> {
  const data = await session.peek();
  if (!session.stored) return GUEST;
  const lineItemCount = await countLineItems(
    request.server.db,
    { sessionId: session.id, siteId: SHOP_SITE_ID },
    request.locale.lang,
  );
  const customer = data.customer;
  const loggedIn =
    typeof customer === 'object' &&
    customer !== null &&
    (customer as { loggedIn?: unknown }).loggedIn === true;
  return { lineItemCount, loggedIn };
}

export interface ShopOptions {
  /** The site's layout, which the shop's pages are shown in (the app's; the shop does not know it). */
  layout: PageLayout;
}

/**
 * The shop's routes and pages, and the cache rule of pages that show the cart: their HTML differs
 * per session, so it is `private` (browsers still revalidate it; shared caches never keep it).
 */
export const shopPlugin = fp(
  async (app: FastifyInstance, { layout }: ShopOptions) => {
    app.addHook('onSend', async (request, reply) => {
      if (showsCart.has(request) && reply.getHeader('cache-control') !== 'no-store') {
        reply.header('cache-control', 'private, no-cache');
      }
    });
    app.addHook('onSend', clearShownNotice);
    await app.register(cartRoutes);
    await app.register(cartFormRoutes);
    await app.register(cartSyncRoutes);
    await app.register(customerRoutes);
    await app.register(orderPaymentsPlugin);
    await app.register(reviewRoutes);
    // The back office's order routes (decision 141), behind the staff guard.
    await app.register(shopAdminRoutes);
    // The pages, each in the site's layout: the cart hand-over (decision 021), the test bank
    // (024), the payment's return and the order confirmation (028), the account pages (025) and
    // the checkout (029).
    await app.register(handoverPageRoutes(layout));
    await app.register(testBankPageRoutes(layout));
    await app.register(orderPaymentPageRoutes(layout));
    await app.register(accountPageRoutes(layout));
    await app.register(checkoutPageRoutes(layout));
  },
  { name: 'shop', dependencies: ['sessions', 'xsrf'] },
);
