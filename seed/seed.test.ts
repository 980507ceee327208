import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/client.ts';
import { pageBlocks } from '../src/features/content/blocks.ts';
import {
  productAdapter,
  productDocumentOf,
} from '../src/features/content/publishing/products.server.ts';
import type { KindAdapter } from '../src/features/content/publishing/versions.server.ts';
import {
  jobAdapter,
  mapRegionAdapter,
  schoolMaterialAdapter,
  timelineYearAdapter,
} from '../src/features/content/publishing/widget-rows.server.ts';
import { products } from '../src/features/content/tables.ts';
import { keptBySanitiser } from '../src/render/rich-text.server.tsx';
import { LocalFileStore } from '../src/server/file-store.ts';
import { sites } from '../src/sites/registry.ts';
import { createTestDatabase } from '../tests/setup/database.ts';
import { type SeedResult, seed } from './seed.ts';
import { eanCheckDigit } from './text.ts';

/**
 * The whole demo content on a fresh database. Pictures are capped at a few per kind so drawing
 * them stays quick; everything else is the full seed.
 */
let database: DatabaseHandle;
let filesDir: string;
let first: SeedResult;
let firstDump: string;

async function query<T>(text: string): Promise<T[]> {
  const result = (await database.db.execute(sql.raw(text))) as unknown as { rows: T[] };
  return result.rows;
}

/** Every content row and image, ordered by id; image creation times come from the clock. */
async function dump(): Promise<string> {
  const tables = [
    'facet_categories',
    'facet_tags',
    'pages',
    'products',
    'recipes',
    'news_releases',
    'jobs',
    'timeline_years',
    'school_materials',
    'map_regions',
  ];
  const parts: unknown[] = [];
  for (const table of tables) parts.push(table, await query(`select * from ${table} order by id`));
  parts.push(
    'images',
    await query(
      'select id, storage_key, mime, width, height, alt, focus_x, focus_y from images order by id',
    ),
  );
  return JSON.stringify(parts);
}

/**
 * Where the search feature's index (decision 011) disagrees with the content: documents missing,
 * left over, or with another title or path than their row. Empty without the search tables.
 */
async function searchIndexProblems(): Promise<unknown[]> {
  const [exists] = await query<{ ok: boolean }>(
    `select to_regclass('search_documents') is not null as ok`,
  );
  if (!exists?.ok) return [];
  const counts = await query<{ source: string; docs: number; rows: number }>(`
    select s.source, coalesce(d.n, 0)::int as docs, s.n::int as rows from (
      select 'page' as source, count(*) as n from search_source_page
      union all select 'product', count(*) from search_source_product
      union all select 'recipe', count(*) from search_source_recipe
      union all select 'news', count(*) from search_source_news) s
    left join (select source, count(*) as n from search_documents group by 1) d using (source)
    where coalesce(d.n, 0) <> s.n`);
  const stale = await query<{ id: number }>(`
    select d.id from search_documents d
    left join products p on d.source = 'product' and p.id = d.source_id
    left join recipes r on d.source = 'recipe' and r.id = d.source_id
    left join news_releases n on d.source = 'news' and n.id = d.source_id
    left join pages g on d.source = 'page' and g.id = d.source_id
    where d.title is distinct from coalesce(p.name, r.title, n.title, g.title)
       or d.path is distinct from coalesce(p.path, r.path, n.path, g.path)`);
  return [...counts, ...stale];
}

const options = { imagesPerKind: 2 };

beforeAll(async () => {
  database = await createTestDatabase(inject('templateDatabase'));
  filesDir = await mkdtemp(path.join(tmpdir(), 'kattaus-seed-files-'));
  first = await seed({ db: database.db, files: new LocalFileStore(filesDir) }, options);
  firstDump = await dump();
}, 120_000);

afterAll(async () => {
  await database?.close();
  if (filesDir) await rm(filesDir, { recursive: true, force: true });
});

