import type { Database } from '../../src/db/client.ts';
import { pageBlocks } from '../../src/features/content/blocks.ts';
import type { RecipeDocument } from '../../src/features/content/publishing/schemas.ts';
import { newsReleases, pages, products, recipes } from '../../src/features/content/tables.ts';
import { images } from '../../src/images/tables.ts';

/** Test data in one place: each factory inserts a valid row, with overrides for what a test cares about. */
let counter = 0;
const next = () => ++counter;

export async function createImage(
  db: Database,
  overrides: Partial<typeof images.$inferInsert> = {},
) {
  const n = next();
  const [row] = await db
    .insert(images)
    .values({
      storageKey: `images/test/${n}.jpg`,
      mime: 'image/jpeg',
      width: 1200,
      height: 900,
      alt: { fi: `Kuva ${n}`, sv: `Bild ${n}`, en: `Image ${n}` },
      ...overrides,
    })
    .returning();
  if (!row) throw new Error('no image row');
  return row;
}

export async function createPage(
  db: Database,
  overrides: Partial<typeof pages.$inferInsert> & { siteId: string; path: string },
) {
  const n = next();
  const blocks = pageBlocks.parse(overrides.blocks ?? []);
  const [row] = await db
    .insert(pages)
    .values({
      lang: 'fi',
      type: 'content',
      title: `Sivu ${n}`,
      translationKey: `page-${n}`,
      ...overrides,
      blocks,
    })
    .returning();
  if (!row) throw new Error('no page row');
  return row;
}

type PageFields = Omit<Partial<typeof pages.$inferInsert>, 'siteId' | 'parentId'> & {
  path: string;
};

/**
 * A site's home page (`/`, titled `title`) in a language with `children` under it, the pages the
 * public routes of a test visit (a listing, the newsroom…); answers the home page and the children
 * in their order.
 */
export async function createSiteWith(
  db: Database,
  site: { siteId: string; lang?: string; title: string },
  children: PageFields[] = [],
) {
  const { siteId, lang = 'fi', title } = site;
  const home = await createPage(db, { siteId, lang, path: '/', type: 'home', title });
  const made = [];
  for (const child of children)
    made.push(await createPage(db, { lang, ...child, siteId, parentId: home.id }));
  return { home, children: made };
}

/** Jyväbroileri's home page and its recipe listing `/reseptit`, as the recipe tests need. */
export function createRecipeSite(db: Database) {
  return createSiteWith(db, { siteId: 'jyvabroiler', title: 'Jyväbroiler' }, [
    { path: '/reseptit', type: 'recipe-list', title: 'Reseptit' },
  ]);
}

/** The corporate site's home page and its newsroom `/uutiset`, as the news release tests need. */
export function createNewsroomSite(db: Database) {
  return createSiteWith(db, { siteId: 'konsernifi', title: 'Konserni' }, [
    { path: '/uutiset', type: 'newsroom', title: 'Uutiset' },
  ]);
}

export async function createProduct(
  db: Database,
  overrides: Partial<typeof products.$inferInsert> & { siteId: string; path: string },
) {
  const n = next();
  const [row] = await db
    .insert(products)
    .values({
      lang: 'fi',
      kind: 'retail-product',
      code: String(100000 + n),
      gtin: '6410405082657',
      name: `Tuote ${n}`,
      descriptionHtml: '<p>Mehevä tuote.</p>',
      ingredients: 'sianliha, vesi, suola',
      nutrition: {
        per: '100 g',
        energyKj: 900,
        energyKcal: 215,
        fat: 17,
        saturatedFat: 6.5,
        carbohydrate: 2,
        sugars: 0.5,
        protein: 14,
        salt: 1.8,
      },
      translationKey: `product-${n}`,
      ...overrides,
    })
    .returning();
  if (!row) throw new Error('no product row');
  return row;
}

/** Products of the meat shop (`lihakauppa`), each with its path and whatever else it names. */
export async function createShopProducts(
  db: Database,
  list: readonly (Partial<typeof products.$inferInsert> & { path: string })[],
) {
  const rows = [];
  for (const product of list) {
    rows.push(await createProduct(db, { siteId: 'lihakauppa', kind: 'shop-product', ...product }));
  }
  return rows;
}

export async function createRecipe(
  db: Database,
  overrides: Partial<typeof recipes.$inferInsert> & { siteId: string; path: string },
) {
  const n = next();
  const [row] = await db
    .insert(recipes)
    .values({
      lang: 'fi',
      title: `Resepti ${n}`,
      yield: 4,
      totalTimeMinutes: 75,
      steps: [
        {
          heading: 'Kastike',
          instructions: 'Ruskista jauheliha ja lisää kerma.',
          ingredients: [
            { name: 'jauhelihaa', amount: 400, unit: 'g', url: '/tuotteet/jauheliha' },
            { name: 'ruokakermaa', amount: 2, unit: 'dl' },
          ],
        },
      ],
      translationKey: `recipe-${n}`,
      ...overrides,
    })
    .returning();
  if (!row) throw new Error('no recipe row');
  return row;
}

export async function createNews(
  db: Database,
  overrides: Partial<typeof newsReleases.$inferInsert> & { siteId: string; path: string },
) {
  const n = next();
  const [row] = await db
    .insert(newsReleases)
    .values({
      lang: 'fi',
      title: `Tiedote ${n}`,
      bodyHtml: '<p>Tiedotteen teksti.</p>',
      publishDate: new Date('2026-05-04T09:00:00Z'),
      kind: 'cision',
      textType: 'Lehdistötiedote',
      authors: ['Maija Meikäläinen'],
      translationKey: `news-${n}`,
      ...overrides,
    })
    .returning();
  if (!row) throw new Error('no news row');
  return row;
}

/** A recipe document as the editor sends it: one step of three ingredients, no tags. */
export function recipeDocument(
  fields: Pick<RecipeDocument, 'path' | 'title' | 'imageId'> & Partial<RecipeDocument>,
): RecipeDocument {
  return {
    teaser: '',
    yield: 4,
    portionSize: null,
    portionUnit: null,
    totalYieldKg: null,
    totalTimeMinutes: 30,
    steps: [
      {
        heading: '',
        instructions: 'Paista ja tarjoile.',
        ingredients: [
          { name: 'broileria', amount: 400, unit: 'g' },
          { name: 'riisiä', amount: 3, unit: 'dl' },
          { name: 'soijaa', amount: 1, unit: 'rkl' },
        ],
      },
    ],
    nutrients: [],
    facetTagIds: [],
    categoryIds: [],
    equipment: [],
    ...fields,
  };
}
