import type { Database } from '../src/db/client.ts';
import { compactSearchDocuments } from '../src/features/search/index.server.ts';
import type { FileStore } from '../src/server/file-store.ts';
import { sites } from '../src/sites/registry.ts';
import type { Lang } from '../src/sites/types.ts';
import { newSiteLang, type Seeding, type SiteLang } from './context.ts';
import { seedFacets } from './facets.ts';
import { ImagePool } from './images.ts';
import { Content, type Rows } from './model.ts';
import { addNews, newsConcepts } from './news.ts';
import { seedPages } from './pages.ts';
import { addProduct, productConcepts } from './products.ts';
import { Random } from './random.ts';
import { addRecipe, recipeConcepts } from './recipes.ts';
import { seedReviews } from './reviews.ts';
import { addScaleDocuments, searchableCount } from './scale.ts';
import { seedShop } from './shop.ts';
import { linkShopProducts } from './shop-links.ts';
import { profileOf } from './sites.ts';
import { addSubscriptionPages, seedSubscriptionData } from './subscriptions.ts';
import { vocabularies } from './vocabulary/index.ts';
import { seedWidgets } from './widgets.ts';
import { replaceContent } from './write.ts';

export interface SeedOptions {
  /** Only these sites (tests); all fourteen by default. */
  sites?: readonly string[];
  /** At most this many distinct generated images per kind (tests: keeps image drawing short). */
  imagesPerKind?: number;
  /** Add load-test documents until this many searchable items exist. */
  scale?: number;
  log?: (message: string) => void;
}

export interface SeedResult {
  counts: Record<keyof Rows, number>;
  searchable: number;
  scaleDocuments: number;
  images: number;
  millis: { generate: number; write: number };
}

/** The seed of all demo content; change it and every id and text changes with it. */
const SEED = 'kattaus-demo-content-1';

/**
 * Writes the demo content of every site in each of its languages, replacing what the content
 * tables held. Deterministic: the same options give the same rows and ids on every run.
 */
export async function seed(
  ctx: { db: Database; files: FileStore },
  options: SeedOptions = {},
): Promise<SeedResult> {
  const log = options.log ?? (() => {});
  const started = performance.now();
  const images = new ImagePool(
    ctx,
    options.imagesPerKind ? { perKind: options.imagesPerKind } : {},
  );
  const seeding: Seeding = { content: new Content(), images, rng: new Random(SEED) };
  const all: SiteLang[] = [];
  for (const [siteIndex, site] of sites.entries()) {
    if (options.sites && !options.sites.includes(site.id)) continue;
    all.push(...(await seedSite(seeding, siteIndex)));
    log(`${site.id}: ${images.size} images so far`);
  }
  addSubscriptionPages(seeding, all);
  let scaleDocuments = 0;
  if (options.scale) scaleDocuments = addScaleDocuments(seeding, all, options.scale);
  linkShopProducts(seeding.content.rows.products);
  const generated = performance.now();
  log(`writing ${searchableCount(seeding)} searchable items`);
  await replaceContent(ctx.db, seeding.content.rows);
  // Every row is indexed (write.ts); lay the index out by site for search (decision 011).
  await compactSearchDocuments(ctx.db);
  await seedSubscriptionData(ctx.db);
  if (!options.sites || options.sites.includes('lihakauppa')) {
    await seedShop(ctx.db);
    await seedReviews(ctx.db);
  }
  const { rows } = seeding.content;
  return {
    counts: Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, v.length])) as Record<
      keyof Rows,
      number
    >,
    searchable: searchableCount(seeding),
    scaleDocuments,
    images: images.size,
    millis: {
      generate: Math.round(generated - started),
      write: Math.round(performance.now() - generated),
    },
  };
}

async function seedSite(seeding: Seeding, siteIndex: number): Promise<SiteLang[]> {
  const site = sites[siteIndex];
  if (!site) return [];
  const profile = profileOf(site.id);
  const langs = site.languages as readonly Lang[];
  const versions = langs.map((lang) => newSiteLang(site, profile, lang, vocabularies[lang]));
  const rng = seeding.rng.fork(site.id);
  for (const s of versions) {
    seedFacets(seeding.content, s, {
      products: profile.products > 0,
      recipes: profile.recipes > 0,
      news: (profile.news[s.lang] ?? 0) > 0,
    });
  }
  for (const c of productConcepts(
    profile,
    langs,
    rng.fork('products'),
    profile.products,
    siteIndex,
  )) {
    await addProduct(
      seeding,
      versions,
      c,
      `product:${c.family}:${c.variant}:${c.giftEuros ?? c.weight}`,
    );
  }
  for (const c of recipeConcepts(profile, langs, rng.fork('recipes'), profile.recipes)) {
    await addRecipe(seeding, versions, c, `recipe:${c.dish}:${c.prefix ?? ''}:${c.suffix ?? ''}`);
  }
  for (const [i, c] of newsConcepts(site, profile, rng.fork('news')).entries()) {
    await addNews(
      seeding,
      versions.filter((s) => c.langs.includes(s.lang)),
      c,
      `news:${i + 1}`,
    );
  }
  for (const s of versions) await seedWidgets(seeding, s);
  for (const s of versions) await seedPages(seeding, s);
  return versions;
}
