import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { Database } from '../src/db/client.ts';
import { products } from '../src/features/content/tables.ts';
import { giftCardCodeHash } from '../src/features/shop/orders/gift-cards.server.ts';
import {
  coupons,
  deliveryAreaPostalCodes,
  deliveryAreas,
  deliveryCalendarSlots,
  deliveryClosedDates,
  giftCards,
  productDateStock,
  productWeeklyStock,
} from '../src/features/shop/tables.ts';

/**
 * The shop's demo data beside its products (decisions 019, 027): coupons, gift cards, delivery
 * areas with their postal codes and weekly calendars, holidays, and weekly per-date stock for
 * some products. Fixed values only, so the seed stays deterministic; dated rows are weekdays,
 * not calendar dates, so the calendar stays current whenever the seed runs. Listed in README.md
 * ("Shop demo data").
 */

const SITE = 'lihakauppa';

export const demoCoupons: (typeof coupons.$inferInsert)[] = [
  { siteId: SITE, code: 'TERVETULOA10', description: '10 % koko tilauksesta', percentOff: 10 },
  {
    siteId: SITE,
    code: 'GRILLI5',
    description: '5 € pois vähintään 40 € tilauksesta',
    amountOffCents: 500,
    minOrderCents: 4000,
  },
  {
    siteId: SITE,
    code: 'PIHVI20',
    description: '20 % naudanlihasta, ei yhdessä muiden koodien kanssa',
    percentOff: 20,
    productGroup: 'Naudanliha',
    combinable: false,
  },
  {
    siteId: SITE,
    code: 'KERTA15',
    description: '15 % kerran asiakasta kohden, 100 käyttöä',
    percentOff: 15,
    maxUses: 100,
    maxUsesPerCustomer: 1,
  },
  {
    siteId: SITE,
    code: 'JOULU2025',
    description: 'Vanhentunut joulukoodi',
    percentOff: 15,
    validFrom: new Date('2025-12-01T00:00:00+02:00'),
    validTo: new Date('2025-12-24T00:00:00+02:00'),
  },
];

/**
 * Demo gift cards (decision 027): only the SHA-256 of a code is stored, so the codes are listed
 * here and in README.md. Existing cards are left as they are (orders refer to them).
 */
export const demoGiftCards = [
  { code: 'LAHJA-DEMO-5000', cents: 5000 },
  { code: 'LAHJA-DEMO-2000', cents: 2000 },
];

/** Areas and their postal codes: Helsinki region, Tampere, Turku. */
const areas = [
  {
    name: 'Pääkaupunkiseutu',
    codes: [
      '00100',
      '00120',
      '00130',
      '00140',
      '00150',
      '00160',
      '00170',
      '00180',
      '00200',
      '00250',
      '00500',
      '00530',
      '00550',
      '02100',
      '02150',
      '01300',
    ],
    weekdays: [2, 4],
  },
  { name: 'Tampere', codes: ['33100', '33200', '33500', '33540', '33720'], weekdays: [3] },
  { name: 'Turku', codes: ['20100', '20200', '20500', '20540', '20700'], weekdays: [5] },
];

/** Finnish public holidays that fall on delivery days in 2026 and 2027. */
const holidays = [
  '2026-01-06',
  '2026-04-03',
  '2026-05-14',
  '2026-12-24',
  '2026-12-25',
  '2027-01-06',
];

export async function seedShop(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(productDateStock).where(eq(productDateStock.siteId, SITE));
    await tx.delete(productWeeklyStock).where(eq(productWeeklyStock.siteId, SITE));
    await tx.delete(deliveryAreas).where(eq(deliveryAreas.siteId, SITE));
    await tx.delete(coupons).where(eq(coupons.siteId, SITE));
    await tx.insert(coupons).values(demoCoupons);
    await tx
      .insert(giftCards)
      .values(
        demoGiftCards.map((card) => ({
          siteId: SITE,
          codeHash: giftCardCodeHash(card.code),
          initialCents: card.cents,
          balanceCents: card.cents,
        })),
      )
      .onConflictDoNothing();
    for (const area of areas) {
      const [row] = await tx
        .insert(deliveryAreas)
        .values({ siteId: SITE, name: area.name })
        .returning({ id: deliveryAreas.id });
      if (!row) throw new Error('no area row');
      await tx
        .insert(deliveryAreaPostalCodes)
        .values(area.codes.map((postalCode) => ({ siteId: SITE, postalCode, areaId: row.id })));
      await tx.insert(deliveryCalendarSlots).values(
        area.weekdays.flatMap((weekday) => [
          { areaId: row.id, weekday, startTime: '08:00', endTime: '12:00', capacity: 40 },
          { areaId: row.id, weekday, startTime: '16:00', endTime: '20:00', capacity: 40 },
        ]),
      );
      await tx
        .insert(deliveryClosedDates)
        .values(holidays.map((date) => ({ areaId: row.id, date })));
    }
    // Every fourth shop product is made to order: 12 a week on Tuesdays and Fridays only.
    const codes = await tx
      .selectDistinct({ code: products.code })
      .from(products)
      .where(
        and(
          eq(products.siteId, SITE),
          isNotNull(products.priceCents),
          eq(products.isGiftCard, false),
        ),
      )
      .orderBy(asc(products.code));
    // And every fourth other one on Thursdays only, so in the Helsinki region (Tuesdays and
    // Thursdays) one of each has dates of its own but none in common with the other.
    const madeToOrder = codes.filter((_, i) => i % 4 === 1).map((row) => row.code);
    const thursdaysOnly = codes.filter((_, i) => i % 4 === 3).map((row) => row.code);
    const weekly = [
      ...madeToOrder.flatMap((code) => [
        { siteId: SITE, code, weekday: 2, quantity: 12 },
        { siteId: SITE, code, weekday: 5, quantity: 12 },
      ]),
      ...thursdaysOnly.map((code) => ({ siteId: SITE, code, weekday: 4, quantity: 12 })),
    ];
    if (weekly.length > 0) await tx.insert(productWeeklyStock).values(weekly);
  });
}
