import { type Block, type Card, pageBlocks } from '../src/features/content/blocks.ts';
import {
  newsCard as toNewsCard,
  productCard as toProductCard,
  recipeCard as toRecipeCard,
} from '../src/features/content/card-grid/cards.ts';
import { sites } from '../src/sites/registry.ts';
import type { Lang, Site } from '../src/sites/types.ts';
import { carouselBlocks } from './carousels.ts';
import { type Seeding, type SiteLang, sectionPath } from './context.ts';
import { formBlocks, hasSuccessPage } from './forms.ts';
import {
  daysFromEpoch,
  type NewsRow,
  type PageRow,
  type ProductRow,
  type RecipeRow,
} from './model.ts';
import { escapeHtml, list, paragraphs, slugify } from './text.ts';
import { vocabularies } from './vocabulary/index.ts';
import type { Course, PageKey, PageText, ProductGroupKey } from './vocabulary/types.ts';
import { schoolBlocks, widgetBlocks } from './widget-blocks.ts';

/** A page of the tree before it has a language: what it is and where it sits. */
interface Node {
  /** Language-neutral key: a page key, 'group:sausages', 'course:soup', 'brand:sibylla'… */
  key: string;
  type: string;
  text: (s: SiteLang) => PageText;
  children?: Node[];
  navArea?: 'top' | 'bottom';
  showInNav?: boolean;
  icon?: string;
  settings?: Record<string, unknown>;
  /** The page's title in any language, for the alt text of its shared teaser image. */
  altTitle: (lang: Lang) => string;
  /** Blocks after the page's text, from its children and all pages below it. */
  blocks?: (s: SiteLang, children: PageRow[], descendants: PageRow[]) => Block[];
}

const courseOrder: Course[] = [
  'sauce',
  'soup',
  'pasta',
  'casserole',
  'oven',
  'grill',
  'salad',
  'wok',
  'snack',
  'stew',
];

const countryBrands: Record<'fi' | 'se', Record<Lang, string>> = {
  fi: { fi: 'Suomalaiset brändit', sv: 'Finska varumärken', en: 'Finnish brands' },
  se: { fi: 'Ruotsalaiset brändit', sv: 'Svenska varumärken', en: 'Swedish brands' },
};

function page(key: PageKey, type = 'content', extra: Partial<Node> = {}): Node {
  return {
    key,
    type,
    text: (s) => s.v.pages[key],
    altTitle: (lang) => vocabularies[lang].pages[key].title,
    ...extra,
  };
}

function groupNode(group: ProductGroupKey): Node {
  return {
    key: `group:${group}`,
    type: 'product-list',
    altTitle: (lang) => vocabularies[lang].productGroups[group].name,
    settings: { numberOfProducts: 12 },
    text: (s) => {
      const g = s.v.productGroups[group];
      const names = s.products
        .filter((p) => p.path.startsWith(`${sectionPath.productGroup(s, group)}/`))
        .slice(0, 4);
      return {
        title: g.name,
        slug: g.slug,
        teaser: g.teaser,
        body: [g.teaser, names.map((p) => p.name).join(', ')],
      };
    },
  };
}

function courseNode(course: Course): Node {
  return {
    key: `course:${course}`,
    type: 'recipe-list',
    altTitle: (lang) => vocabularies[lang].facets.course.tags[course],
    settings: { pageSize: 12 },
    text: (s) => {
      const title = s.v.facets.course.tags[course];
      const examples = s.recipes
        .filter((r) => r.path.startsWith(`${sectionPath.recipeCourse(s, course)}/`))
        .slice(0, 3)
        .map((r) => r.title);
      const teaser = `${examples.join(', ')}…`;
      return { title, slug: slugify(title), teaser, body: [teaser] };
    },
  };
}

function brandNode(site: Site): Node {
  return {
    key: `brand:${site.id}`,
    type: 'content',
    altTitle: () => site.name,
    text: (s) => {
      const taglines = site.tagline as Partial<Record<Lang, string>>;
      const tagline = taglines[s.lang] ?? Object.values(taglines)[0] ?? '';
      return { title: site.name, slug: slugify(site.name), teaser: tagline, body: [tagline] };
    },
  };
}

