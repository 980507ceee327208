import type { Lang } from '../src/sites/types.ts';
import { type Seeding, type SiteLang, sectionPath, uniquePath } from './context.ts';
import { daysFromEpoch, type ProductRow } from './model.ts';
import type { Random } from './random.ts';
import type { SiteProfile } from './sites.ts';
import { escapeHtml, formatWeight, gtin13, list, slugify } from './text.ts';
import { vocabularies } from './vocabulary/index.ts';
import type { ProductFamily, ProductGroupKey, Variant, Vocabulary } from './vocabulary/types.ts';

/** One product of a site, the same in each of its languages. */
export interface ProductConcept {
  family: string;
  variant: string;
  group: ProductGroupKey;
  weight: number;
  giftEuros?: number;
  code: string;
  gtin: string | null;
  valoCode: string | null;
  novelty: boolean;
  likeCount: number;
  teaser: number;
  jitter: number;
  days: number;
  shop?: {
    pricePerKg: number;
    price: number;
    svh: number;
    discount: number | null;
    stock: number | null;
  };
}

/** Price per kg in cents by group, for the shop: low and high end. */
const pricePerKg: Partial<Record<ProductGroupKey, [number, number]>> = {
  beef: [2490, 5990],
  pork: [1190, 2490],
  chicken: [890, 1990],
  mince: [990, 1590],
  sausages: [790, 1590],
  bacon: [1490, 2290],
};

function family(v: Vocabulary, key: string): ProductFamily {
  const found = v.families.find((f) => f.key === key);
  if (!found) throw new Error(`product family ${key} missing`);
  return found;
}

function variant(v: Vocabulary, f: ProductFamily, key: string): Variant {
  const found = v.variants[f.variants].find((x) => x.key === key);
  if (!found) throw new Error(`variant ${key} of ${f.key} missing`);
  return found;
}

const isBulk = (profile: SiteProfile) =>
  profile.kind === 'foodservice' || profile.kind === 'export';

/**
 * Chooses a site's products: every family of its groups that exists in all its languages, each
 * variant and pack size, taken round-robin over families so every family appears before any
 * repeats. Deterministic for a given random source.
 */
export function productConcepts(
  profile: SiteProfile,
  langs: readonly Lang[],
  rng: Random,
  count: number,
  siteIndex: number,
): ProductConcept[] {
  const vs = langs.map((l) => vocabularies[l]);
  const [primary] = vs;
  if (!primary) return [];
  const bulk = isBulk(profile);
  const queues: { f: ProductFamily; combos: [string, number][] }[] = [];
  for (const f of primary.families) {
    if (!profile.productGroups.includes(f.group)) continue;
    if (!vs.every((v) => v.families.some((g) => g.key === f.key))) continue;
    const weights = bulk ? f.bulk : f.weights;
    const combos: [string, number][] = [];
    for (const x of primary.variants[f.variants]) {
      if (!vs.every((v) => v.variants[f.variants].some((y) => y.key === x.key))) continue;
      for (const w of weights) combos.push([x.key, w]);
    }
    if (combos.length) queues.push({ f, combos: rng.shuffle(combos) });
  }
  const order = rng.shuffle(queues);
  const chosen: { f: ProductFamily; variant: string; weight: number }[] = [];
  const giftCards = profile.productGroups.includes('gift-cards') ? [25, 50, 100] : [];
  const target = count - giftCards.length;
  for (let round = 0; chosen.length < target; round++) {
    let added = false;
    for (const q of order) {
      const combo = q.combos[round];
      if (!combo || chosen.length >= target) continue;
      chosen.push({ f: q.f, variant: combo[0], weight: combo[1] });
      added = true;
    }
    if (!added) break;
  }
  // Listings read better grouped: keep the group order of the profile, then family order.
  chosen.sort(
    (a, b) =>
      profile.productGroups.indexOf(a.f.group) - profile.productGroups.indexOf(b.f.group) ||
      primary.families.indexOf(a.f) - primary.families.indexOf(b.f),
  );
  const concepts: ProductConcept[] = [];
  const codeBase =
    (bulk ? 1_000_000 : 100_000) * (profile.kind === 'export' ? 10 : 1) + siteIndex * 1000;
  const withCodes = (
    c: Omit<
      ProductConcept,
      'code' | 'gtin' | 'valoCode' | 'novelty' | 'likeCount' | 'teaser' | 'jitter' | 'days'
    >,
    i: number,
    gift: boolean,
  ): ProductConcept => ({
    ...c,
    code: String(codeBase + i + 1),
    gtin: gift
      ? null
      : gtin13(profile.gtinPrefix, `1${String(siteIndex).padStart(2, '0')}00`, i + 1),
    valoCode:
      profile.kind === 'foodservice' && profile.gtinPrefix === '64'
        ? String(400_000 + siteIndex * 1000 + i)
        : null,
    novelty: rng.chance(0.1),
    likeCount: rng.int(0, 250),
    teaser: rng.int(0, 99),
    jitter: rng.decimal(0.94, 1.06, 3),
    days: -rng.int(10, 900),
  });
  chosen.forEach((c, i) => {
    const concept = withCodes(
      { family: c.f.key, variant: c.variant, group: c.f.group, weight: c.weight },
      i,
      false,
    );
    if (profile.kind === 'shop') concept.shop = shopPrice(rng, c.f.group, c.weight);
    concepts.push(concept);
  });
  giftCards.forEach((euros, i) => {
    const concept = withCodes(
      { family: 'gift-card', variant: 'plain', group: 'gift-cards', weight: 0, giftEuros: euros },
      chosen.length + i,
      true,
    );
    concept.shop = {
      pricePerKg: 0,
      price: euros * 100,
      svh: euros * 100,
      discount: null,
      stock: null,
    };
    concepts.push(concept);
  });
  return concepts;
}

