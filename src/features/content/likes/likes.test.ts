import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createNews,
  createPage,
  createProduct,
  createRecipe,
} from '../../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { arrive, fromAddress, Visitor } from '../../../../tests/helpers/visitor.ts';
import { searchDocuments } from '../../search/tables.ts';
import { contentLikes, pages, recipes } from '../tables.ts';
import { LIKES_PER_ADDRESS_AND_DAY } from './likes.server.ts';
import { LIKE_API, likeAnswerSchema } from './schemas.ts';

/**
 * `POST /api/contentlikecount/{contentId}`: one like per visitor and content, whatever arrives.
 * The parallel test means something only on PostgreSQL (PGlite runs one statement at a time);
 * run it with DATABASE_URL set.
 */
const HOST = 'jyvabroiler.localhost';
let t: TestApp;
let recipeId: number;
let otherSiteRecipeId: number;

async function addRecipe(siteId: string, path: string, likeCount: number): Promise<number> {
  const [row] = await t.app.db
    .insert(recipes)
    .values({
      siteId,
      lang: 'fi',
      path,
      title: `Resepti ${path}`,
      yield: 4,
      totalTimeMinutes: 30,
      likeCount,
      translationKey: `likes-test${path}`,
    })
    .returning({ id: recipes.id });
  if (!row) throw new Error('no recipe');
  return row.id;
}

const likeCountOf = async (id: number) =>
  (await t.app.db.select().from(recipes).where(eq(recipes.id, id)))[0]?.likeCount;

const visitor = () => arrive(t.app, '/', { host: HOST });

