import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createNews,
  createPage,
  createProduct,
  createRecipe,
} from '../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { newsReleases, pages, products, recipes } from '../content/tables.ts';
import { searchDocuments } from './tables.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

async function documentOf(source: string, sourceId: number) {
  const rows = await t.app.db
    .select()
    .from(searchDocuments)
    .where(
      sql`${searchDocuments.source} = ${source} and ${searchDocuments.sourceId} = ${sourceId}`,
    );
  return rows[0];
}

async function matches(sourceId: number, config: string, query: string): Promise<boolean> {
  const result = (await t.app.db.execute(sql`
    select search @@ to_tsquery(${config}::regconfig, ${query}) as hit
    from search_documents where source_id = ${sourceId}
  `)) as unknown as { rows: { hit: boolean }[] };
  return result.rows.some((r) => r.hit);
}

describe('search documents follow their content', () => {
  it('indexes a product on insert, follows an update and goes with a delete', async () => {
    const product = await createProduct(t.app.db, {
      siteId: 'jyvabroiler',
      path: '/tuotteet/broileri/broilerin-fileesuikaleet-600-g',
      kind: 'broiler-product',
      name: 'Broilerin fileesuikaleet 600 g',
      teaser: 'Maustamattomia suikaleita',
      descriptionHtml:
        '<p>Kypsyvät pannulla <strong>kahdeksassa</strong> minuutissa &amp; mehevinä.</p>',
      ingredients: 'broilerinfilee, vesi, suola',
      productGroup: 'Broileri',
      categoryIds: [7],
      facetTagIds: [7, 9],
      isNovelty: true,
    });
    const doc = await documentOf('product', product.id);
    expect(doc).toMatchObject({
      siteId: 'jyvabroiler',
      lang: 'fi',
      type: 'broiler-product',
      title: 'Broilerin fileesuikaleet 600 g',
      contentGroup: 1,
      category: 'Broileri',
      productGroup: 'Broileri',
      facetTagIds: [7, 9],
      categoryIds: [7],
      isNovelty: true,
    });
    expect(doc?.body).toContain('Kypsyvät pannulla kahdeksassa minuutissa & mehevinä.');
    expect(doc?.body).toContain('broilerinfilee');
    // Stemmed Finnish: 'broilerin' is stored as 'broiler', 'suikaleita' reaches 'suikaleet'.
    expect(await matches(product.id, 'finnish', 'broileri')).toBe(true);
    expect(await matches(product.id, 'finnish', 'suikaleet')).toBe(true);

    await t.app.db
      .update(products)
      .set({ name: 'Kanan fileesuikaleet 600 g' })
      .where(eq(products.id, product.id));
    expect((await documentOf('product', product.id))?.title).toBe('Kanan fileesuikaleet 600 g');

    await t.app.db.delete(products).where(eq(products.id, product.id));
    expect(await documentOf('product', product.id)).toBeUndefined();
  });

  it('indexes a recipe with its steps, ingredients and equipment', async () => {
    const recipe = await createRecipe(t.app.db, {
      siteId: 'jyvabroiler',
      path: '/reseptit/kastikkeet/jauhelihakastike',
      title: 'Jauhelihakastike',
      equipment: ['paistinpannu'],
      totalTimeMinutes: 30,
    });
    const doc = await documentOf('recipe', recipe.id);
    expect(doc).toMatchObject({ type: 'recipe', contentGroup: 2, totalTime: 30 });
    expect(doc?.equipment).toEqual(['paistinpannu']);
    expect(doc?.body).toContain('Ruskista jauheliha ja lisää kerma.');
    expect(doc?.body).toContain('ruokakermaa');
    expect(await matches(recipe.id, 'finnish', 'jauhelihakastikkeessa')).toBe(true);
    expect(await matches(recipe.id, 'finnish', 'paistinpannulla')).toBe(true);
  });

  it('indexes news with authors and text type, in the language of the release', async () => {
    const news = await createNews(t.app.db, {
      siteId: 'koncernse',
      lang: 'sv',
      path: '/nyheter/2026/korv',
      title: 'Mer falukorv till butikerna',
      authors: ['Anna Svensson'],
      textType: 'Pressmeddelande',
    });
    const doc = await documentOf('news', news.id);
    expect(doc).toMatchObject({ type: 'news', category: 'Pressmeddelande', lang: 'sv' });
    expect(doc?.authors).toEqual(['Anna Svensson']);
    expect(await matches(news.id, 'swedish', 'falukorvar')).toBe(true);
    await t.app.db.delete(newsReleases).where(eq(newsReleases.id, news.id));
    expect(await documentOf('news', news.id)).toBeUndefined();
  });

  it('indexes pages with their rich text but leaves out tool pages', async () => {
    const content = await createPage(t.app.db, {
      siteId: 'sibylla',
      path: '/vinkit/grillaus',
      title: 'Grillausopas',
      blocks: [{ type: 'rich-text', html: '<p>Makkarat grillataan <em>keskilämmöllä</em>.</p>' }],
    });
    const search = await createPage(t.app.db, {
      siteId: 'sibylla',
      path: '/haku',
      type: 'search',
      title: 'Haku',
    });
    expect((await documentOf('page', content.id))?.body).toBe(
      'Makkarat grillataan keskilämmöllä .',
    );
    expect(await documentOf('page', search.id)).toBeUndefined();

    // A page that becomes a tool page leaves the index; one that stops being one comes back.
    await t.app.db.update(pages).set({ type: 'cart' }).where(eq(pages.id, content.id));
    expect(await documentOf('page', content.id)).toBeUndefined();
    await t.app.db.update(pages).set({ type: 'content' }).where(eq(pages.id, search.id));
    expect(await documentOf('page', search.id)).toBeDefined();
  });

  it('writes many rows in one statement as one set', async () => {
    const before = await t.app.db.$count(searchDocuments);
    await t.app.db.insert(recipes).values(
      Array.from({ length: 50 }, (_, i) => ({
        siteId: 'delise',
        lang: 'sv',
        path: `/recept/bulk-${i}`,
        title: `Köttbullar ${i}`,
        yield: 4,
        totalTimeMinutes: 20,
        translationKey: `bulk-${i}`,
      })),
    );
    expect(await t.app.db.$count(searchDocuments)).toBe(before + 50);
    await t.app.db.delete(recipes).where(sql`${recipes.path} like '/recept/bulk-%'`);
    expect(await t.app.db.$count(searchDocuments)).toBe(before);
  });
});
