import { describe, expect, it } from 'vitest';
import type { ProductDocument } from '../../features/content/admin.ts';
import { emptyProductForm, productDocumentOf, productFormOf } from './product-form.ts';

const doc: ProductDocument = {
  path: '/tuotteet/jauhelihat/sika-nauta-jauheliha',
  kind: 'retail-product',
  code: '102107',
  gtin: '6410200001075',
  valoCode: null,
  shopCode: 'NS-100',
  name: 'Sika-nauta jauheliha 600 g',
  teaser: 'Herkullista arkeen.',
  descriptionHtml: '<p>Kypsytetty <strong>kolme viikkoa</strong>.</p>',
  ingredients: 'sianliha (60 %), naudanliha (40 %)',
  imageIds: [4, 9],
  categoryIds: [12],
  facetTagIds: [12, 15],
  productGroup: 'Jauhelihat',
  isNovelty: true,
  nutrition: { per: '100 g', energyKj: 978, fat: 17.7, salt: 0.2 },
  weightGrams: 600,
};

describe('the product form', () => {
  it('stands for the document it was made from, decimals typed with a comma', () => {
    const form = productFormOf(doc);
    expect(form.nutrition.fat).toBe('17,7');
    expect(form.nutrition.protein).toBe('');
    expect(productDocumentOf(form)).toEqual({ document: doc });
  });

  it('leaves out what was left empty: no codes, no nutrition table without figures', () => {
    const form = {
      ...emptyProductForm('retail-product', '/tuotteet'),
      path: '/tuotteet/uusi',
      code: 'U-1',
      name: 'Uusi',
    };
    const made = productDocumentOf(form);
    if (!('document' in made)) throw new Error(JSON.stringify(made.errors));
    expect(made.document).toMatchObject({
      gtin: null,
      shopCode: null,
      productGroup: null,
      nutrition: null,
      weightGrams: null,
    });
    const figures = productDocumentOf({ ...form, nutrition: { ...form.nutrition, protein: '21' } });
    expect('document' in figures && figures.document.nutrition).toEqual({
      per: '100 g',
      protein: 21,
    });
  });

  it('names the fields that stop it, by the API’s names', () => {
    const form = productFormOf(doc);
    const made = productDocumentOf({
      ...form,
      name: ' ',
      gtin: '123',
      weightGrams: '1,5',
      nutrition: { ...form.nutrition, salt: 'paljon' },
    });
    expect(made).toEqual({
      errors: {
        'document.name': 'admin.error.required',
        'document.gtin': 'admin.product.gtinInvalid',
        'document.weightGrams': 'admin.error.invalid',
        'document.nutrition.salt': 'admin.error.invalid',
      },
    });
  });
});