beforeAll(async () => {
  t = await createTestApp();
  recipeId = await addRecipe('jyvabroiler', '/reseptit/tykatty', 7);
  otherSiteRecipeId = await addRecipe('sibylla', '/reseptit/muualla', 3);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('likes', () => {
  it('counts a visitor once across replays; another visitor counts again', async () => {
    const id = await addRecipe('jyvabroiler', '/reseptit/kerran', 7);
    const v = await visitor();
    const first = await v.post(`${LIKE_API}/recipe-${id}`);
    expect(first.statusCode, first.body).toBe(200);
    expect(likeAnswerSchema.parse(first.json())).toEqual({
      contentId: `recipe-${id}`,
      likeCount: 8,
      counted: true,
    });
    for (let i = 0; i < 3; i++) {
      const again = await v.post(`${LIKE_API}/recipe-${id}`);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ likeCount: 8, counted: false });
    }
    // The same request replayed byte for byte: the same visitor.
    const replay = await t.app.inject({
      method: 'POST',
      url: `${LIKE_API}/recipe-${id}`,
      headers: { host: HOST, cookie: v.cookie, 'x-xsrf-token': v.xsrfToken ?? '' },
    });
    expect(replay.json()).toMatchObject({ likeCount: 8, counted: false });
    const other = await visitor();
    expect((await other.post(`${LIKE_API}/recipe-${id}`)).json()).toMatchObject({
      likeCount: 9,
      counted: true,
    });
    expect(await likeCountOf(id)).toBe(9);
    // The search document shows the stored count too (the search triggers copy it).
    const [doc] = await t.app.db
      .select({ likeCount: searchDocuments.likeCount })
      .from(searchDocuments)
      .where(eq(searchDocuments.sourceId, id));
    expect(doc?.likeCount).toBe(9);
  });

  it('refuses a post without the anti-forgery token (a script without a session)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${LIKE_API}/recipe-${recipeId}`,
      headers: { host: HOST },
    });
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(await likeCountOf(recipeId)).toBe(7);
  });

  it('answers 404 problem+json for an unknown id or another site’s content, storing nothing', async () => {
    const v = await visitor();
    for (const contentId of ['recipe-999999', `recipe-${otherSiteRecipeId}`, 'product-999999']) {
      const res = await v.post(`${LIKE_API}/${contentId}`);
      expect(res.statusCode, contentId).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    }
    expect(await likeCountOf(otherSiteRecipeId)).toBe(3);
    const rows = await t.app.db
      .select()
      .from(contentLikes)
      .where(eq(contentLikes.recipeId, otherSiteRecipeId));
    expect(rows).toEqual([]);
  });

  it('takes the content id a search hit or a product card gives (decision 105)', async () => {
    const recipe = await createRecipe(t.app.db, {
      siteId: 'jyvabroiler',
      path: '/reseptit/tykkayskastike',
      title: 'Tykkäyskastike',
      likeCount: 4,
    });
    const found = await t.app.inject({
      url: '/api/search/recipes?q=tykk%C3%A4yskastike',
      headers: { host: HOST },
    });
    const hit = found.json().hits[0];
    expect(hit).toMatchObject({ title: 'Tykkäyskastike', contentId: `recipe-${recipe.id}` });
    const v = await visitor();
    const liked = await v.post(`${LIKE_API}/${hit.contentId}`);
    expect(liked.statusCode, liked.body).toBe(200);
    expect(liked.json()).toEqual({ contentId: hit.contentId, likeCount: 5, counted: true });

    const product = await createProduct(t.app.db, {
      siteId: 'lihakauppa',
      kind: 'shop-product',
      path: '/tuotteet/tykatty-makkara',
      name: 'Tykkäysmakkara',
    });
    const shop = await t.app.inject({
      url: '/api/search/lihakauppa-products?q=tykk%C3%A4ysmakkara',
      headers: { host: 'lihakauppa.localhost' },
    });
    const shopHit = shop.json().hits[0];
    expect(shopHit.contentId).toBe(`product-${product.id}`);
    expect(shopHit.product).toMatchObject({ productId: product.id, contentId: shopHit.contentId });
    const buyer = await arrive(t.app, '/', { host: 'lihakauppa.localhost' });
    const card = await buyer.post(`${LIKE_API}/${shopHit.product.contentId}`);
    expect(card.statusCode, card.body).toBe(200);
    expect(card.json()).toMatchObject({ contentId: `product-${product.id}`, counted: true });
  });

  it('answers 404 for a page or a news release a search finds: they take no likes', async () => {
    const page = await createPage(t.app.db, {
      siteId: 'konsernifi',
      path: '/tykkaamaton-sivu',
      title: 'Tykkäämätön sivu',
    });
    const news = await createNews(t.app.db, {
      siteId: 'konsernifi',
      path: '/uutiset/tykkaamaton-tiedote',
      title: 'Tykkäämätön tiedote',
    });
    const found = await t.app.inject({
      url: '/api/search/content/?q=tykk%C3%A4%C3%A4m%C3%A4t%C3%B6n',
      headers: { host: 'konsernifi.localhost' },
    });
    const ids = found.json().hits.map((hit: { contentId: string }) => hit.contentId);
    expect(ids).toEqual(expect.arrayContaining([`page-${page.id}`, `news-${news.id}`]));
    const v = await arrive(t.app, '/', { host: 'konsernifi.localhost' });
    for (const contentId of ids) {
      const res = await v.post(`${LIKE_API}/${contentId}`);
      expect(res.statusCode, contentId).toBe(404);
      expect(res.json().detail).toBe('Pages and news releases take no likes.');
    }
  });

  it('answers 400 naming contentId for a malformed id', async () => {
    const v = await visitor();
    for (const contentId of [
      '12',
      'article-3',
      'recipe-0',
      'recipe-2147483648',
      'recipe-99999999999',
      'recipe-1x',
    ]) {
      const res = await v.post(`${LIKE_API}/${contentId}`);
      expect(res.statusCode, contentId).toBe(400);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(Object.keys(res.json().errors ?? {})).toContain('contentId');
    }
  });

  it(`counts at most ${LIKES_PER_ADDRESS_AND_DAY} new visitors of one address for one content a day`, async () => {
    const id = await addRecipe('jyvabroiler', '/reseptit/skripti', 0);
    const answers: boolean[] = [];
    for (let i = 0; i < LIKES_PER_ADDRESS_AND_DAY + 3; i++) {
      // A script that starts a new session for every like, all from one address.
      const v = fromAddress(new Visitor(t.app, { host: HOST }), '203.0.113.9');
      await v.get('/');
      const res = await v.post(`${LIKE_API}/recipe-${id}`);
      expect(res.statusCode).toBe(200);
      answers.push(res.json().counted);
    }
    expect(answers.filter(Boolean)).toHaveLength(LIKES_PER_ADDRESS_AND_DAY);
    expect(await likeCountOf(id)).toBe(LIKES_PER_ADDRESS_AND_DAY);
  });

  it('counts 20 parallel posts of one visitor once', async () => {
    const id = await addRecipe('jyvabroiler', '/reseptit/rinnakkain', 5);
    const v = fromAddress(await visitor(), '198.51.100.20');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => v.post(`${LIKE_API}/recipe-${id}`)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    expect(answers.filter((a) => a.json().counted)).toHaveLength(1);
    expect(answers.map((a) => a.json().likeCount)).toContain(6);
    expect(await likeCountOf(id)).toBe(6);
    const rows = await t.app.db.select().from(contentLikes).where(eq(contentLikes.recipeId, id));
    expect(rows).toHaveLength(1);
  });

  it('the recipe page and a card grid show the stored count', async () => {
    const id = await addRecipe('jyvabroiler', '/reseptit/naytetty', 41);
    await t.app.db.insert(pages).values({
      siteId: 'jyvabroiler',
      lang: 'fi',
      path: '/tykatyt',
      type: 'content',
      title: 'Tykätyt',
      translationKey: 'likes-test-page',
      blocks: [
        {
          type: 'card-grid',
          cardType: 'recipeCard',
          cards: [
            { type: 'recipeCard', link: '/reseptit/naytetty', header: 'Näytetty', likeCount: 2 },
          ],
        },
      ],
    });
    const v = await visitor();
    expect((await v.post(`${LIKE_API}/recipe-${id}`)).json()).toMatchObject({ likeCount: 42 });
    const recipePage = await v.get('/reseptit/naytetty');
    expect(recipePage.statusCode).toBe(200);
    expect(recipePage.body).toContain('42 tykkäystä');
    expect(recipePage.body).toContain(`data-like-button="recipe-${id}"`);
    const grid = await v.get('/tykatyt');
    expect(grid.statusCode).toBe(200);
    expect(grid.body).toContain('42 tykkäystä');
    expect(grid.body).not.toMatch(/[^0-9]2 tykkäystä/);
  });
});
