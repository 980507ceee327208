/**
 * Checks of JSON-LD against what Google's rich results need (developers.google.com/search/docs/
 * appearance/structured-data): the required properties, and the recommended ones we promise to
 * send. Each check returns a list of problems; a test expects it to be empty. Test support only.
 */

type Json = Record<string, unknown>;

const ABSOLUTE_URL = /^https?:\/\/[^\s/]+\/\S*$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;
const ISO_DURATION = /^P(?!$)(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$/;
const SCHEMA_AVAILABILITY =
  /^https:\/\/schema\.org\/(InStock|OutOfStock|PreOrder|BackOrder|SoldOut|Discontinued|LimitedAvailability|OnlineOnly|InStoreOnly)$/;

function check(problems: string[], ok: boolean, message: string) {
  if (!ok) problems.push(message);
}

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

function images(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) {
    return value.map((v) => (typeof v === 'string' ? v : String((v as Json)?.url ?? '')));
  }
  if (value && typeof value === 'object') return [String((value as Json).url ?? '')];
  return [];
}

function typed(value: unknown, ...types: string[]): boolean {
  return !!value && typeof value === 'object' && types.includes(String((value as Json)['@type']));
}

function people(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}

function common(problems: string[], data: Json, type: string) {
  check(problems, data['@context'] === 'https://schema.org', '@context is https://schema.org');
  check(problems, data['@type'] === type, `@type is ${type}`);
}

function imageList(problems: string[], data: Json) {
  const list = images(data.image);
  check(problems, list.length > 0, 'image is required');
  for (const url of list) check(problems, ABSOLUTE_URL.test(url), `image ${url} is absolute`);
}

function authorList(problems: string[], value: unknown) {
  const list = people(value);
  check(problems, list.length > 0, 'author is given');
  for (const a of list) {
    check(problems, typed(a, 'Person', 'Organization'), 'author is a Person or Organization');
    check(problems, nonEmptyString((a as Json)?.name), 'author has a name');
  }
}

/** Recipe: required name, image; recommended author, datePublished, description,
 * recipeIngredient, recipeInstructions, recipeYield, totalTime. */
export function recipeProblems(data: Json): string[] {
  const problems: string[] = [];
  common(problems, data, 'Recipe');
  check(problems, nonEmptyString(data.name), 'name is required');
  imageList(problems, data);
  authorList(problems, data.author);
  check(problems, ISO_DATE.test(String(data.datePublished)), 'datePublished is an ISO 8601 date');
  check(problems, nonEmptyString(data.description), 'description is given');
  const ingredients = data.recipeIngredient;
  check(
    problems,
    Array.isArray(ingredients) && ingredients.length > 0 && ingredients.every(nonEmptyString),
    'recipeIngredient is a list of strings',
  );
  const steps = data.recipeInstructions;
  check(
    problems,
    Array.isArray(steps) &&
      steps.length > 0 &&
      steps.every((s) => typed(s, 'HowToStep') && nonEmptyString((s as Json).text)),
    'recipeInstructions is a list of HowToStep with text',
  );
  check(
    problems,
    nonEmptyString(data.recipeYield) || typeof data.recipeYield === 'number',
    'recipeYield is given',
  );
  check(problems, ISO_DURATION.test(String(data.totalTime)), 'totalTime is an ISO 8601 duration');
  if (data.cookTime !== undefined || data.prepTime !== undefined) {
    check(
      problems,
      ISO_DURATION.test(String(data.cookTime)) && ISO_DURATION.test(String(data.prepTime)),
      'cookTime and prepTime come together, as ISO 8601 durations',
    );
  }
  if (data.nutrition !== undefined) {
    check(problems, typed(data.nutrition, 'NutritionInformation'), 'nutrition type');
  }
  return problems;
}

/** Product: required name; a shop product also offers.price, priceCurrency and availability. */
export function productProblems(data: Json, options: { shop: boolean }): string[] {
  const problems: string[] = [];
  common(problems, data, 'Product');
  check(problems, nonEmptyString(data.name), 'name is required');
  if (data.image !== undefined) imageList(problems, data);
  if (options.shop) {
    const offer = Array.isArray(data.offers) ? data.offers[0] : data.offers;
    check(problems, typed(offer, 'Offer'), 'offers is an Offer');
    const o = (offer ?? {}) as Json;
    check(
      problems,
      typeof o.price === 'string' ? /^\d+(\.\d+)?$/.test(o.price) : typeof o.price === 'number',
      'offers.price is a number with a dot as decimal separator',
    );
    check(problems, /^[A-Z]{3}$/.test(String(o.priceCurrency)), 'offers.priceCurrency is ISO 4217');
    check(
      problems,
      SCHEMA_AVAILABILITY.test(String(o.availability)),
      'offers.availability is a schema.org ItemAvailability',
    );
  } else {
    check(problems, data.offers === undefined, 'a product without a price has no offers');
  }
  return problems;
}

/** NewsArticle: headline (at most 110 characters), image, datePublished, author. */
export function newsArticleProblems(data: Json): string[] {
  const problems: string[] = [];
  common(problems, data, 'NewsArticle');
  check(
    problems,
    nonEmptyString(data.headline) && [...data.headline].length <= 110,
    'headline is given, at most 110 characters',
  );
  imageList(problems, data);
  check(problems, ISO_DATE.test(String(data.datePublished)), 'datePublished is an ISO 8601 date');
  if (data.dateModified !== undefined) {
    check(problems, ISO_DATE.test(String(data.dateModified)), 'dateModified is an ISO 8601 date');
  }
  authorList(problems, data.author);
  const publisher = data.publisher as Json | undefined;
  check(problems, typed(publisher, 'Organization'), 'publisher is an Organization');
  check(problems, nonEmptyString(publisher?.name), 'publisher has a name');
  return problems;
}

/** Organization: name, url, logo (absolute). */
export function organizationProblems(data: Json): string[] {
  const problems: string[] = [];
  common(problems, data, 'Organization');
  check(problems, nonEmptyString(data.name), 'name is given');
  check(problems, ABSOLUTE_URL.test(String(data.url)), 'url is absolute');
  const logo = images(data.logo);
  check(problems, logo.length === 1 && ABSOLUTE_URL.test(logo[0] ?? ''), 'logo is an absolute URL');
  return problems;
}

/** BreadcrumbList: at least two ListItems, positions 1…n, each with a name and an absolute item. */
export function breadcrumbProblems(data: Json): string[] {
  const problems: string[] = [];
  common(problems, data, 'BreadcrumbList');
  const items = Array.isArray(data.itemListElement) ? (data.itemListElement as Json[]) : [];
  check(problems, items.length >= 2, 'at least two items');
  items.forEach((item, i) => {
    check(problems, typed(item, 'ListItem'), `item ${i + 1} is a ListItem`);
    check(problems, item.position === i + 1, `item ${i + 1} has position ${i + 1}`);
    check(problems, nonEmptyString(item.name), `item ${i + 1} has a name`);
    check(problems, ABSOLUTE_URL.test(String(item.item)), `item ${i + 1} has an absolute URL`);
  });
  return problems;
}

/** The JSON-LD objects of an HTML fragment, parsed. */
export function jsonLdOf(html: string): Json[] {
  const scripts = [
    ...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g),
  ].map((m) => m[1] ?? '');
  return scripts.map((text) => JSON.parse(text) as Json);
}