function productSection(s: SiteLang, numberOfProducts = 12): Node {
  const groups = s.profile.productGroups.filter((g) =>
    s.products.some((p) => p.path.startsWith(`${sectionPath.productGroup(s, g)}/`)),
  );
  return page('products', 'product-list', {
    // The section page is the site's product search; the shop's searches its own catalogue. The
    // food-service search shows nothing until asked and offers the product groups as toggles.
    settings: {
      numberOfProducts,
      widget: s.site.id === 'lihakauppa' ? 'shop-product-search' : 'product-search',
      ...(s.profile.kind === 'foodservice' ? { hideResults: true, productGroups: true } : {}),
    },
    children: groups.map(groupNode),
    blocks: childCards,
  });
}

function recipeSection(s: SiteLang): Node[] {
  const courses = courseOrder.filter((c) =>
    s.recipes.some((r) => r.path.startsWith(`${sectionPath.recipeCourse(s, c)}/`)),
  );
  if (!courses.length) return [];
  return [
    page('recipes', 'recipe-list', {
      settings: { pageSize: 12, widget: 'recipe-search' },
      children: courses.map(courseNode),
      blocks: childCards,
    }),
  ];
}

function newsSection(s: SiteLang, children: Node[] = []): Node[] {
  return s.news.length
    ? [
        page('news', 'newsroom', {
          // The corporate newsrooms are searched with facets; the brands' list their releases.
          settings: {
            pageSize: 10,
            ...(s.profile.kind === 'corporate' ? { widget: 'newsroom-search' } : {}),
          },
          navArea: children.length ? 'bottom' : 'top',
          children,
        }),
      ]
    : [];
}

const tips = (): Node =>
  page('tips', 'content', {
    blocks: childCards,
    children: [
      page('tipsGrilling', 'content', {
        children: [page('tipsGrillGuide'), page('tipsMarinades'), page('tipsGrillCleaning')],
        blocks: childCards,
      }),
      page('tipsParties', 'content', {
        children: [page('tipsChristmas'), page('tipsMidsummer'), page('tipsBirthdays')],
        blocks: childCards,
      }),
      page('tipsEveryday', 'content', { blocks: recipeCards }),
      page('tipsLunchbox', 'content', { blocks: tallRecipeCards }),
      page('tipsFoodWaste'),
      page('tipsStorage'),
    ],
  });

const about = (): Node =>
  page('about', 'content', {
    blocks: childCards,
    children: [
      page('aboutStory'),
      page('aboutQuality'),
      page('aboutResponsibility', 'content', {
        blocks: childCards,
        children: [
          page('respAnimalWelfare'),
          page('respClimate'),
          page('respPackaging'),
          page('respNutrition'),
        ],
      }),
      page('aboutFaq'),
    ],
  });

/**
 * Where the site's contact, expert and sales forms go once sent: a thank-you page below the
 * contact page, out of the menus (spec forms §2). Sites without such a form have none.
 */
function successPage(s: SiteLang): string | undefined {
  return hasSuccessPage(s.site.id) ? sectionPath.contactThanks(s) : undefined;
}

function utility(s: SiteLang, contactSettings: Record<string, unknown> = {}): Node[] {
  return [
    page('contact', 'contact', {
      navArea: 'top',
      icon: 'phone',
      settings: contactSettings,
      children: successPage(s) ? [page('contactThanks', 'content', { showInNav: false })] : [],
      blocks: () => formBlocks(s.site.id, 'contact', successPage(s)),
    }),
    page('search', 'search', {
      navArea: 'top',
      showInNav: false,
      icon: 'search',
      settings: { contentGroup: s.site.id === 'delise' ? 1 : 0, pageSize: 10 },
    }),
    page('privacy', 'content', { navArea: 'top', showInNav: false }),
  ];
}

