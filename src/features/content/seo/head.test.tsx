import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { getSite } from '../../../sites/registry.ts';
import type { Site } from '../../../sites/types.ts';
import { jsonLdText, SeoHead, type SeoHeadProps } from './head.tsx';
import {
  contentPageSeo,
  homeSeo,
  newsSeo,
  productSeo,
  recipeSeo,
  type SeoContext,
} from './page-seo.ts';
import {
  breadcrumbProblems,
  jsonLdOf,
  newsArticleProblems,
  organizationProblems,
  productProblems,
  recipeProblems,
} from './rich-results.test-support.ts';

function site(id: string): Site {
  const found = getSite(id);
  if (!found) throw new Error(id);
  return found;
}

const sibylla = site('sibylla');
const lihakauppa = site('lihakauppa');
const ORIGIN = 'https://www.sibylla.example';

function render(props: SeoHeadProps): string {
  return renderToString(<SeoHead {...props} />);
}

/** The `<link rel="alternate">` elements: hreflang → href. */
function alternatesOf(html: string): Map<string, string> {
  const links = [...html.matchAll(/<link rel="alternate" hrefLang="([^"]+)" href="([^"]+)"\/>/g)];
  return new Map(links.map((m) => [m[1] ?? '', m[2] ?? '']));
}

function attr(html: string, property: string): string | undefined {
  const re = new RegExp(`<meta property="${property}" content="([^"]*)"/>`);
  return re.exec(html)?.[1];
}

const versions = [
  { lang: 'fi', path: '/reseptit/nakkikastike' },
  { lang: 'sv', path: '/recept/korvsas' },
  { lang: 'en', path: '/recipes/sausage-sauce' },
];

const crumbs = [
  { name: 'Hem', href: '/sv/' },
  { name: 'Recept', href: '/sv/recept' },
  { name: 'Korvsås', href: '/sv/recept/korvsas' },
];

const svContext: SeoContext = {
  site: sibylla,
  lang: 'sv',
  origin: ORIGIN,
  path: '/recept/korvsas',
  versions,
  crumbs,
};

const recipe = {
  title: 'Korvsås',
  teaser: 'En klassiker till vardags.',
  yield: 4,
  totalTimeMinutes: 30,
  steps: [
    {
      heading: 'Sås',
      instructions: 'Fräs korven och tillsätt grädden.',
      ingredients: [
        { name: 'korv', amount: 400, unit: 'g' },
        { name: 'grädde', amount: 2, unit: 'dl' },
      ],
    },
  ],
  nutrients: [{ code: 'energy', name: 'Energi', amount: 450, unit: 'kcal' }],
  publishedAt: new Date('2024-01-10T10:00:00Z'),
  updatedAt: new Date('2024-02-10T10:00:00Z'),
};

const images = [
  { src: '/images/4/korvsas.jpg?preset=card-wide', width: 800, height: 450, alt: 'Korvsås' },
  { src: '/images/4/korvsas.jpg?preset=card-square', width: 600, height: 600, alt: 'Korvsås' },
];

