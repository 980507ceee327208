import { describe, expect, it } from 'vitest';
import {
  breadcrumbJsonLd,
  gtinProperty,
  ingredientLine,
  isoDuration,
  newsArticleJsonLd,
  nutritionInformation,
  organizationJsonLd,
  type ProductJsonLdInput,
  plainText,
  priceText,
  productJsonLd,
  type RecipeJsonLdInput,
  recipeJsonLd,
  truncate,
} from './json-ld.ts';
import {
  breadcrumbProblems,
  newsArticleProblems,
  organizationProblems,
  productProblems,
  recipeProblems,
} from './rich-results.test-support.ts';

type Json = Record<string, unknown>;

/** What a page would put in its script element, read back the way a crawler reads it. */
const roundTrip = (data: object): Json => JSON.parse(JSON.stringify(data)) as Json;

const brand = {
  name: 'Sibylla',
  url: 'https://sibylla.example/',
  logo: 'https://sibylla.example/favicon.svg',
};

const recipe: RecipeJsonLdInput = {
  url: 'https://sibylla.example/reseptit/jauhelihakastike',
  lang: 'fi',
  title: 'Jauhelihakastike',
  teaser: 'Arjen klassikko.',
  images: [
    'https://sibylla.example/images/3/jauhelihakastike.jpg?preset=card-wide',
    'https://sibylla.example/images/3/jauhelihakastike.jpg?preset=card-square',
  ],
  publishedAt: new Date('2024-03-01T08:00:00.000Z'),
  updatedAt: new Date('2024-04-02T09:30:00.000Z'),
  yield: 4,
  totalTimeMinutes: 75,
  steps: [
    {
      heading: 'Kastike',
      instructions: 'Ruskista jauheliha. Lisää kerma.',
      ingredients: [
        { name: 'jauhelihaa', amount: 400, unit: 'g' },
        { name: 'ruokakermaa', amount: 2.5, unit: 'dl' },
        { name: 'suolaa', amount: null, unit: '' },
      ],
    },
    { heading: '', instructions: 'Tarjoile perunoiden kanssa.', ingredients: [] },
    { heading: 'Tyhjä', instructions: '  ', ingredients: [] },
  ],
  nutrients: [],
  categories: ['Pääruoka'],
  keywords: ['Jauheliha', 'Pääruoka', 'Jauheliha'],
  brand,
};

describe('recipeJsonLd', () => {
  it('has what Google requires and recommends for a Recipe', () => {
    const data = roundTrip(recipeJsonLd(recipe));
    expect(recipeProblems(data)).toEqual([]);
    expect(data).toMatchObject({
      name: 'Jauhelihakastike',
      description: 'Arjen klassikko.',
      datePublished: '2024-03-01T08:00:00Z',
      dateModified: '2024-04-02T09:30:00Z',
      recipeYield: '4',
      totalTime: 'PT1H15M',
      recipeIngredient: ['400 g jauhelihaa', '2,5 dl ruokakermaa', 'suolaa'],
      recipeInstructions: [
        { '@type': 'HowToStep', name: 'Kastike', text: 'Ruskista jauheliha. Lisää kerma.' },
        { '@type': 'HowToStep', text: 'Tarjoile perunoiden kanssa.' },
      ],
      recipeCategory: 'Pääruoka',
      keywords: 'Jauheliha, Pääruoka',
      author: { '@type': 'Organization', name: 'Sibylla', url: 'https://sibylla.example/' },
      publisher: { '@type': 'Organization', name: 'Sibylla' },
    });
    expect(data.image).toEqual(recipe.images);
  });

  it('leaves out what it does not have rather than sending it empty', () => {
    const data = roundTrip(
      recipeJsonLd({
        ...recipe,
        teaser: '',
        images: [],
        steps: [],
        categories: [],
        keywords: [],
        totalTimeMinutes: 0,
      }),
    );
    for (const key of [
      'description',
      'image',
      'recipeIngredient',
      'recipeInstructions',
      'recipeCategory',
      'keywords',
      'totalTime',
      'nutrition',
      'aggregateRating',
      'cookTime',
    ]) {
      expect(data).not.toHaveProperty(key);
    }
    // And the validator notices what is missing.
    expect(recipeProblems(data)).toEqual(
      expect.arrayContaining(['image is required', 'totalTime is an ISO 8601 duration']),
    );
  });

  it('adds NutritionInformation when the recipe has nutrients', () => {
    const data = roundTrip(
      recipeJsonLd({
        ...recipe,
        lang: 'sv',
        nutrients: [
          { code: 'energy', name: 'Energi', amount: 512, unit: 'kcal' },
          { code: 'energy-kj', name: 'Energi', amount: 2140, unit: 'kJ' },
          { code: 'fat', name: 'Fett', amount: 24.04, unit: 'g' },
          { code: 'carbohydrate', name: 'Kolhydrater', amount: 40, unit: 'g' },
          { code: 'protein', name: 'Protein', amount: 30, unit: 'g' },
          { code: 'salt', name: 'Salt', amount: 2, unit: 'g' },
          { code: 'vitamin-x', name: 'Okänd', amount: 1, unit: 'mg' },
        ],
      }),
    );
    expect(data.nutrition).toEqual({
      '@type': 'NutritionInformation',
      calories: '512 kcal',
      fatContent: '24 g',
      carbohydrateContent: '40 g',
      proteinContent: '30 g',
      sodiumContent: '800 mg',
    });
    expect(recipeProblems(data)).toEqual([]);
  });
});

