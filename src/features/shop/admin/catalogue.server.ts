import { and, asc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Transaction } from '../../../db/client.ts';
import { containing } from '../../../db/patterns.ts';
import { Conflict, NotFound } from '../../../server/errors.ts';
import { SHOP_SITE_ID } from '../../../sites/shop.ts';
import { products } from '../../content/index.server.ts';
import { actorOf, recordAudit } from '../../staff/index.server.ts';
import { vatRatesOn } from '../cart-pricing.server.ts';
import { helsinkiDate } from '../dates.ts';
import { productDateStock, productWeeklyStock } from '../tables.ts';
import type { CatalogueList, CatalogueQuery } from './catalogue-schemas.ts';

/**
 * The shop's catalogue as shop staff change it (decision 141). A product's code may have a row
 * per language; a change is made to all of them at once, on their row locks, taken in id order
 * as the checkout's ledger takes them, and only when they still hold what the staff member saw
 * (409 with the value now otherwise). Lowering a date's capacity below what is sold is refused
 * with the count: orders placed keep their goods. Each change writes its audit row.
 */

const PAGE_SIZE = 50;
const shopRows = eq(products.siteId, SHOP_SITE_ID);
const shopProducts = and(shopRows, eq(products.kind, 'shop-product'));

export async function listCatalogue(
  request: FastifyRequest,
  query: CatalogueQuery,
): Promise<CatalogueList> {
  const db = request.server.db;
  const q = query.q?.trim();
  const where = and(
    shopProducts,
    q
      ? sql`(${products.name} ilike ${containing(q)} or ${products.code} ilike ${containing(q)})`
      : undefined,
  );
  const [total] = await db
    .select({ n: sql<number>`count(distinct ${products.code})::int` })
    .from(products)
    .where(where);
  const rows = await db
    .selectDistinctOn([products.code])
    .from(products)
    .where(where)
    .orderBy(asc(products.code), asc(products.id))
    .limit(PAGE_SIZE)
    .offset(query.offset);
  const codes = rows.map((row) => row.code);
  const today = helsinkiDate(new Date());
  const weekly =
    codes.length === 0
      ? []
      : await db
          .select()
          .from(productWeeklyStock)
          .where(
            and(
              eq(productWeeklyStock.siteId, SHOP_SITE_ID),
              inArray(productWeeklyStock.code, codes),
            ),
          );
  const dates =
    codes.length === 0
      ? []
      : await db
          .select()
          .from(productDateStock)
          .where(
            and(
              eq(productDateStock.siteId, SHOP_SITE_ID),
              inArray(productDateStock.code, codes),
              gte(productDateStock.date, today),
            ),
          )
          .orderBy(asc(productDateStock.date));
  const rateOf = await vatRatesOn(db, today);
  return {
    total: Number(total?.n ?? 0),
    products: rows.map((row) => {
      let vatBasisPoints: number | null = null;
      try {
        vatBasisPoints = rateOf(row.taxClass, row.isGiftCard);
      } catch {
        vatBasisPoints = null;
      }
      return {
        code: row.code,
        name: row.name,
        siteId: row.siteId,
        priceCents: row.priceCents,
        taxClass: row.taxClass,
        vatBasisPoints,
        stock: row.stock,
        isGiftCard: row.isGiftCard,
        weekly: [1, 2, 3, 4, 5, 6, 7].map(
          (day) => weekly.find((w) => w.code === row.code && w.weekday === day)?.quantity ?? null,
        ),
        dates: dates
          .filter((d) => d.code === row.code)
          .map(({ date, capacity, sold }) => ({ date, capacity, sold })),
      };
    }),
  };
}

/** The code's rows, locked in id order; 404 when the shop has none. */
async function lockedRows(tx: Transaction, code: string) {
  const rows = await tx
    .select()
    .from(products)
    .where(and(shopRows, eq(products.code, code)))
    .orderBy(asc(products.id))
    .for('update');
  const [first] = rows;
  if (!first) throw new NotFound(`The shop has no product ${code}.`);
  return { rows, first };
}

const subject = (code: string) => ({
  subjectType: 'product',
  subjectId: code,
  siteId: SHOP_SITE_ID,
});

