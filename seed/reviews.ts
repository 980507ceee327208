import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Database } from '../src/db/client.ts';
import { products } from '../src/features/content/tables.ts';
import { productReviews } from '../src/features/shop/tables.ts';

/**
 * Demo reviews of some shop products (spec §3 "Review"): written by nicknames, not by accounts,
 * so a customer who registers can still review every product. Fixed texts, ratings and times
 * only, so the seed stays deterministic; a new run replaces the demo reviews and keeps the
 * customers' own. The first product has more than a page of them (9), and some texts are over
 * 170 characters, so 'load more' and 'continue reading' show. Listed in README.md ("Shop demo
 * data").
 */

const SITE = 'lihakauppa';

const names = [
  'Maija',
  'Grillimestari',
  'Pekka K.',
  'Liisa',
  'Herkkusuu',
  'Arttu',
  'Sanna',
  'Jussi',
];

const texts = [
  'Todella mehevää ja maukasta. Tilaan varmasti uudestaan.',
  'Hyvä tuote, mutta toimitus olisi voinut olla aikaisemmin aamulla.',
  'Paistoin pannulla keskilämmölle, ja lopputulos oli mureaa ja täyteläistä. Koko perhe kehui, ja lapsetkin söivät lautasensa tyhjiksi. Seuraavalla kerralla kokeilen grillissä, kun kesä taas tulee ja sää on sopiva.',
  'Ihan ok, ei mitään erikoista.',
  'Laatu on tasaista ja pakkaus siisti. Liha oli hyvin leikattu, ja sitä oli juuri sopiva määrä neljälle hengelle. Hinta-laatusuhde on mielestäni kohdallaan, varsinkin tarjoushintaan ostettuna.',
  'Erinomainen! Paras koskaan maistamani.',
  'Maku oli hyvä, mutta kypsennysohjeet pakkauksessa olisivat voineet olla selkeämmät.',
  'Sopii hyvin arkiruoaksi.',
  'Tilasin juhliin, ja kaikki vieraat kysyivät, mistä liha on hankittu. Toimitus tuli sovittuna aikana, kylmäketju oli kunnossa ja kuljettaja oli ystävällinen. Suosittelen lämpimästi kaikille.',
  'Hieman liian suolaista minun makuuni.',
];

const ratings = [5, 4, 5, 3, 4, 5, 3, 4, 5, 2];

/** How many demo reviews the i-th reviewed product gets: 14 (over a page), then fewer. */
const countFor = (i: number) => (i === 0 ? 14 : ([5, 3, 1, 2][i % 4] ?? 0));

/** Noon on 1 June 2026 (Helsinki), and a review every 29 hours before it. */
const NEWEST = Date.parse('2026-06-01T09:00:00Z');
const STEP_MS = 29 * 3_600_000;

export async function seedReviews(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .delete(productReviews)
      .where(and(eq(productReviews.siteId, SITE), isNull(productReviews.customerId)));
    // The Finnish version of every third priced product that is not a gift card, up to twelve.
    const shop = await tx
      .select({ id: products.id, code: products.code })
      .from(products)
      .where(
        and(
          eq(products.siteId, SITE),
          eq(products.lang, 'fi'),
          isNotNull(products.priceCents),
          eq(products.isGiftCard, false),
        ),
      )
      .orderBy(asc(products.code), asc(products.id));
    const reviewed = shop.filter((_, i) => i % 3 === 0).slice(0, 12);
    let n = 0;
    const rows = reviewed.flatMap((product, i) =>
      Array.from({ length: countFor(i) }, (_, j) => {
        n += 1;
        return {
          siteId: SITE,
          productId: product.id,
          code: product.code,
          customerId: null,
          language: 'fi',
          userName: names[(i + j) % names.length] ?? 'Asiakas',
          rating: ratings[(i * 3 + j) % ratings.length] ?? 5,
          text: texts[(i + j * 3) % texts.length] ?? '',
          isVerified: (i + j) % 3 !== 2,
          // Demo reviews are shown: as if a moderator had approved them (decision 148).
          state: 'published' as const,
          createdAt: new Date(NEWEST - n * STEP_MS),
        };
      }),
    );
    if (rows.length > 0) await tx.insert(productReviews).values(rows);
  });
}
