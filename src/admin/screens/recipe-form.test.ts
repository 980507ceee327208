import { describe, expect, it } from 'vitest';
import { diffDocuments, type RecipeDocument } from '../../features/content/admin.ts';
import { documentOf, emptyForm, formOf, moved, reapply, slugOf } from './recipe-form.ts';

/** The recipe editor's form (decision 162): typed values to a document, moves, reapplying. */
const doc: RecipeDocument = {
  path: '/reseptit/kookosbroileri',
  title: 'Kookosbroileri',
  teaser: '',
  imageId: 3,
  yield: 4,
  portionSize: 150.5,
  portionUnit: 'g',
  totalYieldKg: null,
  totalTimeMinutes: 30,
  steps: [
    {
      heading: 'Kastike',
      instructions: 'Paista.',
      ingredients: [
        { name: 'broileria', amount: 400, unit: 'g', url: '/tuotteet/broileri' },
        { name: 'suolaa', amount: null, unit: '' },
      ],
    },
  ],
  nutrients: [],
  facetTagIds: [1, 2],
  categoryIds: [2],
  equipment: ['pannu'],
};

describe('the recipe form', () => {
  it('gives back the document it was made from, decimals with a comma in the fields', () => {
    const form = formOf(doc);
    expect(form.portionSize).toBe('150,5');
    expect(documentOf(form)).toEqual({ document: doc });
  });

  it('names the fields that stop a save by the API’s field names; empty rows are no ingredients', () => {
    const form = emptyForm();
    form.totalTimeMinutes = '1,5';
    expect(documentOf(form)).toEqual({
      errors: {
        'document.title': 'admin.error.required',
        'document.path': 'admin.error.required',
        'document.totalTimeMinutes': 'admin.recipe.wholeNumber',
        'document.steps.0.instructions': 'admin.error.required',
      },
    });
    const half = formOf(doc);
    half.steps[0]?.ingredients.push({ key: 'x', name: '', amount: '2', unit: 'dl' });
    half.steps[0]?.ingredients.push({ key: 'y', name: '', amount: '', unit: '' });
    expect(documentOf(half)).toEqual({
      errors: { 'document.steps.0.ingredients.2.name': 'admin.error.required' },
    });
  });

  it('moves a row one place, and leaves the list as it was at its ends', () => {
    expect(moved(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moved(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moved(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });

  it('reapplies the editor’s changed fields on the newest version, keeping the others’', () => {
    const mine = { ...doc, title: 'Kookosbroileri limellä' };
    const newest = { ...doc, teaser: 'Toisen kirjoittama.', totalTimeMinutes: 40 };
    const merged = reapply(doc, mine, newest);
    expect(merged).toEqual({ ...newest, title: 'Kookosbroileri limellä' });
    expect(diffDocuments(newest, merged).map((c) => c.path)).toEqual(['title']);
  });

  it('makes a path from a title', () => {
    expect(slugOf('Kookosbroileri limellä & Äijän ölju')).toBe('kookosbroileri-limella-aijan-olju');
  });
});
