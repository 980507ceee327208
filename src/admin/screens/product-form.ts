import {
  type NutritionDocument,
  type ProductDocument,
  productDocumentSchema,
} from '../../features/content/admin.ts';
import { formIssues, type Made } from './kind-form.ts';

/**
 * The product editor's form as typed (numbers as the text in their fields), and the document it
 * stands for (decision 171). The shop's operations' columns (price, stock, VAT class) are not in
 * either.
 */

/** The nutrition table's figures, in the order the product page shows them. */
export const NUTRITION_FIGURES = [
  'energyKj',
  'energyKcal',
  'fat',
  'saturatedFat',
  'carbohydrate',
  'sugars',
  'protein',
  'salt',
] as const;
export type NutritionFigure = (typeof NUTRITION_FIGURES)[number];

export interface ProductForm {
  path: string;
  kind: string;
  code: string;
  gtin: string;
  valoCode: string;
  shopCode: string;
  name: string;
  teaser: string;
  descriptionHtml: string;
  ingredients: string;
  imageIds: number[];
  categoryIds: number[];
  facetTagIds: number[];
  productGroup: string;
  isNovelty: boolean;
  weightGrams: string;
  /** Per what the figures are (`100 g` when left empty); no figures: no table. */
  nutritionPer: string;
  nutrition: Record<NutritionFigure, string>;
}

const numberText = (n: number | null | undefined) =>
  n === null || n === undefined ? '' : String(n).replace('.', ',');

const emptyFigures = () =>
  Object.fromEntries(NUTRITION_FIGURES.map((f) => [f, ''])) as Record<NutritionFigure, string>;

export function emptyProductForm(kind: string, listPath: string | null): ProductForm {
  return {
    path: listPath ? `${listPath}/` : '/',
    kind,
    code: '',
    gtin: '',
    valoCode: '',
    shopCode: '',
    name: '',
    teaser: '',
    descriptionHtml: '',
    ingredients: '',
    imageIds: [],
    categoryIds: [],
    facetTagIds: [],
    productGroup: '',
    isNovelty: false,
    weightGrams: '',
    nutritionPer: '',
    nutrition: emptyFigures(),
  };
}

export function productFormOf(doc: ProductDocument): ProductForm {
  const figures = emptyFigures();
  for (const f of NUTRITION_FIGURES) figures[f] = numberText(doc.nutrition?.[f]);
  return {
    path: doc.path,
    kind: doc.kind,
    code: doc.code,
    gtin: doc.gtin ?? '',
    valoCode: doc.valoCode ?? '',
    shopCode: doc.shopCode ?? '',
    name: doc.name,
    teaser: doc.teaser,
    descriptionHtml: doc.descriptionHtml,
    ingredients: doc.ingredients,
    imageIds: [...doc.imageIds],
    categoryIds: [...doc.categoryIds],
    facetTagIds: [...doc.facetTagIds],
    productGroup: doc.productGroup ?? '',
    isNovelty: doc.isNovelty,
    weightGrams: numberText(doc.weightGrams),
    nutritionPer: doc.nutrition?.per ?? '',
    nutrition: figures,
  };
}

const orNull = (text: string) => (text.trim() === '' ? null : text.trim());

function decimal(text: string): number | undefined | 'invalid' {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return undefined;
  const n = Number(trimmed);
  return Number.isFinite(n) && n >= 0 ? n : 'invalid';
}

/**
 * The document the form stands for, or the errors (message keys by the API's field names) that
 * stop it being sent. The server checks it again with the same schema, and the description with
 * the site's sanitiser.
 */
export function productDocumentOf(form: ProductForm): Made<ProductDocument> {
  const errors: Record<string, string> = {};
  const nutrition: Partial<NutritionDocument> = {};
  for (const f of NUTRITION_FIGURES) {
    const n = decimal(form.nutrition[f]);
    if (n === 'invalid') errors[`document.nutrition.${f}`] = 'admin.error.invalid';
    else if (n !== undefined) nutrition[f] = n;
  }
  const hasFigures = Object.keys(nutrition).length > 0;
  const weight = decimal(form.weightGrams);
  if (weight === 'invalid' || (typeof weight === 'number' && !Number.isInteger(weight))) {
    errors['document.weightGrams'] = 'admin.error.invalid';
  }
  const candidate = {
    path: form.path.trim(),
    kind: form.kind,
    code: form.code.trim(),
    gtin: orNull(form.gtin),
    valoCode: orNull(form.valoCode),
    shopCode: orNull(form.shopCode),
    name: form.name,
    teaser: form.teaser,
    descriptionHtml: form.descriptionHtml,
    ingredients: form.ingredients,
    imageIds: form.imageIds,
    categoryIds: form.categoryIds,
    facetTagIds: form.facetTagIds,
    productGroup: orNull(form.productGroup),
    isNovelty: form.isNovelty,
    // Figures without their basis are per 100 g, as on every package.
    nutrition: hasFigures ? { per: form.nutritionPer.trim() || '100 g', ...nutrition } : null,
    weightGrams: typeof weight === 'number' ? weight : null,
  };
  const parsed = productDocumentSchema.safeParse(candidate);
  if (!parsed.success) formIssues(parsed.error.issues, errors);
  if (Object.keys(errors).length > 0 || !parsed.success) return { errors };
  return { document: parsed.data };
}
