import type { Nutrient, RecipeIngredient, RecipeStep } from '../src/features/content/tables.ts';
import type { Lang } from '../src/sites/types.ts';
import { type Seeding, type SiteLang, sectionPath, uniquePath } from './context.ts';
import { daysFromEpoch, type RecipeRow } from './model.ts';
import type { Random } from './random.ts';
import type { SiteProfile } from './sites.ts';
import { lowerFirst, slugify } from './text.ts';
import { vocabularies } from './vocabulary/index.ts';
import type {
  Course,
  Dish,
  Ingredient,
  PrefixKey,
  SuffixKey,
  Vocabulary,
} from './vocabulary/types.ts';

/** One recipe of a site, the same in each of its languages. */
export interface RecipeConcept {
  dish: string;
  prefix?: PrefixKey;
  suffix?: SuffixKey;
  servings: number;
  portionSize: number | null;
  likeCount: number;
  days: number;
  teaserEnd: number;
  nutrients: [number, number, number, number, number];
}

/** Sides and additions that suit each course. */
const suffixesByCourse: Record<Course, readonly SuffixKey[]> = {
  sauce: ['mash', 'rice', 'potatoes', 'mushrooms', 'paprika', 'chili', 'garlic'],
  soup: ['bread', 'chili', 'vegetables', 'garlic'],
  pasta: ['pesto', 'feta', 'bacon', 'mushrooms', 'paprika', 'garlic', 'cheese'],
  casserole: ['bacon', 'cheese', 'mushrooms', 'vegetables', 'feta'],
  oven: ['potatoes', 'vegetables', 'feta', 'garlic', 'cheese', 'bacon'],
  grill: ['potatoes', 'salad', 'garlic', 'chili', 'vegetables'],
  salad: ['feta', 'bread', 'pesto', 'bacon'],
  wok: ['rice', 'coconut', 'chili', 'vegetables', 'garlic'],
  snack: ['cheese', 'chili', 'salad', 'bacon'],
  stew: ['mash', 'rice', 'potatoes', 'mushrooms', 'bread'],
};
const prefixKeys: readonly PrefixKey[] = [
  'creamy',
  'spicy',
  'easy',
  'quick',
  'light',
  'festive',
  'classic',
  'lemony',
];

function dishOf(v: Vocabulary, key: string): Dish {
  const dish = v.dishes.find((d) => d.key === key);
  if (!dish) throw new Error(`dish ${key} missing`);
  return dish;
}

/** Suffixes that do not repeat what the dish already has (no 'bacon pasta with bacon'). */
function suffixesFor(v: Vocabulary, dish: Dish): SuffixKey[] {
  const names = new Set(dish.ingredients.map((i) => i[2]));
  return suffixesByCourse[dish.course].filter((key) => {
    const extra = v.suffixes[key].ingredient;
    return !extra || (!names.has(extra[2]) && extra[3] !== dish.ingredients[0]?.[3]);
  });
}

/**
 * A site's recipes: first every dish as it is, then dishes with one modifier (creamy, with
 * pesto…), then with two, round-robin over dishes so the variety is even.
 */