/** Sets the stock (null: unlimited) if it is still what the staff member saw. */
export async function setStock(
  request: FastifyRequest,
  code: string,
  body: { stock: number | null; expected: number | null },
): Promise<void> {
  await request.server.db.transaction(async (tx) => {
    const { first } = await lockedRows(tx, code);
    if (first.stock !== body.expected) {
      throw new Conflict(
        `The stock is ${first.stock ?? 'unlimited'} now, not ${body.expected ?? 'unlimited'}: someone or an order changed it. Look again.`,
      );
    }
    if (first.stock === body.stock) return;
    await tx
      .update(products)
      .set({ stock: body.stock, updatedAt: sql`now()` })
      .where(and(shopRows, eq(products.code, code)));
    await recordAudit(tx, actorOf(request), {
      action: 'catalogue.stock',
      ...subject(code),
      changes: { stock: { before: first.stock, after: body.stock } },
    });
  });
}

/**
 * Sets a date's own stock. The date's row is the lock the checkout takes (decision 027); a
 * capacity below what is sold on the date is refused with that count.
 */
export async function setDateStock(
  request: FastifyRequest,
  code: string,
  body: { date: string; capacity: number },
): Promise<void> {
  await request.server.db.transaction(async (tx) => {
    await lockedRows(tx, code);
    await tx
      .insert(productDateStock)
      .values({ siteId: SHOP_SITE_ID, code, date: body.date, capacity: body.capacity })
      .onConflictDoNothing();
    const [row] = await tx
      .select()
      .from(productDateStock)
      .where(
        and(
          eq(productDateStock.siteId, SHOP_SITE_ID),
          eq(productDateStock.code, code),
          eq(productDateStock.date, body.date),
        ),
      )
      .for('update');
    if (!row) throw new Error('date stock row missing');
    if (row.sold > body.capacity) {
      throw new Conflict(
        `${row.sold} are already sold on ${body.date}: the capacity cannot be lower than that.`,
      );
    }
    await tx
      .update(productDateStock)
      .set({ capacity: body.capacity })
      .where(
        and(
          eq(productDateStock.siteId, SHOP_SITE_ID),
          eq(productDateStock.code, code),
          eq(productDateStock.date, body.date),
        ),
      );
    await recordAudit(tx, actorOf(request), {
      action: 'catalogue.date-stock',
      ...subject(code),
      changes: { [body.date]: { before: row.capacity, after: body.capacity } },
    });
  });
}

/** Replaces the weekly quantities of a product sold per delivery date. */
export async function setWeekly(
  request: FastifyRequest,
  code: string,
  quantities: (number | null)[],
): Promise<void> {
  await request.server.db.transaction(async (tx) => {
    await lockedRows(tx, code);
    const ofCode = and(
      eq(productWeeklyStock.siteId, SHOP_SITE_ID),
      eq(productWeeklyStock.code, code),
    );
    const before = await tx.select().from(productWeeklyStock).where(ofCode);
    await tx.delete(productWeeklyStock).where(ofCode);
    const rows = quantities.flatMap((quantity, i) =>
      quantity === null ? [] : [{ siteId: SHOP_SITE_ID, code, weekday: i + 1, quantity }],
    );
    if (rows.length > 0) await tx.insert(productWeeklyStock).values(rows);
    await recordAudit(tx, actorOf(request), {
      action: 'catalogue.weekly',
      ...subject(code),
      changes: {
        weekly: {
          before: [1, 2, 3, 4, 5, 6, 7].map(
            (day) => before.find((w) => w.weekday === day)?.quantity ?? null,
          ),
          after: quantities,
        },
      },
    });
  });
}

/**
 * Sets the price and VAT class if they are still what the staff member saw. Orders keep the
 * prices they were placed with; carts price with the new one.
 */
export async function setPrice(
  request: FastifyRequest,
  code: string,
  body: {
    priceCents: number;
    taxClass: string;
    expected: { priceCents: number | null; taxClass: string };
  },
): Promise<void> {
  await request.server.db.transaction(async (tx) => {
    const { first } = await lockedRows(tx, code);
    if (
      first.priceCents !== body.expected.priceCents ||
      first.taxClass !== body.expected.taxClass
    ) {
      throw new Conflict('Someone changed the price or VAT class since it was shown. Look again.');
    }
    await tx
      .update(products)
      .set({ priceCents: body.priceCents, taxClass: body.taxClass, updatedAt: sql`now()` })
      .where(and(shopRows, eq(products.code, code)));
    await recordAudit(tx, actorOf(request), {
      action: 'catalogue.price',
      ...subject(code),
      changes: {
        priceCents: { before: first.priceCents, after: body.priceCents },
        taxClass: { before: first.taxClass, after: body.taxClass },
      },
    });
  });
}