describe('SeoHead', () => {
  it('links the canonical URL and every language version, itself and x-default included', () => {
    const html = render(recipeSeo(svContext, recipe, images));
    expect(html).toContain(`<link rel="canonical" href="${ORIGIN}/sv/recept/korvsas"/>`);
    expect(Object.fromEntries(alternatesOf(html))).toEqual({
      fi: `${ORIGIN}/reseptit/nakkikastike`,
      sv: `${ORIGIN}/sv/recept/korvsas`,
      en: `${ORIGIN}/en/recipes/sausage-sauce`,
      'x-default': `${ORIGIN}/reseptit/nakkikastike`,
    });
  });

  it('gives every version the same set, each naming itself', () => {
    const sets = versions.map((v) =>
      alternatesOf(
        render(
          recipeSeo({ ...svContext, lang: v.lang as 'fi' | 'sv' | 'en', path: v.path }, recipe, []),
        ),
      ),
    );
    for (const set of sets) expect(set).toEqual(sets[0]);
    const fi = render(
      recipeSeo({ ...svContext, lang: 'fi', path: versions[0]?.path ?? '' }, recipe, []),
    );
    expect(fi).toContain(`<link rel="canonical" href="${ORIGIN}/reseptit/nakkikastike"/>`);
  });

  it('lists only the versions that exist, and none for content in one language', () => {
    const two = render(
      recipeSeo({ ...svContext, versions: versions.filter((v) => v.lang !== 'en') }, recipe, []),
    );
    expect([...alternatesOf(two).keys()].sort()).toEqual(['fi', 'sv', 'x-default']);
    const withoutDefault = render(
      recipeSeo({ ...svContext, versions: versions.filter((v) => v.lang !== 'fi') }, recipe, []),
    );
    expect([...alternatesOf(withoutDefault).keys()].sort()).toEqual(['en', 'sv']);
    const alone = render(
      recipeSeo({ ...svContext, versions: [{ lang: 'sv', path: '/recept/korvsas' }] }, recipe, []),
    );
    expect(alternatesOf(alone).size).toBe(0);
    expect(alone).toContain('<link rel="canonical"');
  });

  it('ignores versions in languages the site does not have', () => {
    const html = render(
      productSeo(
        {
          site: lihakauppa,
          lang: 'fi',
          origin: 'https://shop.example',
          path: '/tuotteet/a',
          versions: [
            { lang: 'fi', path: '/tuotteet/a' },
            { lang: 'en', path: '/products/a' },
          ],
        },
        { ...product, priceCents: null },
        [],
      ),
    );
    expect(alternatesOf(html).size).toBe(0);
  });

  it('writes Open Graph and Twitter card tags', () => {
    const html = render(recipeSeo(svContext, recipe, images));
    expect(attr(html, 'og:type')).toBe('article');
    expect(attr(html, 'og:title')).toBe('Korvsås');
    expect(attr(html, 'og:description')).toBe('En klassiker till vardags.');
    expect(attr(html, 'og:url')).toBe(`${ORIGIN}/sv/recept/korvsas`);
    expect(attr(html, 'og:site_name')).toBe('Sibylla');
    // Swedish on a Finnish site is Finland-Swedish.
    expect(attr(html, 'og:locale')).toBe('sv_FI');
    const alternateLocales = [
      ...html.matchAll(/<meta property="og:locale:alternate" content="([^"]+)"\/>/g),
    ].map((m) => m[1]);
    expect(alternateLocales).toEqual(['fi_FI', 'en_GB']);
    expect(attr(html, 'og:image')).toBe(`${ORIGIN}/images/4/korvsas.jpg?preset=card-wide`);
    expect(attr(html, 'og:image:width')).toBe('800');
    expect(attr(html, 'og:image:height')).toBe('450');
    expect(attr(html, 'og:image:alt')).toBe('Korvsås');
    expect(attr(html, 'article:published_time')).toBe('2024-01-10T10:00:00.000Z');
    expect(attr(html, 'article:modified_time')).toBe('2024-02-10T10:00:00.000Z');
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image"/>');
    const plain = render(recipeSeo(svContext, recipe, []));
    expect(plain).toContain('<meta name="twitter:card" content="summary"/>');
    expect(plain).not.toContain('og:image');
  });

  it('Swedish sites use sv_SE', () => {
    const html = render(
      homeSeo({
        site: site('delise'),
        lang: 'sv',
        origin: 'https://deli.example',
        path: '/',
        versions: [],
      }),
    );
    expect(attr(html, 'og:locale')).toBe('sv_SE');
  });
});

describe('JSON-LD in the script element', () => {
  const evil = 'Makkara </script><script>alert(1)</script> <!-- \u2028 \u2029 & > "quoted"';

  it('cannot be closed or commented out by the data, and parses back to the same value', () => {
    const html = render(
      recipeSeo({ ...svContext, crumbs: [] }, { ...recipe, title: evil, teaser: evil }, images),
    );
    const scripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)];
    // Exactly one script element: the title did not end it or start another.
    expect(scripts).toHaveLength(1);
    expect(scripts[0]?.[0]).toMatch(/^<script type="application\/ld\+json">/);
    const text = scripts[0]?.[1] ?? '';
    expect(text).not.toMatch(/[<>\u2028\u2029]/);
    expect(text).not.toContain('<!--');
    expect(text).toContain('\\u003c/script\\u003e');
    expect(text).toContain('\\u2028');
    const [data] = jsonLdOf(html);
    expect(data?.name).toBe(evil);
    // The attribute copies are escaped by React as usual.
    expect(attr(html, 'og:title')).toBe(
      'Makkara &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &lt;!-- \u2028 \u2029 &amp; &gt; &quot;quoted&quot;',
    );
  });

  it('escapes with \\u sequences that JSON.parse reads back', () => {
    const value = { a: '</script>', b: '\u2028\u2029', c: '&<>' };
    const text = jsonLdText(value);
    expect(text).toBe(
      '{"a":"\\u003c/script\\u003e","b":"\\u2028\\u2029","c":"\\u0026\\u003c\\u003e"}',
    );
    expect(JSON.parse(text)).toEqual(value);
  });
});

