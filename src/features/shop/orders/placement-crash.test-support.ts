import { openDatabase } from '../../../db/client.ts';
import { SHOP_SITE_ID } from '../../../sites/shop.ts';
import { placementHooks, placeOrder } from './placement.server.ts';

/**
 * The crash test's child process (checkout-race.test.ts): places one order against a PostgreSQL
 * database and stops inside the placement transaction, after the order is written and the
 * stock, slot, coupons and gift cards are taken, before the commit, printing `PAUSED`; the test kills it there
 * with SIGKILL. Arguments: database URL, session id, customer id, checkout id, and the totals
 * the checkout showed in cents (total, what gift cards pay).
 */
const [url, sessionId, customerId, checkoutId, total, usedGiftCard] = process.argv.slice(2);
if (!url || !sessionId || !customerId || !checkoutId || !total || !usedGiftCard) {
  throw new Error(
    'usage: placement-crash <url> <sessionId> <customerId> <checkoutId> <totalCents> <usedGiftCardCents>',
  );
}
const handle = await openDatabase({ engine: 'postgres', url, poolSize: 1 });
placementHooks.afterTaking = async () => {
  process.stdout.write('PAUSED\n');
  await new Promise(() => {});
};
// The pause comes before anything is mailed: the mail settings only have to be well-formed.
const mail = {
  shopUrl: 'http://shop.localhost',
  mailKey: Buffer.alloc(32),
  shopEmail: 'shop@example.fi',
  limitKeySecret: 'crash-test',
};
await placeOrder(
  { db: handle.db, ...mail },
  {
    siteId: SHOP_SITE_ID,
    lang: 'fi',
    sessionId,
    customerId,
    checkoutId,
    paymentMethodCode: 'FI50',
    confirmed: { totalCents: Number(total), usedGiftCardCents: Number(usedGiftCard) },
  },
);
process.stdout.write('PLACED\n');
await handle.close();