function shopPrice(rng: Random, group: ProductGroupKey, weight: number): ProductConcept['shop'] {
  const [low, high] = pricePerKg[group] ?? [990, 2490];
  const perKg = Math.round(rng.int(low, high) / 10) * 10;
  // Prices end in 9 cents, as shops like them.
  const price = Math.max(99, Math.round((perKg * weight) / 1000 / 10) * 10 - 1);
  const discount = rng.chance(0.15) ? rng.pick([10, 15, 20, 25, 30]) : null;
  const roll = rng.next();
  const stock = roll < 0.2 ? null : roll < 0.3 ? 0 : rng.int(1, 60);
  return {
    pricePerKg: perKg,
    price,
    svh: Math.round((price * 1.12) / 10) * 10 - 1,
    discount,
    stock,
  };
}

/** The product's picture: per language, family and variant, so pack sizes and sites share it. */
async function productImage(
  seeding: Seeding,
  s: SiteLang,
  c: ProductConcept,
  imageLang: Lang,
  names: Partial<Record<Lang, string>>,
) {
  const v = vocabularies[imageLang];
  if (c.giftEuros) {
    return seeding.images.get({
      kind: 'product',
      seed: `gift-card:${c.giftEuros}`,
      title: v.giftCard.name(c.giftEuros),
      alt: names,
    });
  }
  // One picture for every pack size, so its text names no weight.
  const withoutWeight = (lang: Lang) => {
    const fl = family(vocabularies[lang], c.family);
    return vocabularies[lang]
      .productName(fl.name, variant(vocabularies[lang], fl, c.variant).label, '')
      .trim();
  };
  const alt = Object.fromEntries(
    Object.keys(names).map((lang) => [lang, withoutWeight(lang as Lang)]),
  );
  return seeding.images.get({
    kind: 'product',
    seed: `product:${imageLang}:${s.profile.kind === 'export' ? 'export:' : ''}${c.family}:${c.variant}`,
    title: withoutWeight(imageLang),
    alt,
  });
}

/** What the extra pictures of a shop product show, per language (their alt text's ending). */
const extraViews: Record<Lang, [string, string]> = {
  fi: ['pakkaus', 'tarjoiluehdotus'],
  sv: ['förpackning', 'serveringsförslag'],
  en: ['package', 'serving suggestion'],
};

/**
 * Two more pictures (the pack and a serving suggestion) for every third product the shop sells by
 * the kilo, so product pages show their picture carousel; the rest keep one picture. Chosen by the
 * product code, so the same products get them on every run.
 */
async function moreShopPictures(
  seeding: Seeding,
  s: SiteLang,
  c: ProductConcept,
  names: Partial<Record<Lang, string>>,
): Promise<number[]> {
  if (s.profile.kind !== 'shop' || !c.shop || c.giftEuros || Number(c.code) % 3 !== 0) return [];
  const ids: number[] = [];
  for (const view of [0, 1] as const) {
    const alt = Object.fromEntries(
      Object.entries(names).map(([lang, name]) => [
        lang,
        `${name}, ${extraViews[lang as Lang][view]}`,
      ]),
    );
    ids.push(
      await seeding.images.get({
        kind: 'product',
        seed: `product:${s.lang}:${c.family}:${c.variant}:${c.code}:view-${view + 2}`,
        title: names[s.lang] ?? '',
        alt,
      }),
    );
  }
  return ids;
}

/** Writes the rows of one concept in each language of the site. */
export async function addProduct(
  seeding: Seeding,
  versions: SiteLang[],
  c: ProductConcept,
  translationKey: string,
) {
  const names: Partial<Record<Lang, string>> = {};
  for (const s of versions) names[s.lang] = productName(s.lang, c);
  const [first] = versions;
  if (!first) return;
  const imageId = await productImage(seeding, first, c, first.lang, names);
  const imageIds = [imageId, ...(await moreShopPictures(seeding, first, c, names))];
  for (const s of versions) {
    const row = productRow(s, c, names[s.lang] ?? '', imageIds, translationKey);
    const added = seeding.content.add('products', row) as ProductRow;
    s.products.push(added);
    if (!s.productByFamily.has(c.family)) s.productByFamily.set(c.family, added);
  }
}

