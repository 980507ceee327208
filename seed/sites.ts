import type { CardType } from '../src/features/content/blocks.ts';
import type { SiteId } from '../src/sites/registry.ts';
import type { Lang } from '../src/sites/types.ts';
import type { MainKey, NewsTemplateKey, ProductGroupKey } from './vocabulary/types.ts';

export type SiteKind = 'corporate' | 'shop' | 'brand' | 'foodservice' | 'export';
export type ProductKind =
  | 'retail-product'
  | 'broiler-product'
  | 'foodservice-product'
  | 'shop-product';

/** What each site holds: how much of what, which product groups and recipe ingredients. */
export interface SiteProfile {
  id: SiteId;
  kind: SiteKind;
  productKind?: ProductKind;
  productGroups: readonly ProductGroupKey[];
  /** Products per language. */
  products: number;
  recipeMains: readonly MainKey[];
  /** Recipes per language. */
  recipes: number;
  /** News releases per language (a second language translates the first ones). */
  news: Partial<Record<Lang, number>>;
  newsKind: 'cision' | 'mynewsdesk';
  newsTemplates: readonly NewsTemplateKey[];
  cards: { product: CardType; recipe: CardType; news: CardType };
  /** GS1 prefix of the country the products are packed in. */
  gtinPrefix: '64' | '73';
}

const brandNews: NewsTemplateKey[] = [
  'launch',
  'award',
  'event',
  'season',
  'sponsorship',
  'recipeTrend',
  'welfare',
];
const corporateNews: NewsTemplateKey[] = [
  'report',
  'investment',
  'appointment',
  'launch',
  'emissions',
  'welfare',
  'award',
  'event',
  'summerJobs',
  'demand',
  'partnership',
  'expansion',
  'agm',
  'season',
  'sponsorship',
  'recipeTrend',
];
const allMains: MainKey[] = [
  'mince',
  'chicken',
  'sausage',
  'ham',
  'pork',
  'beef',
  'bacon',
  'meatballs',
  'vegetable',
];