const product = {
  name: 'Grillimakkara 400 g',
  teaser: 'Mehevä grillimakkara.',
  descriptionHtml: '<p>Mehevä.</p>',
  code: '123456',
  gtin: '6410405082657',
  weightGrams: 400,
  priceCents: 1290 as number | null,
  stock: null,
};

describe('each page type’s head', () => {
  const shopContext: SeoContext = {
    site: lihakauppa,
    lang: 'fi',
    origin: 'https://shop.example',
    path: '/tuotteet/makkarat/grillimakkara-400-g',
    versions: [{ lang: 'fi', path: '/tuotteet/makkarat/grillimakkara-400-g' }],
    crumbs: [
      { name: 'Etusivu', href: '/' },
      { name: 'Tuotteet', href: '/tuotteet' },
      { name: 'Grillimakkara 400 g', href: '/tuotteet/makkarat/grillimakkara-400-g' },
    ],
  };

  it('recipe: Recipe and BreadcrumbList with what search engines require', () => {
    const seo = recipeSeo(svContext, recipe, images, [
      { category: 'Maträtt', name: 'Middag' },
      { category: 'Huvudingrediens', name: 'Korv' },
    ]);
    const [data, trail, ...rest] = jsonLdOf(render(seo));
    expect(rest).toEqual([]);
    expect(recipeProblems(data ?? {})).toEqual([]);
    expect(data).toMatchObject({
      url: `${ORIGIN}/sv/recept/korvsas`,
      image: [
        `${ORIGIN}/images/4/korvsas.jpg?preset=card-wide`,
        `${ORIGIN}/images/4/korvsas.jpg?preset=card-square`,
      ],
      recipeCategory: 'Middag',
      keywords: 'Middag, Korv',
      recipeIngredient: ['400 g korv', '2 dl grädde'],
      nutrition: { '@type': 'NutritionInformation', calories: '450 kcal' },
      author: { '@type': 'Organization', name: 'Sibylla', url: `${ORIGIN}/sv/` },
    });
    expect(breadcrumbProblems(trail ?? {})).toEqual([]);
    expect(trail?.itemListElement).toEqual([
      { '@type': 'ListItem', position: 1, name: 'Hem', item: `${ORIGIN}/sv/` },
      { '@type': 'ListItem', position: 2, name: 'Recept', item: `${ORIGIN}/sv/recept` },
      { '@type': 'ListItem', position: 3, name: 'Korvsås', item: `${ORIGIN}/sv/recept/korvsas` },
    ]);
  });

  it('shop product: Product with an Offer', () => {
    const seo = productSeo(shopContext, product, [
      {
        src: '/images/7/grillimakkara.jpg?preset=default',
        width: 1200,
        height: 900,
        alt: 'Pakkaus',
      },
    ]);
    expect(seo.type).toBe('product');
    expect(seo.description).toBe('Mehevä grillimakkara.');
    const [data, trail] = jsonLdOf(render(seo));
    expect(productProblems(data ?? {}, { shop: true })).toEqual([]);
    expect(data).toMatchObject({
      url: 'https://shop.example/tuotteet/makkarat/grillimakkara-400-g',
      image: ['https://shop.example/images/7/grillimakkara.jpg?preset=default'],
      offers: {
        price: '12.90',
        priceCurrency: 'EUR',
        availability: 'https://schema.org/InStock',
        url: 'https://shop.example/tuotteet/makkarat/grillimakkara-400-g',
      },
    });
    expect(breadcrumbProblems(trail ?? {})).toEqual([]);
  });

  it('brand product: Product without offers', () => {
    const [data] = jsonLdOf(render(productSeo(shopContext, { ...product, priceCents: null }, [])));
    expect(productProblems(data ?? {}, { shop: false })).toEqual([]);
  });

  it('news release: NewsArticle with people as authors and the brand as publisher', () => {
    const seo = newsSeo(
      {
        site: site('konsernifi'),
        lang: 'en',
        origin: 'https://kattaus.example',
        path: '/news/results',
        versions: [
          { lang: 'fi', path: '/uutiset/tulos' },
          { lang: 'en', path: '/news/results' },
        ],
      },
      {
        title: 'Kattaus publishes its results',
        teaser: 'Net sales grew.',
        publishDate: new Date('2024-05-01T06:00:00Z'),
        updatedAt: new Date('2024-05-01T06:00:00Z'),
        authors: ['Maija Meikäläinen'],
      },
      [{ src: '/images/9/results.jpg?preset=default', width: 1200, height: 800, alt: '' }],
    );
    const html = render(seo);
    const [data] = jsonLdOf(html);
    expect(newsArticleProblems(data ?? {})).toEqual([]);
    expect(data?.publisher).toMatchObject({
      name: 'Kattaus',
      url: 'https://kattaus.example/en/',
      logo: { url: 'https://kattaus.example/favicon.svg' },
    });
    expect(html).toContain(
      '<link rel="canonical" href="https://kattaus.example/en/news/results"/>',
    );
    // No modification after publishing: no modified time.
    expect(html).not.toContain('article:modified_time');
    expect(html).not.toContain('og:image:alt');
  });

  it('home page: WebSite and Organization, no breadcrumbs', () => {
    const seo = homeSeo({
      site: sibylla,
      lang: 'en',
      origin: ORIGIN,
      path: '/',
      versions: [
        { lang: 'fi', path: '/' },
        { lang: 'sv', path: '/' },
        { lang: 'en', path: '/' },
      ],
      crumbs: [{ name: 'Home', href: '/en/' }],
    });
    expect(seo.canonical).toBe(`${ORIGIN}/en/`);
    expect(seo.description).toBe(sibylla.tagline.en);
    const html = render(seo);
    const [website, organization, ...rest] = jsonLdOf(html);
    expect(rest).toEqual([]);
    expect(website).toMatchObject({ '@type': 'WebSite', url: `${ORIGIN}/en/`, name: 'Sibylla' });
    expect(organizationProblems(organization ?? {})).toEqual([]);
    expect(Object.fromEntries(alternatesOf(html))).toEqual({
      fi: `${ORIGIN}/`,
      sv: `${ORIGIN}/sv/`,
      en: `${ORIGIN}/en/`,
      'x-default': `${ORIGIN}/`,
    });
  });

  it('content page: SEO title and description win over title and teaser', () => {
    const ctx: SeoContext = {
      site: sibylla,
      lang: 'fi',
      origin: ORIGIN,
      path: '/yritys',
      versions: [],
      crumbs: [
        { name: 'Etusivu', href: '/' },
        { name: 'Yritys', href: '/yritys' },
      ],
    };
    const page = {
      path: '/yritys',
      type: 'content',
      title: 'Yritys',
      teaser: 'Tietoa meistä.',
      seoTitle: 'Tietoa Sibyllasta',
      seoDescription: null,
    };
    const seo = contentPageSeo(ctx, page);
    expect(seo).toMatchObject({
      title: 'Tietoa Sibyllasta',
      description: 'Tietoa meistä.',
      type: 'website',
      canonical: `${ORIGIN}/yritys`,
    });
    const [trail] = jsonLdOf(render(seo));
    expect(breadcrumbProblems(trail ?? {})).toEqual([]);
    // The home page row goes the home page's way.
    expect(
      contentPageSeo({ ...ctx, path: '/' }, { ...page, path: '/', type: 'home' }).jsonLd,
    ).toHaveLength(2);
  });

  it('a paginated listing is its own canonical from page 2 on', () => {
    const ctx: SeoContext = {
      site: sibylla,
      lang: 'fi',
      origin: ORIGIN,
      path: '/reseptit',
      versions: [],
    };
    const page = {
      path: '/reseptit',
      type: 'recipe-list',
      title: 'Reseptit',
      teaser: '',
      seoTitle: null,
      seoDescription: null,
    };
    expect(contentPageSeo({ ...ctx, pageNumber: 1 }, page).canonical).toBe(`${ORIGIN}/reseptit`);
    expect(contentPageSeo({ ...ctx, pageNumber: 3 }, page).canonical).toBe(
      `${ORIGIN}/reseptit?page=3`,
    );
  });

  it('cuts long descriptions and encodes non-ASCII paths', () => {
    const seo = contentPageSeo(
      { site: sibylla, lang: 'fi', origin: ORIGIN, path: '/yritys/työpaikat', versions: [] },
      {
        path: '/yritys/työpaikat',
        type: 'content',
        title: 'Työpaikat',
        teaser: 'Sana '.repeat(60),
        seoTitle: null,
        seoDescription: null,
      },
    );
    expect([...(seo.description ?? '')].length).toBeLessThanOrEqual(160);
    expect(seo.canonical).toBe(`${ORIGIN}/yritys/ty%C3%B6paikat`);
  });
});
