import type { RecipeDocument } from '../../features/content/admin.ts';

/**
 * The recipe editor's form as typed (numbers as the text in their fields), and the document it
 * stands for. Rows carry keys of their own so that moving one keeps its fields and focus.
 */
export interface IngredientRow {
  key: string;
  name: string;
  amount: string;
  unit: string;
  url?: string | undefined;
  order?: number | undefined;
}

export interface StepRow {
  key: string;
  heading: string;
  instructions: string;
  ingredients: IngredientRow[];
}

export interface RecipeForm {
  path: string;
  title: string;
  teaser: string;
  imageId: number | null;
  totalTimeMinutes: string;
  yield: string;
  portionSize: string;
  portionUnit: string;
  facetTagIds: number[];
  categoryIds: number[];
  steps: StepRow[];
  /** What the form does not edit, kept as it was. */
  kept: Pick<RecipeDocument, 'nutrients' | 'equipment' | 'totalYieldKg'>;
}

let made = 0;
export const newKey = () => {
  made += 1;
  return `row-${made}`;
};

const numberText = (n: number | null) => (n === null ? '' : String(n).replace('.', ','));

export const emptyIngredient = (): IngredientRow => ({
  key: newKey(),
  name: '',
  amount: '',
  unit: '',
});

export const emptyStep = (): StepRow => ({
  key: newKey(),
  heading: '',
  instructions: '',
  ingredients: [emptyIngredient()],
});

export function emptyForm(): RecipeForm {
  return {
    path: '',
    title: '',
    teaser: '',
    imageId: null,
    totalTimeMinutes: '',
    yield: '4',
    portionSize: '',
    portionUnit: '',
    facetTagIds: [],
    categoryIds: [],
    steps: [emptyStep()],
    kept: { nutrients: [], equipment: [], totalYieldKg: null },
  };
}

export function formOf(doc: RecipeDocument): RecipeForm {
  return {
    path: doc.path,
    title: doc.title,
    teaser: doc.teaser,
    imageId: doc.imageId,
    totalTimeMinutes: String(doc.totalTimeMinutes),
    yield: String(doc.yield),
    portionSize: numberText(doc.portionSize),
    portionUnit: doc.portionUnit ?? '',
    facetTagIds: [...doc.facetTagIds],
    categoryIds: [...doc.categoryIds],
    steps: doc.steps.map((step) => ({
      key: newKey(),
      heading: step.heading,
      instructions: step.instructions,
      ingredients: step.ingredients.map((i) => ({
        key: newKey(),
        name: i.name,
        amount: numberText(i.amount),
        unit: i.unit,
        ...(i.url === undefined ? {} : { url: i.url }),
        ...(i.order === undefined ? {} : { order: i.order }),
      })),
    })),
    kept: { nutrients: doc.nutrients, equipment: doc.equipment, totalYieldKg: doc.totalYieldKg },
  };
}

const decimal = (text: string): number | null | 'invalid' => {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return null;
  const n = Number(trimmed);
  return Number.isFinite(n) && n >= 0 ? n : 'invalid';
};

/**
 * The document the form stands for, or the errors (message keys by the API's field names) that
 * stop it being sent. The server checks it again with the same schema.
 */
export function documentOf(
  form: RecipeForm,
): { document: RecipeDocument } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const whole = (text: string, field: string) => {
    const n = Number(text.trim());
    if (text.trim() === '' || !Number.isInteger(n) || n < 1) {
      errors[field] = text.trim() === '' ? 'admin.error.required' : 'admin.recipe.wholeNumber';
      return 1;
    }
    return n;
  };
  if (!form.title.trim()) errors['document.title'] = 'admin.error.required';
  const path = form.path.trim();
  if (!/^(\/[a-z0-9åäö]+(?:-[a-z0-9åäö]+)*)+$/.test(path))
    errors['document.path'] = path ? 'admin.recipe.pathInvalid' : 'admin.error.required';
  const totalTimeMinutes = whole(form.totalTimeMinutes, 'document.totalTimeMinutes');
  const portions = whole(form.yield, 'document.yield');
  const portionSize = decimal(form.portionSize);
  if (portionSize === 'invalid' || portionSize === 0)
    errors['document.portionSize'] = 'admin.recipe.number';
  if (form.steps.length === 0) errors['document.steps'] = 'admin.recipe.stepsRequired';
  const steps = form.steps.map((step, s) => {
    if (!step.instructions.trim())
      errors[`document.steps.${s}.instructions`] = 'admin.error.required';
    return {
      heading: step.heading.trim(),
      instructions: step.instructions.trim(),
      ingredients: step.ingredients
        // A row left wholly empty is no ingredient.
        .filter((i) => i.name.trim() || i.amount.trim() || i.unit.trim())
        .map((i) => {
          const j = step.ingredients.indexOf(i);
          const amount = decimal(i.amount);
          if (amount === 'invalid')
            errors[`document.steps.${s}.ingredients.${j}.amount`] = 'admin.recipe.number';
          if (!i.name.trim())
            errors[`document.steps.${s}.ingredients.${j}.name`] = 'admin.error.required';
          return {
            name: i.name.trim(),
            amount: amount === 'invalid' ? null : amount,
            unit: i.unit.trim(),
            ...(i.url === undefined ? {} : { url: i.url }),
            ...(i.order === undefined ? {} : { order: i.order }),
          };
        }),
    };
  });
  if (Object.keys(errors).length > 0) return { errors };
  return {
    document: {
      path,
      title: form.title.trim(),
      teaser: form.teaser.trim(),
      imageId: form.imageId,
      yield: portions,
      portionSize: portionSize === 'invalid' ? null : portionSize,
      portionUnit: form.portionUnit.trim() || null,
      totalYieldKg: form.kept.totalYieldKg,
      totalTimeMinutes,
      steps,
      nutrients: form.kept.nutrients,
      facetTagIds: form.facetTagIds,
      categoryIds: form.categoryIds,
      equipment: form.kept.equipment,
    },
  };
}

/**
 * The editor's changes made again on the newest version: each field the editor changed from the
 * version they started on takes their value; every other field keeps the newest one's.
 */
export function reapply(
  base: RecipeDocument,
  mine: RecipeDocument,
  newest: RecipeDocument,
): RecipeDocument {
  const merged: Record<string, unknown> = { ...newest };
  for (const key of Object.keys(mine) as (keyof RecipeDocument)[]) {
    if (JSON.stringify(mine[key]) !== JSON.stringify(base[key])) merged[key] = mine[key];
  }
  return merged as RecipeDocument;
}

/** Moves the item at `from` one place up (-1) or down (+1); the list as it was at an end. */
export function moved<T>(list: readonly T[], from: number, by: -1 | 1): T[] {
  const to = from + by;
  if (to < 0 || to >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

/** A slug for a title: `Kookosbroileri limellä` → `kookosbroileri-limella`. */
export function slugOf(title: string): string {
  return title
    .toLowerCase()
    .replace(/[åä]/g, 'a')
    .replace(/ö/g, 'o')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