describe('seed', () => {
  it('reaches the counts of the issue', async () => {
    expect(first.counts.products).toBeGreaterThanOrEqual(1200);
    expect(first.counts.recipes).toBeGreaterThanOrEqual(800);
    expect(first.counts.news).toBeGreaterThanOrEqual(400);
    const [jobs] = await query<{ n: number }>(
      `select count(*)::int as n from jobs where site_id = 'konsernifi' and lang = 'fi'`,
    );
    expect(jobs?.n).toBeGreaterThanOrEqual(12);
    const timeline = await query<{ site_id: string; lang: string; n: number }>(
      'select site_id, lang, count(*)::int as n from timeline_years group by 1, 2',
    );
    expect(timeline.map((t) => `${t.site_id}:${t.lang}`).sort()).toEqual([
      'koncernse:en',
      'koncernse:sv',
      'konsernifi:en',
      'konsernifi:fi',
    ]);
    for (const t of timeline) expect(t.n).toBeGreaterThanOrEqual(15);
    const [school] = await query<{ n: number }>(
      `select count(*)::int as n from school_materials where site_id = 'konsernifi' and lang = 'fi'`,
    );
    expect(school?.n).toBeGreaterThanOrEqual(8);
    const regions = await query<{ n: number }>(
      'select count(*)::int as n from map_regions group by site_id, lang',
    );
    expect(regions.length).toBeGreaterThan(0);
    for (const r of regions) expect(r.n).toBeGreaterThanOrEqual(6);
  });

  it('writes the same rows and ids when run again', async () => {
    const again = await seed({ db: database.db, files: new LocalFileStore(filesDir) }, options);
    expect(again.counts).toEqual(first.counts);
    expect(await dump()).toBe(firstDump);
  }, 120_000);

  it('gives every site a home page in each of its languages', async () => {
    const homes = await query<{ site_id: string; lang: string }>(
      `select site_id, lang from pages where path = '/' and type = 'home'`,
    );
    const have = new Set(homes.map((h) => `${h.site_id}:${h.lang}`));
    for (const site of sites)
      for (const lang of site.languages) expect(have).toContain(`${site.id}:${lang}`);
  });

  it('keeps paths unique per site and language across pages, products, recipes and news', async () => {
    const rows = await query<{ site_id: string; lang: string; path: string }>(`
      select site_id, lang, path from pages
      union all select site_id, lang, path from products
      union all select site_id, lang, path from recipes
      union all select site_id, lang, path from news_releases`);
    const seen = new Set<string>();
    const duplicates: string[] = [];
    for (const r of rows) {
      expect(r.path).toMatch(/^\/([a-z0-9-]+(\/[a-z0-9-]+)*)?$/);
      const key = `${r.site_id}:${r.lang}:${r.path}`;
      if (seen.has(key)) duplicates.push(key);
      seen.add(key);
    }
    expect(duplicates).toEqual([]);
  });

  it('puts items under a listing page of their own site and language', async () => {
    const orphans = await query<{ path: string }>(`
      select i.site_id, i.path from (
        select site_id, lang, path from products
        union all select site_id, lang, path from recipes
        union all select site_id, lang, path from news_releases) i
      where not exists (
        select 1 from pages p
        where p.site_id = i.site_id and p.lang = i.lang
          and p.type in ('product-list', 'recipe-list', 'newsroom')
          and i.path like p.path || '/%')`);
    expect(orphans).toEqual([]);
  });

  it('stores blocks that match their schemas, with links and images that exist', async () => {
    const pages = await query<{ site_id: string; lang: string; path: string; blocks: unknown }>(
      'select site_id, lang, path, blocks from pages',
    );
    const paths = new Set(
      (
        await query<{ k: string }>(`
          select site_id || ':' || lang || ':' || path as k from pages
          union all select site_id || ':' || lang || ':' || path from products
          union all select site_id || ':' || lang || ':' || path from recipes
          union all select site_id || ':' || lang || ':' || path from news_releases`)
      ).map((r) => r.k),
    );
    const imageIds = new Set(
      (await query<{ id: number }>('select id from images')).map((r) => r.id),
    );
    const broken: string[] = [];
    for (const page of pages) {
      const parsed = pageBlocks.safeParse(page.blocks);
      expect(parsed.success, `${page.site_id}:${page.lang}:${page.path}`).toBe(true);
      for (const block of parsed.data ?? []) {
        const cards =
          block.type === 'card-grid' || block.type === 'brand-cards'
            ? block.cards
            : block.type === 'hero-carousel' || block.type === 'image-carousel'
              ? block.slides
              : [];
        for (const card of cards) {
          if (
            'link' in card &&
            card.link &&
            !paths.has(`${page.site_id}:${page.lang}:${card.link}`)
          )
            broken.push(`${page.path} → ${card.link}`);
          if (card.imageId !== undefined && !imageIds.has(card.imageId))
            broken.push(`${page.path} image ${card.imageId}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('sends the retail contact, expert and sales forms to a thank-you page of their site', async () => {
    const pages = await query<{
      site_id: string;
      lang: string;
      path: string;
      blocks: unknown;
      show_in_nav: boolean;
    }>('select site_id, lang, path, blocks, show_in_nav from pages');
    const byPath = new Map(pages.map((p) => [`${p.site_id}:${p.lang}:${p.path}`, p]));
    const found: string[] = [];
    const wrong: string[] = [];
    for (const page of pages) {
      for (const block of pageBlocks.parse(page.blocks)) {
        if (block.type !== 'form') continue;
        const at = `${page.site_id}:${page.lang}:${page.path} ${block.form}`;
        const redirects = ['retail-contact', 'expert-question', 'sales'].includes(block.form);
        if (!redirects) {
          if (block.successPage) wrong.push(`${at} → ${block.successPage}`);
          continue;
        }
        const target = block.successPage
          ? byPath.get(`${page.site_id}:${page.lang}:${block.successPage}`)
          : undefined;
        if (!target || target.show_in_nav) wrong.push(`${at} → ${block.successPage ?? 'none'}`);
        else found.push(`${page.site_id}:${page.lang}`);
      }
    }
    expect(wrong).toEqual([]);
    // The shop, the seven retail brands (sibylla in three languages), both food-service sites.
    expect(new Set(found).size).toBe(12);
  });

  it('builds navigation trees three levels deep with teasers on section pages', async () => {
    const rows = await query<{ site_id: string; lang: string; depth: number }>(`
      select site_id, lang, max(array_length(string_to_array(trim(leading '/' from path), '/'), 1))::int as depth
      from pages where path <> '/' and show_in_nav group by 1, 2`);
    expect(rows.length).toBe(sites.reduce((n, s) => n + s.languages.length, 0));
    for (const r of rows) expect(r.depth, `${r.site_id}:${r.lang}`).toBeGreaterThanOrEqual(3);
    const sections = await query<{ n: number; without: number }>(`
      select count(*)::int as n, count(*) filter (where teaser = '' or teaser_image_id is null)::int as without
      from pages p where exists (select 1 from pages c where c.parent_id = p.id) and p.type <> 'home'`);
    expect(sections[0]?.n).toBeGreaterThan(100);
    expect(sections[0]?.without).toBe(0);
    const bottom = await query<{ n: number }>(`
      select count(*)::int as n from pages p
      where p.nav_area = 'bottom' and p.show_in_nav
        and p.parent_id in (select id from pages where type = 'home')
      group by p.site_id, p.lang`);
    for (const b of bottom) expect(b.n).toBeGreaterThanOrEqual(2);
  });

  it('has the search and contact pages at the paths of each language', async () => {
    const rows = await query<{ lang: string; type: string; path: string }>(
      `select distinct lang, type, path from pages where type in ('search', 'contact', 'cart') order by 1, 2, 3`,
    );
    const byLang = (type: string, lang: string) =>
      rows.filter((r) => r.type === type && r.lang === lang).map((r) => r.path);
    expect(byLang('search', 'fi')).toEqual(['/haku']);
    expect(byLang('search', 'sv')).toEqual(['/sok']);
    expect(byLang('search', 'en')).toEqual(['/search']);
    expect(byLang('contact', 'fi')).toContain('/ota-yhteytta');
    expect(byLang('contact', 'sv')).toContain('/kontakta-oss');
    expect(byLang('contact', 'en')).toContain('/contact');
    expect(byLang('cart', 'fi')).toEqual(['/ostoskori']);
  });

  it('shares translation keys between the language versions of a site', async () => {
    const rows = await query<{ site_id: string; translation_key: string; langs: string[] }>(`
      select site_id, translation_key, array_agg(lang order by lang) as langs
      from pages where site_id in ('konsernifi', 'koncernse', 'sibylla')
      group by 1, 2`);
    const expected: Record<string, string[]> = {
      konsernifi: ['en', 'fi'],
      koncernse: ['en', 'sv'],
      sibylla: ['en', 'fi', 'sv'],
    };
    // Pages that only exist in one language (school materials are not translated to English).
    const partial = rows.filter((r) => r.langs.join() !== expected[r.site_id]?.join());
    expect(partial.every((r) => r.translation_key.endsWith('/school'))).toBe(true);
    const products = await query<{ n: number }>(`
      select count(*)::int as n from (
        select translation_key from products where site_id = 'sibylla' group by 1 having count(*) = 3) t`);
    expect(products[0]?.n).toBeGreaterThanOrEqual(30);
    const news = await query<{ n: number }>(`
      select count(*)::int as n from (
        select translation_key from news_releases where site_id = 'konsernifi' group by 1 having count(*) = 2) t`);
    expect(news[0]?.n).toBeGreaterThanOrEqual(50);
  });

  it('gives products valid codes, GTINs and shop prices', async () => {
    const products = await query<{
      kind: string;
      code: string;
      gtin: string | null;
      price_cents: number | null;
      stock: number | null;
      is_gift_card: boolean;
      discount_percentage: number | null;
    }>(
      'select kind, code, gtin, price_cents, stock, is_gift_card, discount_percentage from products',
    );
    for (const p of products) {
      expect(p.code).toMatch(/^\d{6,8}$/);
      if (p.gtin) expect(Number(p.gtin[12])).toBe(eanCheckDigit(p.gtin.slice(0, 12)));
    }
    const shop = products.filter((p) => p.kind === 'shop-product');
    expect(shop.every((p) => p.price_cents !== null && p.price_cents > 0)).toBe(true);
    expect(shop.some((p) => p.stock === null)).toBe(true);
    expect(shop.some((p) => p.stock === 0)).toBe(true);
    expect(shop.some((p) => p.discount_percentage !== null)).toBe(true);
    expect(shop.filter((p) => p.is_gift_card).length).toBeGreaterThanOrEqual(2);
    const kinds = new Set(products.map((p) => p.kind));
    expect([...kinds].sort()).toEqual([
      'broiler-product',
      'foodservice-product',
      'retail-product',
      'shop-product',
    ]);
  });

  it('gives every product, job listing, material, timeline year and map button a document the back office saves as it is', async () => {
    // Decision 171: opening a seeded row in the back office makes its live row version 1; each
    // must parse with its kind's schema, and a product's description pass the sanitiser whole.
    const rows = await database.db.select().from(products);
    const wrong: string[] = [];
    for (const row of rows) {
      const doc = productDocumentOf(row);
      if (!productAdapter.schema.safeParse(doc).success) wrong.push(`product ${row.id}`);
      if (!keptBySanitiser(doc.descriptionHtml)) wrong.push(`product ${row.id} description`);
    }
    for (const [table, adapter] of [
      ['jobs', jobAdapter],
      ['school_materials', schoolMaterialAdapter],
      ['timeline_years', timelineYearAdapter],
      ['map_regions', mapRegionAdapter],
    ] as const) {
      const ids = await query<{ id: number }>(`select id from ${table}`);
      expect(ids.length, table).toBeGreaterThan(0);
      for (const { id } of ids) {
        const live = await (adapter as KindAdapter<object>).live(database.db, id);
        if (!live || !adapter.schema.safeParse(live.document).success) wrong.push(`${table} ${id}`);
      }
    }
    expect(rows.length).toBeGreaterThan(1000);
    expect(wrong).toEqual([]);
  });

  it('tags items with facet tags of their own site and language', async () => {
    const wrong = await query<{ id: number }>(`
      select x.id from (
        select id, site_id, lang, unnest(facet_tag_ids) as tag from products
        union all select id, site_id, lang, unnest(facet_tag_ids) from recipes
        union all select id, site_id, lang, unnest(facet_tag_ids) from news_releases) x
      left join facet_tags t on t.id = x.tag
      left join facet_categories c on c.id = t.category_id
      where c.id is null or c.site_id <> x.site_id or c.lang <> x.lang`);
    expect(wrong).toEqual([]);
    const [untagged] = await query<{ n: number }>(
      'select count(*)::int as n from recipes where cardinality(facet_tag_ids) < 3',
    );
    expect(untagged?.n).toBe(0);
  });

  it('uses real Finnish and Swedish food words, inflected and compounded', async () => {
    const text = (
      await query<{ t: string }>(`
        select string_agg(title || ' ' || teaser || ' ' || steps::text, ' ') as t from recipes`)
    )[0]?.t;
    const products = (
      await query<{ t: string }>(
        `select string_agg(name || ' ' || description_html, ' ') as t from products`,
      )
    )[0]?.t;
    for (const word of [
      'Jauhelihakastike',
      'Kinkkukiusaus',
      'Köttbullar',
      'Korvstroganoff',
      'jauhelihaa',
      'broilerin',
      'kanan',
      'makkaraa',
    ])
      expect(text).toContain(word);
    for (const word of [
      'Falukorv',
      'Broilerin fileesuikaleet',
      'Kinkkukiusaus',
      'Kanan koipireidet',
      'Palvikinkku',
      'Prinskorv',
    ])
      expect(products).toContain(word);
  });

  it('recipes link ingredients to product pages of the same site', async () => {
    const links = await query<{ site_id: string; lang: string; url: string }>(`
      select r.site_id, r.lang, i->>'url' as url
      from recipes r, jsonb_array_elements(r.steps) s, jsonb_array_elements(s->'ingredients') i
      where i ? 'url'`);
    expect(links.length).toBeGreaterThan(100);
    const products = new Set(
      (
        await query<{ k: string }>(
          `select site_id || ':' || lang || ':' || path as k from products`,
        )
      ).map((r) => r.k),
    );
    expect(links.filter((l) => !products.has(`${l.site_id}:${l.lang}:${l.url}`))).toEqual([]);
  });

  it('leaves the search index matching the content', async () => {
    expect(await searchIndexProblems()).toEqual([]);
  });

  it('adds scale documents up to the target, and a plain seed removes them again', async () => {
    const scaled = await seed(
      { db: database.db, files: new LocalFileStore(filesDir) },
      { ...options, scale: 4000 },
    );
    expect(scaled.searchable).toBe(4000);
    const [marked] = await query<{ n: number }>(`
      select (select count(*) from products where translation_key like 'scale-%')
           + (select count(*) from recipes where translation_key like 'scale-%')
           + (select count(*) from news_releases where translation_key like 'scale-%') as n`);
    expect(Number(marked?.n)).toBe(scaled.scaleDocuments);
    expect(await searchIndexProblems()).toEqual([]);
    await seed({ db: database.db, files: new LocalFileStore(filesDir) }, options);
    expect(await dump()).toBe(firstDump);
    expect(await searchIndexProblems()).toEqual([]);
  }, 120_000);
});
