/**
 * Payment callback benchmark (decision 028), on PostgreSQL: the demo content seeded into a fresh
 * database, then orders of seeded shop products whose payment is opened at the test bank, and
 *
 *   - **callback × 10**: the same signed `ok` callback sent 10 times at once per order;
 *   - **ok and fail racing**: 5 `ok` and 5 `fail` callbacks of one payment at once per order.
 *
 * Every order must end in one consistent state: paid once with exactly one shopper mail and one
 * shop mail, or (a `fail` first) cancelled, given back once, with only the shop's late-payment
 * mail. Requests go through `app.inject` (the database pool is real, so are its row locks); the
 * figure per callback is Fastify's `reply.elapsedTime`, and per order the wall time of its batch.
 * Exits 1 when any answer is not 200 or any order breaks the rule. JSON goes to
 * `bench/results/payment-callbacks-<timestamp>.json`.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:54342/postgres npx tsx bench/payment-callbacks.ts
 *
 * The named server gets a database of its own for the run, dropped at the end.
 */
import { randomUUID } from 'node:crypto';
import {
  benchApp,
  benchDatabase,
  type Figures,
  figures,
  gitCommit,
  machine,
  recordElapsed,
  runBench,
  seedDemoContent,
  startWatchdog,
  writeResults,
} from './support.ts';

const { and, eq, isNotNull, like } = await import('drizzle-orm');
const schema = {
  ...(await import('../src/features/content/tables.ts')),
  ...(await import('../src/features/shop/tables.ts')),
  ...(await import('../src/features/forms/tables.ts')),
};
const { testBank } = await import('../src/features/shop/payment/providers.server.ts');
const { startPayment, PAYMENT_CALLBACK_PATH } = await import(
  '../src/features/shop/orders/payments.server.ts'
);

const HOST = 'lihakauppa.localhost';
const SHOP_URL = `http://${HOST}/`;
const SHOP_EMAIL = 'tilaukset@kattaus.localhost';
const ORDERS_PER_SCENARIO = 40;
const AT_ONCE = 10;

const watchdog = startWatchdog(20);