export const profiles: readonly SiteProfile[] = [
  {
    id: 'konsernifi',
    kind: 'corporate',
    productGroups: [],
    products: 0,
    recipeMains: [],
    recipes: 0,
    news: { fi: 150, en: 90 },
    newsKind: 'cision',
    newsTemplates: corporateNews,
    cards: { product: 'headerImageSquare', recipe: 'recipeCard', news: 'cisionCard' },
    gtinPrefix: '64',
  },
  {
    id: 'koncernse',
    kind: 'corporate',
    productGroups: [],
    products: 0,
    recipeMains: [],
    recipes: 0,
    news: { sv: 100, en: 50 },
    newsKind: 'mynewsdesk',
    newsTemplates: corporateNews,
    cards: { product: 'headerImageSquare', recipe: 'recipeCard', news: 'mynewsdeskCard' },
    gtinPrefix: '73',
  },
  {
    id: 'lihakauppa',
    kind: 'shop',
    productKind: 'shop-product',
    productGroups: ['beef', 'pork', 'chicken', 'mince', 'sausages', 'bacon', 'gift-cards'],
    products: 160,
    recipeMains: ['beef', 'pork', 'mince', 'sausage', 'bacon'],
    recipes: 40,
    news: { fi: 10 },
    newsKind: 'cision',
    newsTemplates: ['launch', 'season', 'recipeTrend', 'welfare'],
    cards: { product: 'headerImageSquare', recipe: 'recipeCard', news: 'cisionCard' },
    gtinPrefix: '64',
  },
  {
    id: 'jyvabroiler',
    kind: 'brand',
    productKind: 'broiler-product',
    productGroups: ['chicken', 'cold-cuts', 'mince', 'meatballs'],
    products: 130,
    recipeMains: ['chicken'],
    recipes: 150,
    news: { fi: 15 },
    newsKind: 'cision',
    newsTemplates: brandNews,
    cards: { product: 'headerImageSquare', recipe: 'jyvabroilerRecipeCard', news: 'cisionCard' },
    gtinPrefix: '64',
  },
  {
    id: 'export',
    kind: 'export',
    productKind: 'foodservice-product',
    productGroups: ['pork', 'beef', 'chicken'],
    products: 110,
    recipeMains: [],
    recipes: 0,
    news: { en: 10 },
    newsKind: 'cision',
    newsTemplates: ['event', 'welfare', 'demand', 'emissions'],
    cards: { product: 'headerImageSquare', recipe: 'recipeCard', news: 'cisionCard' },
    gtinPrefix: '64',
  },
  {
    id: 'ammattilaiset',
    kind: 'foodservice',
    productKind: 'foodservice-product',
    productGroups: [
      'chicken',
      'mince',
      'meatballs',
      'ready-meals',
      'sausages',
      'cold-cuts',
      'bacon',
      'pork',
      'beef',
    ],
    products: 160,
    recipeMains: allMains,
    recipes: 110,
    news: { fi: 15 },
    newsKind: 'cision',
    newsTemplates: ['launch', 'event', 'season', 'recipeTrend', 'welfare'],
    cards: { product: 'headerImageSquare', recipe: 'recipeCard', news: 'cisionCard' },
    gtinPrefix: '64',
  },
  {
    id: 'foodservicese',
    kind: 'foodservice',
    productKind: 'foodservice-product',
    productGroups: [
      'chicken',
      'mince',
      'meatballs',
      'ready-meals',
      'sausages',
      'bacon',
      'pork',
      'beef',
    ],
    products: 130,
    recipeMains: allMains,
    recipes: 90,
    news: { sv: 10 },
    newsKind: 'mynewsdesk',
    newsTemplates: ['launch', 'event', 'season', 'recipeTrend', 'welfare'],
    cards: { product: 'headerImageSquare', recipe: 'recipeCard', news: 'mynewsdeskCard' },
    gtinPrefix: '73',
  },
  {
    id: 'delise',
    kind: 'brand',
    productKind: 'retail-product',
    productGroups: ['cold-cuts', 'sausages', 'pate', 'ham', 'hot-dogs'],
    products: 100,
    recipeMains: ['sausage', 'ham', 'bacon', 'mince', 'chicken'],
    recipes: 80,
    news: { sv: 10 },
    newsKind: 'mynewsdesk',
    newsTemplates: brandNews,
    cards: { product: 'headerImageTall', recipe: 'recipeCard', news: 'mynewsdeskCard' },
    gtinPrefix: '73',
  },
  {
    id: 'ridderheimsse',
    kind: 'brand',
    productKind: 'retail-product',
    productGroups: ['ham', 'pate', 'cold-cuts', 'sausages'],
    products: 60,
    recipeMains: ['ham', 'sausage', 'beef', 'pork'],
    recipes: 50,
    news: { sv: 8 },
    newsKind: 'mynewsdesk',
    newsTemplates: brandNews,
    cards: { product: 'ridderheimsCard', recipe: 'ridderheimsCard', news: 'mynewsdeskCard' },
    gtinPrefix: '73',
  },
  {
    id: 'mestariforsmanfi',
    kind: 'brand',
    productKind: 'retail-product',
    productGroups: ['sausages', 'cold-cuts', 'ham', 'bacon', 'pate'],
    products: 90,
    recipeMains: ['sausage', 'ham', 'bacon', 'pork', 'beef'],
    recipes: 60,
    news: { fi: 10 },
    newsKind: 'cision',
    newsTemplates: brandNews,
    cards: { product: 'MFProductCard', recipe: 'recipeCard', news: 'cisionCard' },
    gtinPrefix: '64',
  },
  {
    id: 'lithellsse',
    kind: 'brand',
    productKind: 'retail-product',
    productGroups: ['sausages', 'ham', 'meatballs', 'cold-cuts', 'bacon'],
    products: 90,
    recipeMains: ['sausage', 'meatballs', 'ham', 'bacon', 'mince'],
    recipes: 80,
    news: { sv: 10 },
    newsKind: 'mynewsdesk',
    newsTemplates: brandNews,
    cards: { product: 'headerImageSquare', recipe: 'recipeCard', news: 'mynewsdeskCard' },
    gtinPrefix: '73',
  },
  {
    id: 'lonnebergase',
    kind: 'brand',
    productKind: 'retail-product',
    productGroups: ['sausages', 'ham', 'cold-cuts', 'bacon'],
    products: 70,
    recipeMains: ['sausage', 'ham', 'bacon', 'pork'],
    recipes: 60,
    news: { sv: 8 },
    newsKind: 'mynewsdesk',
    newsTemplates: brandNews,
    cards: { product: 'headerImageSquare', recipe: 'recipeCard', news: 'mynewsdeskCard' },
    gtinPrefix: '73',
  },
  {
    id: 'goohse',
    kind: 'brand',
    productKind: 'retail-product',
    productGroups: ['ready-meals', 'meatballs'],
    products: 50,
    recipeMains: ['mince', 'chicken', 'sausage', 'meatballs', 'beef'],
    recipes: 25,
    news: { sv: 8 },
    newsKind: 'mynewsdesk',
    newsTemplates: brandNews,
    cards: { product: 'headerImageWide', recipe: 'recipeCard', news: 'mynewsdeskCard' },
    gtinPrefix: '73',
  },
  {
    id: 'sibylla',
    kind: 'brand',
    productKind: 'retail-product',
    productGroups: ['hot-dogs', 'burgers'],
    products: 40,
    recipeMains: allMains,
    recipes: 30,
    news: { fi: 10, sv: 10, en: 6 },
    newsKind: 'cision',
    newsTemplates: ['launch', 'season', 'welfare', 'sponsorship', 'event'],
    cards: { product: 'sibyllaCard', recipe: 'sibyllaCard', news: 'cisionCard' },
    gtinPrefix: '73',
  },
];

export function profileOf(siteId: string): SiteProfile {
  const profile = profiles.find((p) => p.id === siteId);
  if (!profile) throw new Error(`no seed profile for site ${siteId}`);
  return profile;
}