describe('recipe helpers', () => {
  it('writes durations in ISO 8601', () => {
    expect(isoDuration(75)).toBe('PT1H15M');
    expect(isoDuration(60)).toBe('PT1H');
    expect(isoDuration(20)).toBe('PT20M');
    expect(isoDuration(150)).toBe('PT2H30M');
    expect(isoDuration(0)).toBeUndefined();
  });

  it('writes ingredient lines in the recipe’s language', () => {
    expect(ingredientLine({ name: 'jauhelihaa', amount: 400, unit: 'g' }, 'fi')).toBe(
      '400 g jauhelihaa',
    );
    expect(ingredientLine({ name: 'grädde', amount: 0.5, unit: 'dl' }, 'sv')).toBe('0,5 dl grädde');
    expect(ingredientLine({ name: 'cream', amount: 1.25, unit: 'dl' }, 'en')).toBe('1.25 dl cream');
    expect(ingredientLine({ name: 'vettä', amount: 1500, unit: 'ml' }, 'fi')).toBe('1500 ml vettä');
    expect(ingredientLine({ name: 'pippuria', amount: null, unit: '' }, 'fi')).toBe('pippuria');
  });

  it('has no nutrition without nutrients it knows', () => {
    expect(nutritionInformation([])).toBeUndefined();
    expect(nutritionInformation([{ code: 'x', name: 'x', amount: 1, unit: 'g' }])).toBeUndefined();
  });
});

const product: ProductJsonLdInput = {
  url: 'https://lihakauppa.example/tuotteet/grillimakkara-400-g',
  lang: 'fi',
  name: 'Grillimakkara 400 g',
  teaser: 'Mehevä grillimakkara.',
  descriptionHtml:
    '<p>Mehevä &amp; <strong>mausteinen</strong>.</p><p>Grilliin&nbsp;ja pannulle.</p>',
  code: '123456',
  gtin: '6410405082657',
  weightGrams: 400,
  priceCents: 1290,
  stock: 12,
  images: ['https://lihakauppa.example/images/7/grillimakkara.jpg?preset=default'],
  brand: 'Lihakauppa',
};

describe('productJsonLd', () => {
  it('gives a shop product an Offer with price, currency and availability', () => {
    const data = roundTrip(productJsonLd(product));
    expect(productProblems(data, { shop: true })).toEqual([]);
    expect(data).toMatchObject({
      name: 'Grillimakkara 400 g',
      description: 'Mehevä & mausteinen. Grilliin ja pannulle.',
      sku: '123456',
      gtin13: '6410405082657',
      brand: { '@type': 'Brand', name: 'Lihakauppa' },
      weight: { '@type': 'QuantitativeValue', value: 400, unitCode: 'GRM' },
      offers: {
        '@type': 'Offer',
        price: '12.90',
        priceCurrency: 'EUR',
        availability: 'https://schema.org/InStock',
        url: product.url,
      },
    });
    expect(data.image).toEqual(product.images);
  });

  it('is in stock when the stock is unlimited (null), out of stock at 0', () => {
    const unlimited = roundTrip(productJsonLd({ ...product, stock: null }));
    expect((unlimited.offers as Json).availability).toBe('https://schema.org/InStock');
    const none = roundTrip(productJsonLd({ ...product, stock: 0 }));
    expect((none.offers as Json).availability).toBe('https://schema.org/OutOfStock');
    expect(productProblems(none, { shop: true })).toEqual([]);
  });

  it('carries priceValidUntil as a date when given', () => {
    const data = roundTrip(
      productJsonLd({ ...product, priceValidUntil: new Date('2025-12-31T21:59:00Z') }),
    );
    expect((data.offers as Json).priceValidUntil).toBe('2025-12-31');
  });

  it('is a plain Product without offers when it has no price (brand sites)', () => {
    const data = roundTrip(productJsonLd({ ...product, priceCents: null, stock: null }));
    expect(productProblems(data, { shop: false })).toEqual([]);
    expect(data).not.toHaveProperty('offers');
    // The shop rules would reject it: Google shows Product rich results only with an offer.
    expect(productProblems(data, { shop: true })).toContain('offers is an Offer');
  });

  it('carries an AggregateRating only when the product has reviews', () => {
    const data = roundTrip(
      productJsonLd({ ...product, rating: { averageRating: 4.3, reviewCount: 12 } }),
    );
    expect(data.aggregateRating).toEqual({
      '@type': 'AggregateRating',
      ratingValue: 4.3,
      reviewCount: 12,
      bestRating: 5,
      worstRating: 1,
    });
    expect(productProblems(data, { shop: true })).toEqual([]);
    const none = productJsonLd({ ...product, rating: { averageRating: null, reviewCount: 0 } });
    expect(roundTrip(none)).not.toHaveProperty('aggregateRating');
  });

  it('sends a GTIN only when its check digit is right', () => {
    expect(roundTrip(productJsonLd({ ...product, gtin: '6410405082658' }))).not.toHaveProperty(
      'gtin13',
    );
    expect(roundTrip(productJsonLd({ ...product, gtin: null }))).not.toHaveProperty('gtin13');
    expect(gtinProperty('6410405082657')).toEqual({ property: 'gtin13', value: '6410405082657' });
    expect(gtinProperty('96385074')).toEqual({ property: 'gtin8', value: '96385074' });
    expect(gtinProperty('036000291452')).toEqual({ property: 'gtin12', value: '036000291452' });
    expect(gtinProperty('abc')).toBeUndefined();
    expect(gtinProperty('641040508265')).toBeUndefined();
  });

  it('falls back to the teaser when the description is empty', () => {
    const data = roundTrip(productJsonLd({ ...product, descriptionHtml: '<p> </p>' }));
    expect(data.description).toBe('Mehevä grillimakkara.');
  });
});

