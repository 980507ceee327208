/**
 * Checkout race benchmark (decision 027), on PostgreSQL: the demo content seeded into a fresh
 * database, 100 registered customers with a delivery address, then
 *
 *   - **sell-out**: 100 buyers at once (hold, then order) for 10 units of one made-to-order
 *     product on one date: exactly 10 orders, 90 sold-out answers (409 naming the product);
 *   - **double submit**: one checkout submitted 20 times at once: one order, one answer;
 *   - **coupon once**: 50 held checkouts with a coupon limited to one use, ordered at once: one
 *     discounted order, 49 refusals naming the coupon;
 *   - **logins**: 10 guests with a cart each log in to one account at once: the account's saved
 *     cart ends with every guest's line (none lost);
 *   - **SIGKILL**: a placement in a child process killed inside its transaction: no order, stock,
 *     date stock and slot unchanged; measured is the time until its row locks are free.
 *
 * Each of the first three runs `ROUNDS` times (other products, dates or coupons). Requests go
 * through `app.inject` (the database pool of 10 and its row locks are real); the figure per
 * request is its wall time from the caller's side (queueing for the pool included). Exits 1 when
 * a count is off. JSON goes to `bench/results/checkout-races-<timestamp>.json`.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:54341/postgres npx tsx bench/checkout-races.ts
 *
 * The named server gets a database of its own for the run, dropped at the end.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import {
  benchApp,
  benchDatabase,
  type Figures,
  figures,
  gitCommit,
  machine,
  ROOT,
  runBench,
  seedDemoContent,
  startWatchdog,
  writeResults,
} from './support.ts';

const { and, asc, eq, isNotNull, isNull, notInArray, sql } = await import('drizzle-orm');
const schema = {
  ...(await import('../src/features/content/tables.ts')),
  ...(await import('../src/features/shop/tables.ts')),
};
const { Visitor, fromAddress } = await import('../tests/helpers/visitor.ts');
const { registerWithAddress } = await import('../tests/helpers/shop-customer.ts');
const { addDays, helsinkiDate, weekdayOf } = await import('../src/features/shop/dates.ts');
const { CART_API } = await import('../src/features/shop/schemas.ts');
const { ACCOUNT_API } = await import('../src/features/shop/customer/schemas.ts');
const { CHECKOUT_HOLD_API, CHECKOUT_ORDER_API } = await import(
  '../src/features/shop/orders/schemas.ts'
);

type Buyer = InstanceType<typeof Visitor>;

const HOST = 'lihakauppa.localhost';
const POSTAL_CODE = '00100';
const BUYERS = 100;
const UNITS = 10;
const SUBMITS = 20;
const COUPON_CHECKOUTS = 50;
const LOGINS = 10;
const ROUNDS = 3;

const watchdog = startWatchdog(20);

const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

/** A request with its wall time. */
async function timed(
  call: Promise<LightMyRequestResponse>,
): Promise<{ res: LightMyRequestResponse; ms: number }> {
  const started = performance.now();
  const res = await call;
  return { res, ms: performance.now() - started };
}

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`count off: ${what}`);
}