export function recipeConcepts(
  profile: SiteProfile,
  langs: readonly Lang[],
  rng: Random,
  count: number,
): RecipeConcept[] {
  const vs = langs.map((l) => vocabularies[l]);
  const [primary] = vs;
  if (!primary || count === 0) return [];
  const dishes = primary.dishes.filter(
    (d) =>
      profile.recipeMains.includes(d.main) &&
      vs.every((v) => v.dishes.some((x) => x.key === d.key)),
  );
  const queues = rng.shuffle(dishes).map((dish) => {
    const suffixes = suffixesFor(primary, dish);
    const singles: [PrefixKey | undefined, SuffixKey | undefined][] = [
      ...prefixKeys.map((p) => [p, undefined] as [PrefixKey, undefined]),
      ...suffixes.map((x) => [undefined, x] as [undefined, SuffixKey]),
    ];
    const doubles: [PrefixKey, SuffixKey][] = [];
    for (const p of prefixKeys) for (const x of suffixes) doubles.push([p, x]);
    return {
      dish,
      combos: [[undefined, undefined], ...rng.shuffle(singles), ...rng.shuffle(doubles)] as [
        PrefixKey | undefined,
        SuffixKey | undefined,
      ][],
    };
  });
  const foodService = profile.kind === 'foodservice';
  const concepts: RecipeConcept[] = [];
  for (let round = 0; concepts.length < count; round++) {
    let added = false;
    for (const q of queues) {
      const combo = q.combos[round];
      if (!combo || concepts.length >= count) continue;
      added = true;
      const [prefix, suffix] = combo;
      concepts.push({
        dish: q.dish.key,
        ...(prefix ? { prefix } : {}),
        ...(suffix ? { suffix } : {}),
        servings: foodService ? rng.pick([20, 50, 50, 100]) : rng.pick([4, 4, 4, 6]),
        portionSize: foodService ? rng.int(12, 35) * 10 : null,
        likeCount: rng.int(0, 900),
        days: -rng.int(5, 1000),
        teaserEnd: rng.int(0, 99),
        nutrients: [
          rng.int(350, 750),
          rng.int(10, 40),
          rng.int(10, 70),
          rng.int(20, 45),
          rng.decimal(1, 3.5, 1),
        ],
      });
    }
    if (!added) break;
  }
  return concepts;
}

export function recipeTitle(lang: Lang, c: RecipeConcept): string {
  const v = vocabularies[lang];
  const dish = dishOf(v, c.dish);
  let title = dish.title;
  if (c.prefix) {
    const p = v.prefixes[c.prefix];
    const word = dish.form === 'pl' ? p.pl : dish.form === 'ett' ? (p.ett ?? p.sg) : p.sg;
    title = `${word} ${lowerFirst(title)}`;
  }
  if (c.suffix) title = `${title} ${v.suffixes[c.suffix].text}`;
  return title;
}

const bigger: Record<string, [string, number]> = {
  g: ['kg', 1000],
  dl: ['l', 10],
  ml: ['l', 1000],
};

/** An ingredient amount for `factor` times the servings, in the unit a kitchen would use. */
function scale(amount: number | null, unit: string, factor: number): [number | null, string] {
  if (amount === null || factor === 1) return [amount, unit];
  const scaled = amount * factor;
  const up = bigger[unit];
  if (up && scaled >= up[1]) return [Math.round((scaled / up[1]) * 10) / 10, up[0]];
  if (['kpl', 'st', 'pcs'].includes(unit)) return [Math.ceil(scaled), unit];
  return [Math.round(scaled * 10) / 10, unit];
}

function ingredient(
  s: SiteLang,
  [amount, unit, name, family]: Ingredient,
  factor: number,
): RecipeIngredient {
  const [a, u] = scale(amount, unit, factor);
  const url = family ? s.productByFamily.get(family)?.path : undefined;
  return { name, amount: a, unit: u, ...(url ? { url } : {}) };
}

export async function addRecipe(
  seeding: Seeding,
  versions: SiteLang[],
  c: RecipeConcept,
  translationKey: string,
) {
  const [first] = versions;
  if (!first) return;
  // One picture per dish and prefix, shared by its variations with sides: alt without the side.
  const { suffix: _side, ...plain } = c;
  const alt = Object.fromEntries(versions.map((s) => [s.lang, recipeTitle(s.lang, plain)]));
  const imageId = await seeding.images.get({
    kind: 'recipe',
    seed: `recipe:${first.lang}:${c.dish}:${c.prefix ?? ''}`,
    alt,
  });
  for (const s of versions) {
    const row = seeding.content.add(
      'recipes',
      recipeRow(s, c, imageId, translationKey),
    ) as RecipeRow;
    s.recipes.push(row);
  }
}

