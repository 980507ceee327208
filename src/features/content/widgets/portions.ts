/**
 * The portion calculator's arithmetic (spec shop-and-widgets §5 and §9), free of React so it is
 * tested on its own and shared by the server render and the island.
 *
 * - Finnish rules: the portion count steps by 1 and the portion size by 10, without bounds.
 *   Amounts are shown to three decimals with a decimal comma.
 * - Swedish rules: portions 1–1000 and portion size 150–650; a value outside is ignored (the
 *   previous one stays). Amounts are shown to one decimal.
 * - Both: an amount scales by (count × size) / (default count × default size). An ingredient
 *   whose amount is zero or less (or missing) shows no amount.
 * - Finnish net total: count × size plus the fixed difference between the recipe's total yield
 *   and default count × default size (what cooking adds or loses stays the same).
 */

export type PortionRules = 'fi' | 'sv';

export interface PortionBase {
  /** The recipe's portion count (`Yield`). */
  yield: number;
  /** The recipe's portion size in grams (`PortionSize`). */
  portionSize: number;
  /** The recipe's total yield in kilograms (`TotalYieldKg`), when it gives one. */
  totalYieldKg: number | null;
}

export interface Portions {
  count: number;
  size: number;
}

export const PORTION_STEPS = { count: 1, size: 10 } as const;
export const SWEDISH_LIMITS = {
  count: { min: 1, max: 1000 },
  size: { min: 150, max: 650 },
} as const;

/** The decimals amounts are shown with under each rule set. */
export const PORTION_DECIMALS: Record<PortionRules, number> = { fi: 3, sv: 1 };

/** The factor every amount is multiplied by for `portions`. */
export function scaleFactor(base: PortionBase, portions: Portions): number {
  const original = base.yield * base.portionSize;
  if (original <= 0) return 1;
  return (portions.count * portions.size) / original;
}

/** An ingredient's amount for `portions`; null when the amount is hidden (zero, less or none). */
export function scaledAmount(
  amount: number | null | undefined,
  base: PortionBase,
  portions: Portions,
): number | null {
  if (amount === null || amount === undefined || !(amount > 0)) return null;
  return amount * scaleFactor(base, portions);
}

/** A number with a fixed number of decimals and a decimal comma: 1.5 → '1,500' (3 decimals). */
export function formatAmount(value: number, rules: PortionRules): string {
  const fixed = value.toFixed(PORTION_DECIMALS[rules]);
  // -0.000 reads oddly; a value that rounds to zero is zero.
  return (Number(fixed) === 0 ? (0).toFixed(PORTION_DECIMALS[rules]) : fixed).replace('.', ',');
}

/**
 * The Finnish net total in kilograms: count × size, plus the fixed difference between the total
 * yield and default count × default size. Null when the recipe gives no total yield.
 */
export function netTotalKg(base: PortionBase, portions: Portions): number | null {
  if (base.totalYieldKg === null) return null;
  const difference = base.totalYieldKg - (base.yield * base.portionSize) / 1000;
  return (portions.count * portions.size) / 1000 + difference;
}

/**
 * The value a field takes when the visitor types or steps to `next`: under Finnish rules any
 * finite number; under Swedish rules a whole number within the field's limits, otherwise the
 * previous value (an out-of-range value is ignored).
 */
export function acceptPortionValue(
  rules: PortionRules,
  field: keyof Portions,
  previous: number,
  next: number,
): number {
  if (!Number.isFinite(next)) return previous;
  if (rules === 'fi') return next;
  const { min, max } = SWEDISH_LIMITS[field];
  return Number.isInteger(next) && next >= min && next <= max ? next : previous;
}

/** One step up (+1) or down (−1) of a field: by 1 for the count, by 10 for the size. */
export function stepPortions(
  rules: PortionRules,
  portions: Portions,
  field: keyof Portions,
  direction: 1 | -1,
): Portions {
  const next = portions[field] + direction * PORTION_STEPS[field];
  return { ...portions, [field]: acceptPortionValue(rules, field, portions[field], next) };
}

/** Swedish recipes list ingredients in their `order` when they carry one; others as stored. */
export function orderedIngredients<I extends { order?: number | undefined }>(
  rules: PortionRules,
  ingredients: readonly I[],
): I[] {
  if (rules !== 'sv') return [...ingredients];
  return ingredients
    .map((ingredient, index) => ({ ingredient, index }))
    .sort(
      (a, b) =>
        (a.ingredient.order ?? Number.MAX_SAFE_INTEGER) -
          (b.ingredient.order ?? Number.MAX_SAFE_INTEGER) || a.index - b.index,
    )
    .map((x) => x.ingredient);
}

/** The query parameters of the calculator's plain GET form (the fields' names). */
export const PORTION_QUERY = { count: 'count', size: 'size' } as const;

/**
 * The portions a recipe page is rendered at: its own, or those of the calculator's GET form
 * (`?count=…&size=…`, sent without script), each taken by the same rules as a typed value (under
 * Swedish rules an out-of-range value is ignored). Anything but one short number is ignored.
 */
export function portionsFromQuery(
  rules: PortionRules,
  base: PortionBase,
  query: unknown,
): Portions {
  const portions: Portions = { count: base.yield, size: base.portionSize };
  if (typeof query !== 'object' || query === null) return portions;
  for (const field of ['count', 'size'] as const) {
    const raw = (query as Record<string, unknown>)[PORTION_QUERY[field]];
    if (typeof raw !== 'string' || raw.trim() === '' || raw.length > 12) continue;
    const next = Number(raw.trim().replace(',', '.'));
    portions[field] = acceptPortionValue(rules, field, portions[field], next);
  }
  return portions;
}
