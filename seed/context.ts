import type { Lang, Site } from '../src/sites/types.ts';
import type { ImagePool } from './images.ts';
import type { Content, NewsRow, ProductRow, RecipeRow } from './model.ts';
import type { Random } from './random.ts';
import type { SiteProfile } from './sites.ts';
import { slugify } from './text.ts';
import type {
  Course,
  DietKey,
  MainKey,
  MethodKey,
  NewsTopic,
  ProductGroupKey,
  TextTypeKey,
  Vocabulary,
} from './vocabulary/types.ts';

export interface FacetIds {
  main: Partial<Record<MainKey, number>>;
  course: Partial<Record<Course, number>>;
  method: Partial<Record<MethodKey, number>>;
  diet: Partial<Record<DietKey, number>>;
  productGroup: Partial<Record<ProductGroupKey, number>>;
  productDiet: Partial<Record<'gluten-free' | 'lactose-free', number>>;
  newsTopic: Partial<Record<NewsTopic, number>>;
  newsType: Partial<Record<TextTypeKey, number>>;
}

/** What is known about one language version of a site while its content is made. */
export interface SiteLang {
  site: Site;
  profile: SiteProfile;
  lang: Lang;
  v: Vocabulary;
  facets: FacetIds;
  products: ProductRow[];
  recipes: RecipeRow[];
  news: NewsRow[];
  /** A product of the site per family key, for recipe ingredient links. */
  productByFamily: Map<string, ProductRow>;
  /** Paths already used in this site and language (pages and the three item tables share them). */
  paths: Set<string>;
}

export interface Seeding {
  content: Content;
  images: ImagePool;
  rng: Random;
}

export function newSiteLang(site: Site, profile: SiteProfile, lang: Lang, v: Vocabulary): SiteLang {
  return {
    site,
    profile,
    lang,
    v,
    facets: {
      main: {},
      course: {},
      method: {},
      diet: {},
      productGroup: {},
      productDiet: {},
      newsTopic: {},
      newsType: {},
    },
    products: [],
    recipes: [],
    news: [],
    productByFamily: new Map(),
    paths: new Set(),
  };
}

export const sectionPath = {
  products: (s: SiteLang) => `/${s.v.pages.products.slug}`,
  productGroup: (s: SiteLang, group: ProductGroupKey) =>
    `/${s.v.pages.products.slug}/${s.v.productGroups[group].slug}`,
  recipes: (s: SiteLang) => `/${s.v.pages.recipes.slug}`,
  recipeCourse: (s: SiteLang, course: Course) =>
    `/${s.v.pages.recipes.slug}/${slugify(s.v.facets.course.tags[course])}`,
  news: (s: SiteLang) => `/${s.v.pages.news.slug}`,
  contactThanks: (s: SiteLang) => `/${s.v.pages.contact.slug}/${s.v.pages.contactThanks.slug}`,
};

/** `base/slug`, or `base/slug-2`, `-3`… when the path is taken. */
export function uniquePath(s: SiteLang, base: string, slug: string): string {
  let path = `${base}/${slug}`;
  for (let n = 2; s.paths.has(path); n++) path = `${base}/${slug}-${n}`;
  s.paths.add(path);
  return path;
}