const database = await benchDatabase('checkout-races');
let bench: Awaited<ReturnType<typeof benchApp>> | undefined;
await runBench(watchdog, async () => {
  bench = await benchApp('checkout', database.url);
  const app = bench.app;
  await app.ready();
  await seedDemoContent(app);
  const db = app.db;

  // The first Tuesday and Thursday at least two days ahead (Pääkaupunkiseutu delivers on both;
  // made-to-order products come on Tuesdays).
  const today = helsinkiDate(new Date());
  const firstOn = (weekday: number, after = 2) => {
    for (let d = after; ; d++)
      if (weekdayOf(addDays(today, d)) === weekday) return addDays(today, d);
  };
  const tuesday = firstOn(2);
  const thursday = firstOn(4);
  const nextThursday = addDays(thursday, 7);

  // Made-to-order products without an overall stock limit: the date's 10 units are the limit.
  const madeToOrder = (
    await db
      .selectDistinct({ code: schema.productWeeklyStock.code })
      .from(schema.productWeeklyStock)
      .innerJoin(
        schema.products,
        and(
          eq(schema.products.code, schema.productWeeklyStock.code),
          eq(schema.products.siteId, 'lihakauppa'),
        ),
      )
      .where(
        and(
          eq(schema.productWeeklyStock.weekday, 2),
          isNull(schema.products.stock),
          isNotNull(schema.products.priceCents),
        ),
      )
      .orderBy(asc(schema.productWeeklyStock.code))
  ).map((row) => row.code);
  const perDate = (
    await db
      .selectDistinct({ code: schema.productWeeklyStock.code })
      .from(schema.productWeeklyStock)
  ).map((row) => row.code);
  const plain = (
    await db
      .selectDistinct({ code: schema.products.code })
      .from(schema.products)
      .where(
        and(
          eq(schema.products.siteId, 'lihakauppa'),
          eq(schema.products.lang, 'fi'),
          eq(schema.products.isGiftCard, false),
          isNotNull(schema.products.priceCents),
          isNull(schema.products.stock),
          notInArray(schema.products.code, perDate),
        ),
      )
      .orderBy(asc(schema.products.code))
      .limit(1)
  )[0]?.code;
  if (madeToOrder.length < ROUNDS || !plain) throw new Error('the seed lacks the products needed');

  // 100 customers, each from a client address of its own (the per-address limits count apart).
  const buyers: Buyer[] = [];
  const registering = performance.now();
  for (let i = 0; i < BUYERS; i++) {
    const ip = `10.9.${i >> 8}.${i & 255}`;
    const v = fromAddress(new Visitor(app, { host: HOST }), ip);
    await v.get('/');
    await registerWithAddress(v, `bench${i}@example.fi`, 'salasana-joka-on-pitka', POSTAL_CODE);
    buyers.push(v);
  }
  process.stdout.write(
    `${BUYERS} customers registered in ${((performance.now() - registering) / 1000).toFixed(1)} s\n`,
  );

  const add = async (v: Buyer, code: string, quantity: number) => {
    const res = await v.post(`${CART_API}/add?language=fi&code=${code}&quantity=${quantity}`);
    check(res.statusCode === 200, `add ${res.statusCode} ${res.body}`);
  };
  const empty = async (v: Buyer, code: string) => {
    await v.post(`${CART_API}/changequantity?language=fi&code=${code}&quantity=0`);
  };
  const hold = (v: Buyer, date: string, time: string) =>
    v.post(
      `${CHECKOUT_HOLD_API}?language=fi`,
      json({ postalCode: POSTAL_CODE, date, time, useDeliveryAddressForBilling: true }),
    );
  /** Confirms a hold with the totals its checkout answer shows (decision 080). */
  const order = (v: Buyer, held: LightMyRequestResponse) => {
    const { hold: h, cart } = held.json();
    return v.post(
      CHECKOUT_ORDER_API,
      json({
        checkoutId: h.checkoutId,
        PaymentMethodCode: 'FI50',
        total: cart.total,
        usedGiftCardAmount: cart.usedGiftCardAmount,
      }),
    );
  };
  const countOrders = async (where: ReturnType<typeof sql>) =>
    Number(
      (
        (await db.execute(
          sql`select count(*)::int as n from orders where ${where}`,
        )) as unknown as {
          rows: { n: number }[];
        }
      ).rows[0]?.n ?? 0,
    );

  // --- sell-out -------------------------------------------------------------------------------
  const sellOut: Record<string, unknown>[] = [];
  const holdMs: number[] = [];
  const orderMs: number[] = [];
  const refusalMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const code = madeToOrder[round] as string;
    await db
      .insert(schema.productDateStock)
      .values({ siteId: 'lihakauppa', code, date: tuesday, capacity: UNITS })
      .onConflictDoUpdate({
        target: [
          schema.productDateStock.siteId,
          schema.productDateStock.code,
          schema.productDateStock.date,
        ],
        set: { capacity: UNITS, sold: 0 },
      });
    for (const v of buyers) await add(v, code, 1);
    const t0 = performance.now();
    const outcomes = await Promise.all(
      buyers.map(async (v) => {
        const h = await timed(hold(v, tuesday, '08:00-12:00'));
        if (h.res.statusCode !== 200) {
          refusalMs.push(h.ms);
          return h.res;
        }
        holdMs.push(h.ms);
        const o = await timed(order(v, h.res));
        orderMs.push(o.ms);
        return o.res;
      }),
    );
    const wall = Math.round(performance.now() - t0);
    const won = outcomes.filter((r) => r.statusCode === 200).length;
    const soldOut = outcomes.filter(
      (r) => r.statusCode === 409 && r.json().errors?.[code] === 'shop.stock.soldOut',
    ).length;
    const [stock] = await db
      .select()
      .from(schema.productDateStock)
      .where(
        and(eq(schema.productDateStock.code, code), eq(schema.productDateStock.date, tuesday)),
      );
    check(won === UNITS, `sell-out orders ${won}`);
    check(soldOut === BUYERS - UNITS, `sell-out refusals ${soldOut}`);
    check(stock?.sold === UNITS, `sell-out sold ${stock?.sold}`);
    sellOut.push({ round, code, orders: won, soldOut, sold: stock?.sold, wallMs: wall });
    for (const v of buyers) await empty(v, code);
  }

  // --- double submit --------------------------------------------------------------------------
  const doubleSubmit: Record<string, unknown>[] = [];
  const submitMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const v = buyers[round] as Buyer;
    await add(v, plain, 2);
    const h = await hold(v, thursday, '16:00-20:00');
    check(h.statusCode === 200, `double-submit hold ${h.statusCode} ${h.body}`);
    const checkoutId = h.json().hold.checkoutId as string;
    const t0 = performance.now();
    const answers = await Promise.all(Array.from({ length: SUBMITS }, () => timed(order(v, h))));
    const wall = Math.round(performance.now() - t0);
    for (const a of answers) submitMs.push(a.ms);
    const bodies = new Set(answers.map((a) => a.res.body));
    const ok = answers.filter((a) => a.res.statusCode === 200).length;
    const placed = await countOrders(sql`checkout_id = ${checkoutId}`);
    check(
      ok === SUBMITS && bodies.size === 1 && placed === 1,
      `double submit ${ok} ${bodies.size} ${placed}`,
    );
    doubleSubmit.push({
      round,
      answers200: ok,
      distinctAnswers: bodies.size,
      orders: placed,
      wallMs: wall,
    });
  }

  // --- coupon once ----------------------------------------------------------------------------
  const couponOnce: Record<string, unknown>[] = [];
  const couponMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const code = `BENCHONCE${round}`;
    await db
      .insert(schema.coupons)
      .values({ siteId: 'lihakauppa', code, percentOff: 25, maxUses: 1 });
    const fifty = buyers.slice(10, 10 + COUPON_CHECKOUTS);
    const date = round % 2 === 0 ? thursday : nextThursday;
    const holds: LightMyRequestResponse[] = [];
    for (const [i, v] of fifty.entries()) {
      await add(v, plain, 4);
      const entered = await v.post(`${CART_API}/addcouponcode?language=fi&code=${code}`);
      check(entered.statusCode === 200, `coupon ${entered.statusCode} ${entered.body}`);
      const h = await hold(v, date, i % 2 === 0 ? '08:00-12:00' : '16:00-20:00');
      check(h.statusCode === 200, `coupon hold ${h.statusCode} ${h.body}`);
      holds.push(h);
    }
    const t0 = performance.now();
    const answers = await Promise.all(
      fifty.map((v, i) => timed(order(v, holds[i] as LightMyRequestResponse))),
    );
    const wall = Math.round(performance.now() - t0);
    for (const a of answers) couponMs.push(a.ms);
    const won = answers.filter((a) => a.res.statusCode === 200).length;
    const refused = answers.filter(
      (a) =>
        a.res.statusCode === 409 &&
        a.res.json().errors?.couponCodes === 'shop.checkout.couponUsedUp',
    ).length;
    const [coupon] = await db.select().from(schema.coupons).where(eq(schema.coupons.code, code));
    check(won === 1 && refused === COUPON_CHECKOUTS - 1, `coupon ${won} ${refused}`);
    check(coupon?.usedCount === 1, `coupon used ${coupon?.usedCount}`);
    couponOnce.push({ round, orders: won, refused, usedCount: coupon?.usedCount, wallMs: wall });
    // The refused ones let their holds go and empty their carts for the next round.
    for (const v of fifty) {
      await v.delete(CHECKOUT_HOLD_API);
      await empty(v, plain);
      await v.post(`${CART_API}/removecouponcode?language=fi&code=${code}`);
    }
  }

  // --- logins ---------------------------------------------------------------------------------
  // Ten guests, each with one product of its own in a guest cart, log in to one account at once
  // (the account has a saved cart with a line of its own): every login merges its guest cart into
  // the saved one under the customer's row lock, so the saved cart must end with all 11 lines.
  const loginCodes = (
    await db
      .selectDistinct({ code: schema.products.code })
      .from(schema.products)
      .where(
        and(
          eq(schema.products.siteId, 'lihakauppa'),
          eq(schema.products.isGiftCard, false),
          isNotNull(schema.products.priceCents),
          isNull(schema.products.stock),
          notInArray(schema.products.code, perDate),
        ),
      )
      .orderBy(asc(schema.products.code))
      .limit(LOGINS + 1)
  ).map((row) => row.code);
  if (loginCodes.length < LOGINS + 1) throw new Error('the seed lacks the products needed');
  const logins: Record<string, unknown>[] = [];
  const loginMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Accounts 90, 91, 92: the per-account login limit (10 in 15 minutes) allows one round each.
    const account = 90 + round;
    const owner = buyers[account] as Buyer;
    const [savedCode, ...guestCodes] = loginCodes as [string, ...string[]];
    await add(owner, savedCode, 1);
    const guests: Buyer[] = [];
    for (const [i, guestCode] of guestCodes.entries()) {
      const ip = `10.8.${round}.${i}`;
      const g = fromAddress(new Visitor(app, { host: HOST }), ip);
      await g.get('/');
      await add(g, guestCode, 2);
      guests.push(g);
    }
    const t0 = performance.now();
    const answers = await Promise.all(
      guests.map((g) =>
        timed(
          g.post(
            `${ACCOUNT_API}/login`,
            json({ email: `bench${account}@example.fi`, password: 'salasana-joka-on-pitka' }),
          ),
        ),
      ),
    );
    const wall = Math.round(performance.now() - t0);
    for (const a of answers) loginMs.push(a.ms);
    const ok = answers.filter((a) => a.res.statusCode === 200).length;
    const lines = (await db.execute(
      sql`select l.code, l.quantity from cart_line_items l join carts c on c.id = l.cart_id
          join customers u on u.id = c.customer_id
          where lower(u.email) = ${`bench${account}@example.fi`} and c.site_id = 'lihakauppa'`,
    )) as unknown as { rows: { code: string; quantity: number }[] };
    const kept = new Map(lines.rows.map((row) => [row.code, row.quantity]));
    const lost = loginCodes.filter((c) => !kept.has(c));
    check(ok === LOGINS, `logins answered 200: ${ok}`);
    check(lost.length === 0 && kept.size === LOGINS + 1, `lines lost: ${lost.join(',')}`);
    check(
      guestCodes.every((c) => kept.get(c) === 2) && kept.get(savedCode) === 1,
      `merged quantities ${JSON.stringify([...kept])}`,
    );
    logins.push({
      round,
      logins200: ok,
      savedCartLines: kept.size,
      lost: lost.length,
      wallMs: wall,
    });
  }

  // --- SIGKILL --------------------------------------------------------------------------------
  const victim = buyers[99] as Buyer;
  const code = madeToOrder[0] as string;
  await db
    .update(schema.productDateStock)
    .set({ capacity: 20 })
    .where(and(eq(schema.productDateStock.code, code), eq(schema.productDateStock.date, tuesday)));
  await add(victim, code, 3);
  const h = await hold(victim, tuesday, '16:00-20:00');
  check(h.statusCode === 200, `crash hold ${h.statusCode} ${h.body}`);
  const checkoutId = h.json().hold.checkoutId as string;
  const [owner] = await db
    .select({ sessionId: schema.carts.sessionId, customerId: schema.carts.customerId })
    .from(schema.checkoutHolds)
    .innerJoin(schema.carts, eq(schema.carts.id, schema.checkoutHolds.cartId))
    .where(eq(schema.checkoutHolds.id, checkoutId));
  const state = async () => {
    const [dated] = await db
      .select({ sold: schema.productDateStock.sold })
      .from(schema.productDateStock)
      .where(
        and(eq(schema.productDateStock.code, code), eq(schema.productDateStock.date, tuesday)),
      );
    const [slot] = await db
      .select({ sold: schema.deliverySlotBookings.sold })
      .from(schema.deliverySlotBookings)
      .where(
        and(
          eq(schema.deliverySlotBookings.date, tuesday),
          eq(schema.deliverySlotBookings.startTime, '16:00'),
        ),
      );
    return {
      dateSold: dated?.sold,
      slotSold: slot?.sold ?? 0,
      orders: await countOrders(sql`checkout_id = ${checkoutId}`),
    };
  };
  const before = await state();
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(ROOT, 'src/features/shop/orders/placement-crash.test-support.ts'),
      database.url,
      owner?.sessionId ?? '',
      owner?.customerId ?? '',
      checkoutId,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], cwd: ROOT },
  );
  const spawned = performance.now();
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('PAUSED')) resolve();
    });
    child.on('exit', (c) => reject(new Error(`child exited ${c} before pausing: ${out}`)));
  });
  const pausedAfter = Math.round(performance.now() - spawned);
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const killedAt = performance.now();
  child.kill('SIGKILL');
  await exited;
  let freeAfter = 0;
  for (let i = 0; ; i++) {
    const free = (await db.transaction((tx) =>
      tx.execute(
        sql`select id from checkout_holds where id = ${checkoutId} for update skip locked`,
      ),
    )) as unknown as { rows: unknown[] };
    if (free.rows.length === 1) {
      freeAfter = Math.round(performance.now() - killedAt);
      break;
    }
    if (i > 200) throw new Error('the killed transaction still holds its locks');
    await new Promise((r) => setTimeout(r, 10));
  }
  const after = await state();
  check(
    JSON.stringify(after) === JSON.stringify(before),
    `crash state ${JSON.stringify({ before, after })}`,
  );
  const crash = { pausedAfterMs: pausedAfter, locksFreeAfterKillMs: freeAfter, before, after };

  const results = {
    date: new Date().toISOString(),
    machine: machine(),
    commit: gitCommit(),
    rounds: ROUNDS,
    sellOut: {
      rounds: sellOut,
      holdMs: figures(holdMs),
      refusalMs: figures(refusalMs),
      orderMs: figures(orderMs),
    },
    doubleSubmit: { rounds: doubleSubmit, submitMs: figures(submitMs) },
    couponOnce: { rounds: couponOnce, orderMs: figures(couponMs) },
    logins: { rounds: logins, loginMs: figures(loginMs) },
    crash,
  };
  const row = (name: string, f: Figures) =>
    `| ${name} | ${f.count} | ${f.p50} | ${f.p95} | ${f.max} |\n`;
  const walls = (rounds: Record<string, unknown>[]) => rounds.map((r) => r.wallMs).join(', ');
  process.stdout.write(
    `\n| Scenario (${ROUNDS} rounds) | Outcome per round | Wall time per round (ms) |\n| --- | --- | --- |\n` +
      `| sell-out: ${BUYERS} buyers, ${UNITS} units | ${UNITS} orders, ${BUYERS - UNITS} sold-out 409 | ${walls(sellOut)} |\n` +
      `| double submit: ${SUBMITS} × one checkout | 1 order, 1 distinct answer | ${walls(doubleSubmit)} |\n` +
      `| coupon once: ${COUPON_CHECKOUTS} checkouts | 1 discounted order, ${COUPON_CHECKOUTS - 1} refusals | ${walls(couponOnce)} |\n` +
      `| logins: ${LOGINS} guests into one account | ${LOGINS} logins, saved cart ${LOGINS + 1} lines, none lost | ${walls(logins)} |\n` +
      `\n| Request | Count | p50 ms | p95 ms | max ms |\n| --- | ---: | ---: | ---: | ---: |\n` +
      row('sell-out: hold taken', results.sellOut.holdMs) +
      row('sell-out: hold refused (sold out)', results.sellOut.refusalMs) +
      row('sell-out: order placed', results.sellOut.orderMs) +
      row('double submit: order (all 20)', results.doubleSubmit.submitMs) +
      row('coupon once: order (placed or refused)', results.couponOnce.orderMs) +
      row('logins: login with cart merge', results.logins.loginMs) +
      `\nSIGKILL: paused inside the transaction ${pausedAfter} ms after spawn; row locks free ${freeAfter} ms after the kill; before ${JSON.stringify(before)}, after ${JSON.stringify(after)}\n`,
  );
  writeResults('checkout-races', results);
}, [() => bench?.cleanUp(), () => database.drop()]);