describe('prices and text', () => {
  it('writes integer cents with a dot and two decimals', () => {
    expect(priceText(1290)).toBe('12.90');
    expect(priceText(5)).toBe('0.05');
    expect(priceText(100000)).toBe('1000.00');
    expect(priceText(0)).toBe('0.00');
  });

  it('takes plain text out of rich text', () => {
    expect(plainText('<p>A&nbsp;&amp;&#228;&#x2019;</p><script>x()</script><br>b')).toBe('A &ä’ b');
  });

  it('truncates at a word boundary with an ellipsis', () => {
    expect(truncate('short', 10)).toBe('short');
    const cut = truncate('Kattaus investoi uuteen tehtaaseen Forssassa', 30);
    expect([...cut].length).toBeLessThanOrEqual(30);
    expect(cut).toBe('Kattaus investoi uuteen…');
  });
});

describe('newsArticleJsonLd', () => {
  const release = {
    url: 'https://konsernifi.example/uutiset/tulos',
    lang: 'fi' as const,
    title: 'Kattaus julkaisee tuloksensa',
    teaser: 'Liikevaihto kasvoi.',
    images: ['https://konsernifi.example/images/9/tulos.jpg?preset=default'],
    publishDate: new Date('2024-05-01T06:00:00Z'),
    updatedAt: new Date('2024-05-02T07:00:00Z'),
    authors: ['Maija Meikäläinen', ' ', 'Matti Virtanen'],
    publisher: brand,
  };

  it('has headline, image, dates, authors as people and the brand as publisher', () => {
    const data = roundTrip(newsArticleJsonLd(release));
    expect(newsArticleProblems(data)).toEqual([]);
    expect(data).toMatchObject({
      headline: 'Kattaus julkaisee tuloksensa',
      datePublished: '2024-05-01T06:00:00Z',
      dateModified: '2024-05-02T07:00:00Z',
      author: [
        { '@type': 'Person', name: 'Maija Meikäläinen' },
        { '@type': 'Person', name: 'Matti Virtanen' },
      ],
      publisher: {
        '@type': 'Organization',
        name: 'Sibylla',
        logo: { '@type': 'ImageObject', url: 'https://sibylla.example/favicon.svg' },
      },
    });
  });

  it('names the organisation as author when no person is named', () => {
    const data = roundTrip(newsArticleJsonLd({ ...release, authors: [] }));
    expect(data.author).toEqual([expect.objectContaining({ '@type': 'Organization' })]);
    expect(newsArticleProblems(data)).toEqual([]);
  });

  it('keeps headlines within 110 characters', () => {
    const long = `${'Pitkä otsikko '.repeat(12)}loppu`;
    const data = roundTrip(newsArticleJsonLd({ ...release, title: long }));
    expect([...String(data.headline)].length).toBeLessThanOrEqual(110);
    expect(String(data.headline).endsWith('…')).toBe(true);
    expect(newsArticleProblems(data)).toEqual([]);
  });

  it('never has a modification before the publication', () => {
    const data = roundTrip(
      newsArticleJsonLd({ ...release, updatedAt: new Date('2024-04-01T00:00:00Z') }),
    );
    expect(data.dateModified).toBe(data.datePublished);
  });
});

describe('organizationJsonLd and breadcrumbJsonLd', () => {
  it('describe the brand with its logo', () => {
    const data = roundTrip(organizationJsonLd({ name: 'Sibylla' }, brand.url, brand.logo));
    expect(organizationProblems(data)).toEqual([]);
  });

  it('number the trail from 1 with absolute URLs', () => {
    const data = roundTrip(
      breadcrumbJsonLd([
        { name: 'Etusivu', url: 'https://sibylla.example/' },
        { name: 'Reseptit', url: 'https://sibylla.example/reseptit' },
        { name: 'Jauhelihakastike', url: recipe.url },
      ]),
    );
    expect(breadcrumbProblems(data)).toEqual([]);
    expect((data.itemListElement as Json[]).map((i) => i.position)).toEqual([1, 2, 3]);
  });
});