/** The page tree of a site: the same shape in each language, so versions share translation keys. */
function tree(s: SiteLang): Node[] {
  switch (s.profile.kind) {
    case 'corporate': {
      const country = (c: 'fi' | 'se'): Node => ({
        key: `brands:${c}`,
        type: 'content',
        altTitle: (lang) => countryBrands[c][lang],
        text: (x) => ({
          title: countryBrands[c][x.lang],
          slug: slugify(countryBrands[c][x.lang]),
          teaser: countryBrands[c][x.lang],
          body: [],
        }),
        children: sites
          .filter(
            (o) =>
              !o.corporate &&
              (c === 'fi') === (o.languages[0] === 'fi' && o.id !== 'sibylla') &&
              o.id !== 'export',
          )
          .map(brandNode),
        blocks: brandCards,
      });
      return [
        page('company', 'content', {
          blocks: (x, children) => [...widgetBlocks('company')(x), ...childCards(x, children)],
          children: [
            page('companyStrategy'),
            page('companyManagement'),
            page('companyHistory', 'content', {
              settings: { widget: 'timeline' },
              blocks: widgetBlocks('companyHistory'),
            }),
            page('companyPlants', 'content', {
              settings: { widget: 'map' },
              blocks: widgetBlocks('companyPlants'),
            }),
            page('investors', 'content', {
              children: [page('investorsReports'), page('investorsAgm')],
              blocks: childCards,
            }),
          ],
        }),
        page('brands', 'content', {
          children: [country('fi'), country('se'), brandNode(exportSite())],
          blocks: brandCards,
        }),
        page('responsibility', 'content', {
          blocks: childCards,
          children: [
            page('respAnimalWelfare'),
            page('respClimate'),
            page('respPackaging'),
            page('respNutrition'),
            page('respPeople'),
            page('respReports', 'content', { blocks: widgetBlocks('respReports') }),
          ],
        }),
        page('careers', 'content', {
          blocks: childCards,
          children: [
            page('careersOpenings', 'content', {
              settings: { widget: 'jobs' },
              blocks: widgetBlocks('careersOpenings'),
            }),
            page('careersSummer', 'content', { blocks: widgetBlocks('careersTab') }),
            page('careersWorking', 'content', { blocks: widgetBlocks('careersWorking') }),
            ...(s.lang === 'en'
              ? []
              : [
                  page('school', 'content', {
                    settings: { widget: 'school-material' },
                    blocks: (x) => [...schoolBlocks(x), ...formBlocks(s.site.id, 'school')],
                  }),
                ]),
          ],
        }),
        ...newsSection(s, [page('mediaBank'), page('mediaContacts')]),
        ...utility(s),
      ];
    }
    case 'shop':
      return [
        productSection(s, 24),
        ...recipeSection(s),
        page('tips', 'content', {
          blocks: childCards,
          children: [
            page('tipsGrilling', 'content', {
              children: [page('tipsGrillGuide'), page('tipsMarinades')],
              blocks: childCards,
            }),
            page('tipsParties', 'content', {
              children: [page('tipsChristmas'), page('tipsMidsummer')],
              blocks: childCards,
            }),
            page('tipsEveryday', 'content', { blocks: recipeCards }),
            page('tipsStorage'),
          ],
        }),
        page('shopDelivery', 'content', {
          blocks: childCards,
          children: [
            page('shopTerms'),
            page('shopGiftCards'),
            page('aboutFaq'),
            page('aboutQuality'),
          ],
        }),
        page('cart', 'cart', { navArea: 'top', showInNav: false, icon: 'cart' }),
        page('checkout', 'checkout', { navArea: 'top', showInNav: false }),
        ...newsSection(s),
        ...utility(s),
      ];
    case 'foodservice':
      return [
        productSection(s),
        ...recipeSection(s),
        page('fsIdeas', 'content', {
          blocks: childCards,
          children: [
            page('fsLunchMenu', 'content', { settings: { widget: 'lunch-menu' } }),
            page('fsSchools', 'content', { blocks: recipeCards }),
            page('fsSeasonal', 'content', {
              children: [page('tipsChristmas'), page('tipsMidsummer'), page('tipsGrilling')],
              blocks: childCards,
            }),
            page('tipsFoodWaste'),
            page('tipsStorage'),
          ],
        }),
        about(),
        page('fsSales', 'contact', {
          navArea: 'top',
          settings: { form: 'sales' },
          blocks: () => formBlocks(s.site.id, 'fsSales', successPage(s)),
        }),
        ...newsSection(s),
        ...utility(s),
      ];
    case 'export':
      return [
        productSection(s),
        page('about', 'content', {
          blocks: childCards,
          children: [
            page('aboutStory'),
            page('aboutQuality', 'content', {
              children: [page('exportCertificates')],
              blocks: childCards,
            }),
            page('aboutResponsibility', 'content', {
              blocks: childCards,
              children: [page('respAnimalWelfare'), page('respClimate'), page('respPackaging')],
            }),
            page('exportMarkets'),
          ],
        }),
        ...newsSection(s),
        ...utility(s, { form: 'export' }),
      ];
    default:
      return [
        productSection(s),
        ...recipeSection(s),
        tips(),
        about(),
        ...newsSection(s),
        ...utility(s),
      ];
  }
}