export function productName(lang: Lang, c: ProductConcept): string {
  const v = vocabularies[lang];
  if (c.giftEuros) return v.giftCard.name(c.giftEuros);
  const f = family(v, c.family);
  return v.productName(f.name, variant(v, f, c.variant).label, formatWeight(lang, c.weight));
}

export function productRow(
  s: SiteLang,
  c: ProductConcept,
  name: string,
  /** The first picture, or all of them in order. */
  pictures: number | number[],
  translationKey: string,
  pathSuffix = '',
): Omit<ProductRow, 'id'> {
  const imageIds = typeof pictures === 'number' ? [pictures] : pictures;
  const { v, profile, lang } = s;
  const kind = profile.productKind ?? 'retail-product';
  const path = uniquePath(s, sectionPath.productGroup(s, c.group), slugify(name) + pathSuffix);
  const published = daysFromEpoch(c.days, 8);
  const updated = daysFromEpoch(Math.min(0, c.days + 30), 8);
  const dietTags: number[] = [];
  if (c.giftEuros) {
    return {
      siteId: s.site.id,
      lang,
      kind,
      path,
      code: c.code,
      gtin: null,
      valoCode: null,
      name,
      teaser: v.giftCard.text,
      descriptionHtml: `<p>${escapeHtml(v.giftCard.text)}</p>`,
      ingredients: '',
      imageIds,
      categoryIds: idList(s.facets.productGroup[c.group]),
      facetTagIds: idList(s.facets.productGroup[c.group]),
      productGroup: v.productGroups[c.group].name,
      isNovelty: false,
      nutrition: null,
      weightGrams: null,
      priceCents: c.shop?.price ?? null,
      pricePerKgCents: null,
      svhPriceCents: null,
      discountPercentage: null,
      stock: null,
      isGiftCard: true,
      likeCount: c.likeCount,
      translationKey,
      publishedAt: published,
      updatedAt: updated,
    };
  }
  const f = family(v, c.family);
  const x = variant(v, f, c.variant);
  const bulk = profile.kind === 'foodservice' || profile.kind === 'export';
  const plainMeat = f.variants === 'cut' || f.variants === 'mince' || f.variants === 'export';
  if (plainMeat || x.key === 'gluten-free')
    dietTags.push(...idList(s.facets.productDiet['gluten-free']));
  if (plainMeat || x.key === 'lactose-free')
    dietTags.push(...idList(s.facets.productDiet['lactose-free']));
  const tips = (v.tips[f.group] ?? v.tips.default).slice(0, 3);
  const teaser = v.productTeasers[c.teaser % v.productTeasers.length]?.(f) ?? '';
  const description = [
    `<p>${escapeHtml(`${f.text} ${x.text}`)}</p>`,
    list(tips),
    bulk ? `<p>${escapeHtml(v.foodService.text)}</p>` : '',
    `<p>${escapeHtml(v.storage[c.teaser % v.storage.length] ?? '')}</p>`,
  ].join('');
  const [kcal, fat, sat, carb, sugar, protein, salt] = f.nutrition;
  const j = (value: number) => Math.round(value * c.jitter * 10) / 10;
  const groupTag = idList(s.facets.productGroup[c.group]);
  return {
    siteId: s.site.id,
    lang,
    kind,
    path,
    code: c.code,
    gtin: c.gtin,
    valoCode: c.valoCode,
    name,
    teaser: bulk ? `${teaser} ${v.foodService.teaser}` : teaser,
    descriptionHtml: description,
    ingredients: x.ingredient ? `${f.ingredients}, ${x.ingredient}` : f.ingredients,
    imageIds,
    categoryIds: groupTag,
    facetTagIds: [...groupTag, ...dietTags],
    productGroup: v.productGroups[f.group].name,
    isNovelty: c.novelty,
    nutrition: {
      per: '100 g',
      energyKj: Math.round(kcal * c.jitter * 4.184),
      energyKcal: Math.round(kcal * c.jitter),
      fat: j(fat),
      saturatedFat: j(sat),
      carbohydrate: j(carb),
      sugars: j(sugar),
      protein: j(protein),
      salt: Math.round(salt * 100) / 100,
    },
    weightGrams: c.weight,
    priceCents: c.shop?.price ?? null,
    pricePerKgCents: c.shop?.pricePerKg ?? null,
    svhPriceCents: c.shop?.svh ?? null,
    discountPercentage: c.shop?.discount ?? null,
    stock: c.shop ? c.shop.stock : null,
    isGiftCard: false,
    likeCount: c.likeCount,
    translationKey,
    publishedAt: published,
    updatedAt: updated,
  };
}

function idList(id: number | undefined): number[] {
  return id === undefined ? [] : [id];
}