export function recipeRow(
  s: SiteLang,
  c: RecipeConcept,
  imageId: number,
  translationKey: string,
  pathSuffix = '',
): Omit<RecipeRow, 'id'> {
  const { v, lang } = s;
  const dish = dishOf(v, c.dish);
  const title = recipeTitle(lang, c);
  const factor = c.servings / 4;
  const extra = c.suffix ? v.suffixes[c.suffix] : undefined;
  const [main, ...rest] = dish.ingredients;
  const fill = (text: string) =>
    text.replaceAll('{main}', main?.[2] ?? '').replaceAll('{title}', lowerFirst(title));
  const templates = v.steps[dish.course];
  const steps: RecipeStep[] = templates.map(([heading, instructions], i) => {
    const last = i === templates.length - 1;
    const ingredients: Ingredient[] = i === 0 ? (main ? [main] : []) : i === 1 ? rest : [];
    if (last && extra?.ingredient) ingredients.push(extra.ingredient);
    return {
      heading,
      instructions:
        last && extra?.step ? `${fill(instructions)} ${extra.step}` : fill(instructions),
      ingredients: ingredients.map((x) => ingredient(s, x, factor)),
    };
  });
  const diets = new Set(dish.diets ?? []);
  if (c.prefix === 'light') diets.add('light');
  if (c.suffix === 'bread') diets.delete('gluten-free');
  if (c.suffix === 'cheese' || c.suffix === 'feta' || c.prefix === 'creamy')
    diets.delete('lactose-free');
  const tag = (id: number | undefined) => (id === undefined ? [] : [id]);
  const courseTag = tag(s.facets.course[dish.course]);
  const minutes = Math.max(
    10,
    dish.minutes +
      (c.prefix === 'quick' ? -5 : 0) +
      (c.suffix === 'potatoes' || c.suffix === 'mash' ? 10 : 0),
  );
  const [kcal, fat, carbohydrate, protein, salt] = c.nutrients;
  const nutrients: Nutrient[] =
    lang === 'sv' && v.nutrientNames
      ? [
          { code: 'ENERC_KCAL', name: v.nutrientNames.energy, amount: kcal, unit: 'kcal' },
          { code: 'FAT', name: v.nutrientNames.fat, amount: fat, unit: 'g' },
          { code: 'CHOAVL', name: v.nutrientNames.carbohydrate, amount: carbohydrate, unit: 'g' },
          { code: 'PROT', name: v.nutrientNames.protein, amount: protein, unit: 'g' },
          { code: 'NACL', name: v.nutrientNames.salt, amount: salt, unit: 'g' },
        ]
      : [];
  const foodService = c.portionSize !== null;
  return {
    siteId: s.site.id,
    lang,
    path: uniquePath(s, sectionPath.recipeCourse(s, dish.course), slugify(title) + pathSuffix),
    title,
    teaser:
      `${dish.teaser} ${v.recipeTeaserEnd[c.teaserEnd % v.recipeTeaserEnd.length] ?? ''}`.trim(),
    imageId,
    yield: c.servings,
    portionSize: c.portionSize,
    portionUnit: foodService ? 'g' : null,
    totalYieldKg:
      foodService && c.portionSize ? Math.round((c.servings * c.portionSize) / 100) / 10 : null,
    totalTimeMinutes: minutes,
    steps,
    nutrients,
    facetTagIds: [
      ...tag(s.facets.main[dish.main]),
      ...courseTag,
      ...tag(s.facets.method[dish.method]),
      ...[...diets].flatMap((d) => tag(s.facets.diet[d])),
    ],
    categoryIds: courseTag,
    equipment: foodService
      ? [
          v.recipe.fsEquipment[c.likeCount % v.recipe.fsEquipment.length] ?? '',
          v.recipe.equipment[dish.method],
        ]
      : [v.recipe.equipment[dish.method]],
    likeCount: c.likeCount,
    translationKey,
    publishedAt: daysFromEpoch(c.days, 6),
    updatedAt: daysFromEpoch(Math.min(0, c.days + 14), 6),
  };
}

export function dishCourse(lang: Lang, c: RecipeConcept): Course {
  return dishOf(vocabularies[lang], c.dish).course;
}
