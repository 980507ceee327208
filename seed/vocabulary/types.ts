/**
 * The shape every language's vocabulary follows. Keys (family, variant, dish, modifier, page and
 * news-template keys) are language-neutral, so a site with several languages renders the same thing
 * in each of them and the versions share a translation key.
 */

export type ProductGroupKey =
  | 'sausages'
  | 'hot-dogs'
  | 'cold-cuts'
  | 'ham'
  | 'bacon'
  | 'pate'
  | 'mince'
  | 'chicken'
  | 'beef'
  | 'pork'
  | 'ready-meals'
  | 'meatballs'
  | 'burgers'
  | 'gift-cards';

export interface ProductGroup {
  name: string;
  slug: string;
  /** One sentence for mega menus and listing pages. */
  teaser: string;
}

export type VariantListKey =
  | 'sausage'
  | 'coldCut'
  | 'marinade'
  | 'cut'
  | 'mince'
  | 'readyMeal'
  | 'fastFood'
  | 'export'
  | 'giftCard';

export interface Variant {
  key: string;
  /** The word in the product name ('juusto', 'ost', 'cheese'); empty for the plain product. */
  label: string;
  /** A sentence about what the variant adds. */
  text: string;
  /** Added to the ingredient list. */
  ingredient?: string;
}

/** Energy kcal, fat, saturated fat, carbohydrate, sugars, protein, salt per 100 g. */
export type NutritionTuple = readonly [number, number, number, number, number, number, number];

export interface ProductFamily {
  key: string;
  group: ProductGroupKey;
  name: string;
  /** The form that fits 'maistuvaa …' (Finnish partitive); the lower-case name elsewhere. */
  partitive: string;
  variants: VariantListKey;
  /** Consumer pack sizes in grams. */
  weights: readonly number[];
  /** Food-service pack sizes in grams. */
  bulk: readonly number[];
  ingredients: string;
  nutrition: NutritionTuple;
  /** One or two sentences of description. */
  text: string;
}

export type MainKey =
  | 'mince'
  | 'chicken'
  | 'sausage'
  | 'ham'
  | 'pork'
  | 'beef'
  | 'bacon'
  | 'meatballs'
  | 'vegetable';

export type Course =
  | 'sauce'
  | 'soup'
  | 'pasta'
  | 'casserole'
  | 'oven'
  | 'grill'
  | 'salad'
  | 'wok'
  | 'snack'
  | 'stew';

export type MethodKey = 'stove' | 'oven' | 'grill' | 'slow' | 'airfryer';
export type DietKey = 'gluten-free' | 'lactose-free' | 'dairy-free' | 'light';

/** amount (null: to taste), unit, name as the recipe says it, product family it can link to. */
export type Ingredient = readonly [number | null, string, string, string?];

export interface Dish {
  key: string;
  title: string;
  main: MainKey;
  course: Course;
  method: MethodKey;
  minutes: number;
  ingredients: readonly Ingredient[];
  teaser: string;
  diets?: readonly DietKey[];
  /** Grammatical form of the title for adjective agreement: plural, or Swedish neuter. */
  form?: 'pl' | 'ett';
}

export type PrefixKey =
  | 'creamy'
  | 'spicy'
  | 'easy'
  | 'quick'
  | 'light'
  | 'festive'
  | 'classic'
  | 'lemony';
export type SuffixKey =
  | 'pesto'
  | 'feta'
  | 'bacon'
  | 'mushrooms'
  | 'paprika'
  | 'mash'
  | 'rice'
  | 'potatoes'
  | 'salad'
  | 'chili'
  | 'garlic'
  | 'cheese'
  | 'coconut'
  | 'vegetables'
  | 'bread';

export interface Prefix {
  /** Singular (Swedish: common gender). */
  sg: string;
  pl: string;
  /** Swedish neuter. */
  ett?: string;
}

export interface Suffix {
  text: string;
  ingredient?: Ingredient;
  /** A sentence added to the last step. */
  step?: string;
}

export type NewsTopic =
  | 'finance'
  | 'sustainability'
  | 'products'
  | 'people'
  | 'production'
  | 'partnership'
  | 'events';

export type TextTypeKey = 'press' | 'stock' | 'news' | 'investor';

export interface Person {
  name: string;
  role: RoleKey;
}

export type RoleKey =
  | 'ceo'
  | 'cfo'
  | 'marketing'
  | 'sustainability'
  | 'production'
  | 'hr'
  | 'sales'
  | 'quality'
  | 'communications'
  | 'export';

export interface Role {
  /** 'talousjohtaja', 'ekonomidirektör', 'Chief Financial Officer'. */
  title: string;
  /** Finnish translative ('talousjohtajaksi'); the title elsewhere. */
  as: string;
}

export type PlantKey =
  | 'forssa'
  | 'seinajoki'
  | 'sakyla'
  | 'kuopio'
  | 'vantaa'
  | 'halmstad'
  | 'skara'
  | 'kristianstad';

export interface Plant {
  name: string;
  /** Finnish genitive ('Seinäjoen'); the name elsewhere. */
  of: string;
  /** Finnish locative ('Seinäjoella'); 'i Skara', 'in Forssa'. */
  at: string;
}