function exportSite(): Site {
  const found = sites.find((o) => o.id === 'export');
  if (!found) throw new Error('export site missing');
  return found;
}

// ----- blocks -----------------------------------------------------------------------------------

function compact<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(
    Object.entries(value).filter(([, x]) => x !== undefined && x !== null),
  ) as T;
}

export function productCard(s: SiteLang, p: ProductRow): Card {
  return toProductCard(p, { type: s.profile.cards.product, ctaButton: s.v.headings.toProduct });
}

export function recipeCard(s: SiteLang, r: RecipeRow): Card {
  return toRecipeCard(r, { type: s.profile.cards.recipe, ctaButton: s.v.headings.toRecipe });
}

export function newsCard(s: SiteLang, n: NewsRow): Card {
  return toNewsCard(n, { type: s.profile.cards.news, ctaButton: s.v.headings.readMore });
}

function childCards(s: SiteLang, children: PageRow[]): Block[] {
  const shown = children.filter((c) => c.showInNav !== false);
  if (!shown.length) return [];
  return [
    {
      type: 'card-grid',
      columns: shown.length % 4 === 0 ? 4 : 3,
      cardType: 'headerImageWide',
      cards: shown.map((c) =>
        compact({
          type: 'headerImageWide' as const,
          link: c.path,
          imageId: c.teaserImageId ?? undefined,
          header: c.title,
          ctaButton: s.v.headings.readMore,
          imagePreset: 'card-wide',
        }),
      ),
    },
  ];
}

/** Lunchbox ideas as extra tall picture cards. */
function tallRecipeCards(s: SiteLang): Block[] {
  return recipeCards(s).map((block) =>
    block.type === 'card-grid'
      ? {
          ...block,
          cardType: 'headerImageXtraTall' as const,
          cards: block.cards.map((card) => ({ ...card, type: 'headerImageXtraTall' as const })),
        }
      : block,
  );
}

function recipeCards(s: SiteLang): Block[] {
  if (!s.recipes.length) return [];
  const picks = s.recipes.filter((_, i) => i % 7 === 3).slice(0, 4);
  return [
    {
      type: 'card-grid',
      header: s.v.headings.popularRecipes,
      columns: 4,
      cardType: s.profile.cards.recipe,
      cards: picks.map((r) => recipeCard(s, r)),
    },
  ];
}

function brandCards(s: SiteLang, children: PageRow[], descendants: PageRow[]): Block[] {
  const brandPages = descendants.filter((c) => c.translationKey.includes('/brand:'));
  if (!brandPages.length) return childCards(s, children);
  return [
    {
      type: 'brand-cards',
      header: s.v.headings.ourBrands,
      cards: brandPages.map((c) =>
        compact({ link: c.path, imageId: c.teaserImageId ?? undefined, header: c.title }),
      ),
    },
  ];
}