const database = await benchDatabase('payment-callbacks');
let bench: Awaited<ReturnType<typeof benchApp>> | undefined;
await runBench(watchdog, async () => {
  bench = await benchApp('payment', database.url, { SHOP_ORDER_EMAIL: SHOP_EMAIL });
  const app = bench.app;
  const elapsed = recordElapsed(app);
  await app.ready();
  await seedDemoContent(app);

  const db = app.db;
  const goods = await db
    .select()
    .from(schema.products)
    .where(
      and(
        eq(schema.products.siteId, 'lihakauppa'),
        eq(schema.products.lang, 'fi'),
        eq(schema.products.isGiftCard, false),
        isNotNull(schema.products.priceCents),
      ),
    )
    .limit(3);
  if (goods.length === 0) throw new Error('no seeded shop products');
  const [customer] = await db
    .insert(schema.customers)
    .values({ email: `bench-${randomUUID()}@example.fi`, passwordHash: 'not-a-hash' })
    .returning();
  if (!customer) throw new Error('no customer');
  const address = {
    firstName: 'Maija',
    lastName: 'Meikäläinen',
    streetAddress: 'Lihakuja 3',
    postalCode: '00100',
    city: 'Helsinki',
  };
  const bank = testBank(app);
  const deps = {
    db,
    provider: bank,
    shopUrl: SHOP_URL,
    mailKey: app.config.forms.encryptionKey,
    shopEmail: SHOP_EMAIL,
    limitKeySecret: app.config.sessionSecret,
  };

  /** An order of the seeded products, its payment opened; answers it and its signed returns. */
  async function paymentOfNewOrder() {
    const lines = goods.map((product, i) => ({
      code: product.code,
      productId: product.id,
      name: product.name,
      quantity: i + 1,
      unitPriceCents: product.priceCents ?? 0,
      linePriceWithoutDiscountsCents: (product.priceCents ?? 0) * (i + 1),
      linePriceCents: (product.priceCents ?? 0) * (i + 1),
      vatBasisPoints: 1350,
    }));
    const total = lines.reduce((sum, line) => sum + line.linePriceCents, 0);
    const [order] = await db
      .insert(schema.orders)
      .values({
        checkoutId: randomUUID(),
        siteId: 'lihakauppa',
        language: 'fi',
        customerId: customer?.id ?? null,
        email: 'maija@example.fi',
        phoneNumber: '+358401234567',
        deliveryAddress: address,
        billingAddress: address,
        postalCode: '00100',
        deliveryDate: '2026-12-03',
        startTime: '16:00',
        endTime: '18:00',
        subTotalCents: total,
        vatCents: Math.round((total * 1350) / 11350),
        totalCents: total,
        expiresAt: new Date(Date.now() + 30 * 60_000),
      })
      .returning();
    if (!order) throw new Error('no order');
    await db
      .insert(schema.orderLines)
      .values(lines.map((line) => ({ orderId: order.id, ...line })));
    const { next } = await startPayment(deps, order, 'FI50');
    const ticket = bank.openTicket(new URL(next).searchParams.get('maksu'));
    if (!ticket) throw new Error('no test bank ticket');
    const query = (status: 'ok' | 'fail') => new URL(bank.returnUrl(ticket, status)).search;
    return { order, ok: query('ok'), fail: query('fail') };
  }

  const callback = (search: string) =>
    app.inject({
      method: 'GET',
      url: `${PAYMENT_CALLBACK_PATH}${search}`,
      headers: { host: HOST },
    });

  /** The order's end state against the rule; a message when it is broken. */
  async function check(orderId: string, orderNumber: number, email: string) {
    const [row] = await db.select().from(schema.orders).where(eq(schema.orders.id, orderId));
    const mails = await db
      .select({ recipients: schema.mailOutbox.recipients })
      .from(schema.mailOutbox)
      .where(like(schema.mailOutbox.subject, `%${orderNumber}%`));
    const to = mails.map((m) => m.recipients).sort();
    if (row?.status === 'paid') {
      if (to.join() !== [email, SHOP_EMAIL].sort().join())
        return `order ${orderNumber}: paid, mails ${to}`;
      return null;
    }
    if (row?.status === 'cancelled') {
      if (to.join() !== SHOP_EMAIL) return `order ${orderNumber}: cancelled, mails ${to}`;
      return null;
    }
    return `order ${orderNumber}: status ${row?.status}`;
  }

  interface ScenarioResult {
    orders: number;
    callbacksPerOrder: number;
    outcomes: { paid: number; cancelled: number };
    non200: number;
    callbackMs: Figures;
    batchMs: Figures;
  }
  const results: Record<string, ScenarioResult> = {};
  const broken: string[] = [];
  for (const scenario of ['callback × 10', 'ok and fail racing'] as const) {
    const batches: number[] = [];
    const outcomes = { paid: 0, cancelled: 0 };
    elapsed.length = 0;
    let non200 = 0;
    for (let n = 0; n < ORDERS_PER_SCENARIO; n++) {
      const { order, ok, fail } = await paymentOfNewOrder();
      const queries = Array.from({ length: AT_ONCE }, (_, i) =>
        scenario === 'callback × 10' || i % 2 === n % 2 ? ok : fail,
      );
      const t0 = performance.now();
      const answers = await Promise.all(queries.map(callback));
      batches.push(performance.now() - t0);
      non200 += answers.filter((a) => a.statusCode !== 200).length;
      const problem = await check(order.id, order.number, order.email);
      if (problem) broken.push(`${scenario}: ${problem}`);
      const [row] = await db
        .select({ status: schema.orders.status })
        .from(schema.orders)
        .where(eq(schema.orders.id, order.id));
      if (row?.status === 'paid') outcomes.paid += 1;
      if (row?.status === 'cancelled') outcomes.cancelled += 1;
    }
    if (non200 > 0) broken.push(`${scenario}: ${non200} answers were not 200`);
    results[scenario] = {
      orders: ORDERS_PER_SCENARIO,
      callbacksPerOrder: AT_ONCE,
      outcomes,
      non200,
      callbackMs: figures(elapsed, 1),
      batchMs: figures(batches, 1),
    };
  }

  const report = {
    date: new Date().toISOString(),
    machine: machine(),
    commit: gitCommit(),
    postgres: (await database.admin.query('show server_version')).rows[0]?.server_version,
    results,
    broken,
  };
  process.stdout.write(
    '\n| Scenario | Orders | Callbacks | Outcome | Callback p50 | p95 | p99 | max | Batch of 10 p50 | p95 |\n| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n',
  );
  for (const [name, r] of Object.entries(results)) {
    process.stdout.write(
      `| ${name} | ${r.orders} | ${r.orders * r.callbacksPerOrder} | ${r.outcomes.paid} paid, ${r.outcomes.cancelled} cancelled | ${r.callbackMs.p50} ms | ${r.callbackMs.p95} ms | ${r.callbackMs.p99} ms | ${r.callbackMs.max} ms | ${r.batchMs.p50} ms | ${r.batchMs.p95} ms |\n`,
    );
  }
  writeResults('payment-callbacks', report);
  if (broken.length > 0) {
    console.error(`broken:\n${broken.join('\n')}`);
    return false;
  }
  return true;
}, [() => bench?.cleanUp(), () => database.drop()]);