export interface NewsParams {
  brand: string;
  year: number;
  quarter: 1 | 2 | 3 | 4;
  plant: Plant;
  amount: number;
  percent: number;
  count: number;
  person: { name: string; role: Role };
  product: string;
  event: string;
  partner: string;
}

export interface NewsText {
  title: string;
  teaser: string;
  paragraphs: string[];
}

export type NewsTemplateKey =
  | 'report'
  | 'investment'
  | 'appointment'
  | 'launch'
  | 'emissions'
  | 'welfare'
  | 'award'
  | 'event'
  | 'summerJobs'
  | 'demand'
  | 'partnership'
  | 'expansion'
  | 'agm'
  | 'season'
  | 'sponsorship'
  | 'recipeTrend';

export interface NewsTemplate {
  topic: NewsTopic;
  textType: TextTypeKey;
  render: (p: NewsParams) => NewsText;
}

export type PageKey =
  | 'home'
  | 'products'
  | 'recipes'
  | 'tips'
  | 'tipsGrilling'
  | 'tipsGrillGuide'
  | 'tipsMarinades'
  | 'tipsGrillCleaning'
  | 'tipsParties'
  | 'tipsChristmas'
  | 'tipsMidsummer'
  | 'tipsBirthdays'
  | 'tipsEveryday'
  | 'tipsLunchbox'
  | 'tipsFoodWaste'
  | 'tipsStorage'
  | 'about'
  | 'aboutStory'
  | 'aboutQuality'
  | 'aboutResponsibility'
  | 'respAnimalWelfare'
  | 'respClimate'
  | 'respPackaging'
  | 'respNutrition'
  | 'aboutFaq'
  | 'search'
  | 'contact'
  | 'contactThanks'
  | 'news'
  | 'privacy'
  | 'company'
  | 'companyStrategy'
  | 'companyManagement'
  | 'companyHistory'
  | 'companyPlants'
  | 'brands'
  | 'responsibility'
  | 'respReports'
  | 'respPeople'
  | 'careers'
  | 'careersOpenings'
  | 'careersSummer'
  | 'careersWorking'
  | 'school'
  | 'media'
  | 'mediaBank'
  | 'mediaContacts'
  | 'investors'
  | 'investorsReports'
  | 'investorsAgm'
  | 'cart'
  | 'checkout'
  | 'shopDelivery'
  | 'shopTerms'
  | 'shopGiftCards'
  | 'fsIdeas'
  | 'fsLunchMenu'
  | 'fsSchools'
  | 'fsSeasonal'
  | 'fsSales'
  | 'exportMarkets'
  | 'exportCertificates';

export interface PageText {
  title: string;
  slug: string;
  teaser: string;
  /** Paragraphs of the page's rich text. */
  body: readonly string[];
}

export interface HeroText {
  heading: string;
  text: string;
}

export interface Vocabulary {
  productGroups: Record<ProductGroupKey, ProductGroup>;
  variants: Record<VariantListKey, readonly Variant[]>;
  families: readonly ProductFamily[];
  /** How a name, variant and weight make a product name. */
  productName: (name: string, variant: string, weight: string) => string;
  productTeasers: readonly ((f: ProductFamily) => string)[];
  /** Usage tips per product group, one per list item. */
  tips: Partial<Record<ProductGroupKey, readonly string[]>> & { default: readonly string[] };
  storage: readonly string[];
  foodService: { teaser: string; text: string; frozen: string };
  dishes: readonly Dish[];
  prefixes: Record<PrefixKey, Prefix>;
  suffixes: Record<SuffixKey, Suffix>;
  /** Steps per course: heading and instructions with {main}, {extra}, {title}. */
  steps: Record<Course, readonly (readonly [string, string])[]>;
  recipeTeaserEnd: readonly string[];
  facets: {
    main: { name: string; tags: Record<MainKey, string> };
    course: { name: string; tags: Record<Course, string> };
    method: { name: string; tags: Record<MethodKey, string> };
    diet: { name: string; tags: Record<DietKey, string> };
    productGroup: string;
    productDiet: string;
    newsTopic: { name: string; tags: Record<NewsTopic, string> };
    newsType: { name: string; tags: Record<TextTypeKey, string> };
  };
  /** Units and labels of recipes. */
  recipe: {
    servings: string;
    equipment: Record<MethodKey, string>;
    fsEquipment: readonly string[];
  };
  nutrientNames?: {
    energy: string;
    fat: string;
    carbohydrate: string;
    protein: string;
    salt: string;
  };
  news: Record<NewsTemplateKey, NewsTemplate>;
  roles: Record<RoleKey, Role>;
  plants: Record<PlantKey, Plant>;
  events: readonly string[];
  partners: readonly string[];
  contactLine: (person: string, role: string) => string;
  pages: Record<PageKey, PageText>;
  heroes: readonly HeroText[];
  headings: {
    newProducts: string;
    popularRecipes: string;
    latestNews: string;
    ourBrands: string;
    /** The corporate home's brand-logo carousel; another name than the brand cards' landmark. */
    brandLogos: string;
    readMore: string;
    toRecipe: string;
    toProduct: string;
    showAll: string;
  };
  giftCard: { name: (euros: number) => string; text: string };
}