async function homeBlocks(
  seeding: Seeding,
  s: SiteLang,
  sections: PageRow[],
  all: PageRow[],
): Promise<Block[]> {
  const { v, site } = s;
  const rng = seeding.rng.fork(`home:${site.id}`);
  // Indices, not texts: every language of the site picks the same slides and shares their images.
  const heroes = rng.sample(
    v.heroes.map((_, i) => i),
    rng.int(3, 4),
  );
  const targets = sections.filter((p) => p.showInNav !== false && p.navArea !== 'top');
  const slides = [];
  for (const [i, index] of heroes.entries()) {
    const hero = v.heroes[index];
    if (!hero) continue;
    const imageId = await seeding.images.get({
      kind: 'hero',
      seed: `hero:${site.id}:${i}`,
      alt: Object.fromEntries(
        (site.languages as readonly Lang[]).map((l) => [
          l,
          vocabularies[l].heroes[index]?.heading ?? '',
        ]),
      ),
    });
    const target = targets[i % Math.max(1, targets.length)];
    slides.push(
      compact({
        imageId,
        text: `<h2>${escapeHtml(hero.heading)}</h2><p>${escapeHtml(hero.text)}</p>`,
        textAlignment: i % 2 === 0 ? ('Center' as const) : ('Left' as const),
        darken: i % 2 === 0,
        link: target?.path,
      }),
    );
  }
  const taglines = site.tagline as Partial<Record<Lang, string>>;
  const blocks: Block[] = [
    { type: 'hero-carousel', slides },
    { type: 'rich-text', html: paragraphs([taglines[s.lang] ?? '', v.pages.home.body[0] ?? '']) },
  ];
  // The third brand's own carousel (spec §2): recipe pictures with their names.
  const pictured = s.recipes.flatMap((r) =>
    r.imageId ? [{ imageId: r.imageId, imgText: r.title }] : [],
  );
  if (site.header.variant === 'third-brand' && pictured.length >= 2) {
    const picks = pictured.filter((_, i) => i % 11 === 5).slice(0, 4);
    blocks.push({
      type: 'image-carousel',
      slides: picks.length >= 2 ? picks : pictured.slice(0, 4),
      autoplaySeconds: 5,
    });
  }
  if (s.products.length) {
    const products = [...s.products]
      .sort((a, b) => Number(b.isNovelty) - Number(a.isNovelty) || a.id - b.id)
      .slice(0, 8);
    blocks.push({
      type: 'card-grid',
      header: v.headings.newProducts,
      columns: 4,
      cardType: s.profile.cards.product,
      cards: products.map((p) => productCard(s, p)),
    });
  }
  if (s.recipes.length) {
    const recipes = [...s.recipes]
      .sort((a, b) => (b.likeCount ?? 0) - (a.likeCount ?? 0) || a.id - b.id)
      .slice(0, 16);
    // Filtered by course: each choice is the course's facet tag (GET /api/filtered-cards).
    const courses = courseOrder.filter((c) => {
      const tag = s.facets.course[c];
      return tag !== undefined && s.recipes.some((r) => r.facetTagIds?.includes(tag));
    });
    blocks.push({
      type: 'card-grid',
      header: v.headings.popularRecipes,
      columns: 4,
      cardType: s.profile.cards.recipe,
      cards: recipes.map((r) => recipeCard(s, r)),
      ...(courses.length
        ? {
            dropdownLabel: v.facets.course.name,
            dropdownItems: courses.map((c) => ({
              Id: s.facets.course[c] as number,
              Label: v.facets.course.tags[c],
            })),
          }
        : {}),
    });
  }
  if (s.news.length) {
    const news = [...s.news]
      .sort((a, b) => b.publishDate.getTime() - a.publishDate.getTime())
      .slice(0, site.corporate ? 6 : 3);
    blocks.push({
      type: 'card-grid',
      header: v.headings.latestNews,
      columns: 3,
      cardType: s.profile.cards.news,
      cards: news.map((n) => newsCard(s, n)),
    });
  }
  if (site.corporate) blocks.push(...brandCards(s, [], all));
  blocks.push(...carouselBlocks(s, all));
  return blocks;
}

// ----- rows ------------------------------------------------------------------------------------

/** Writes the home page and the tree of one site language; returns the pages in order. */
export async function seedPages(seeding: Seeding, s: SiteLang): Promise<PageRow[]> {
  const { content } = seeding;
  const out: PageRow[] = [];
  let index = 0;
  const base = (path: string, title: string, teaser: string, translationKey: string) => {
    index++;
    return {
      siteId: s.site.id,
      lang: s.lang,
      path,
      title,
      teaser,
      seoTitle: `${title} | ${s.site.name}`,
      seoDescription: teaser,
      translationKey,
      publishedAt: daysFromEpoch(-400 + (index % 50), 7),
      updatedAt: daysFromEpoch(-(index % 60), 7),
    };
  };
  const taglines = s.site.tagline as Partial<Record<Lang, string>>;
  const home = content.add('pages', {
    ...base('/', s.v.pages.home.title, taglines[s.lang] ?? s.v.pages.home.teaser, 'page:home'),
    parentId: null,
    type: 'home',
    blocks: [],
    settings: {},
    showInNav: false,
    navArea: 'bottom',
    sortOrder: 0,
  }) as PageRow;
  s.paths.add('/');
  out.push(home);

  const addNode = async (
    node: Node,
    parent: PageRow,
    keyPath: string,
    sortOrder: number,
    inherited: 'top' | 'bottom',
  ): Promise<PageRow> => {
    const text = node.text(s);
    const path = parent.path === '/' ? `/${text.slug}` : `${parent.path}/${text.slug}`;
    if (s.paths.has(path)) throw new Error(`duplicate page path ${s.site.id} ${s.lang} ${path}`);
    s.paths.add(path);
    const noTeaserImage =
      ['search', 'cart', 'checkout'].includes(node.type) ||
      ['privacy', 'contactThanks'].includes(node.key);
    const teaserImageId = noTeaserImage
      ? null
      : await seeding.images.get({
          kind: 'card',
          seed: `page:${node.key}`,
          // Shared by every site: alt in all three languages.
          alt: { fi: node.altTitle('fi'), sv: node.altTitle('sv'), en: node.altTitle('en') },
        });
    const navArea = node.navArea ?? inherited;
    const row = content.add('pages', {
      ...base(path, text.title, text.teaser, `page:${keyPath}`),
      parentId: parent.id,
      type: node.type,
      teaserImageId,
      blocks: [],
      settings: node.settings ?? {},
      showInNav: node.showInNav ?? true,
      navArea,
      icon: node.icon ?? null,
      sortOrder,
    }) as PageRow;
    out.push(row);
    const first = out.length;
    const children: PageRow[] = [];
    for (const [i, child] of (node.children ?? []).entries()) {
      children.push(await addNode(child, row, `${keyPath}/${child.key}`, i, navArea));
    }
    const bodyText = bodyParagraphs(text);
    const body = bodyText.length ? [{ type: 'rich-text' as const, html: bodyHtml(bodyText) }] : [];
    row.blocks = pageBlocks.parse([
      ...body,
      ...(node.blocks?.(s, children, out.slice(first)) ?? []),
    ]);
    return row;
  };
  const sections: PageRow[] = [];
  for (const [i, node] of tree(s).entries())
    sections.push(await addNode(node, home, node.key, i, 'bottom'));
  home.blocks = pageBlocks.parse(await homeBlocks(seeding, s, sections, out));
  return out;
}

/**
 * The body's paragraphs without the teaser: a page shows its teaser as the lead under its heading
 * (the sales page said "Ota yhteyttä myyntiimme." as its lead and again in bold), so the
 * body does not say it again.
 */
function bodyParagraphs(text: PageText): string[] {
  return text.body.filter((paragraph) => paragraph.trim() !== text.teaser.trim());
}

function bodyHtml(body: readonly string[]): string {
  const [first, ...rest] = body;
  return `${paragraphs(first ? [first] : [])}${rest.length > 1 ? list(rest) : paragraphs(rest)}`;
}
