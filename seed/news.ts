import { sites } from '../src/sites/registry.ts';
import type { Lang, Site } from '../src/sites/types.ts';
import { type Seeding, type SiteLang, sectionPath, uniquePath } from './context.ts';
import { EPOCH, type NewsRow } from './model.ts';
import type { Random } from './random.ts';
import type { SiteProfile } from './sites.ts';
import { escapeHtml, paragraphs, slugify } from './text.ts';
import { people, plantsByCountry } from './vocabulary/corporate.ts';
import { vocabularies } from './vocabulary/index.ts';
import type { NewsParams, NewsTemplateKey, NewsText, PlantKey } from './vocabulary/types.ts';

/** One release of a site, rendered in each language listed in `langs`. */
export interface NewsConcept {
  template: NewsTemplateKey;
  langs: Lang[];
  date: Date;
  year: number;
  quarter: 1 | 2 | 3 | 4;
  plant: PlantKey;
  amount: number;
  percent: number;
  count: number;
  person: number;
  product: { family: string; variant: string } | null;
  event: number;
  partner: number;
  brand: string;
  image: number;
}

/** Templates that name events or partners, which differ by country: not translated. */
const untranslated = new Set<NewsTemplateKey>(['event', 'award', 'partnership', 'sponsorship']);
const counts: Partial<Record<NewsTemplateKey, [number, number]>> = {
  investment: [10, 80],
  appointment: [10, 25],
  welfare: [5, 40],
  summerJobs: [150, 600],
  partnership: [2, 5],
  expansion: [20, 120],
  agm: [20, 60],
  season: [40, 90],
  sponsorship: [2, 4],
};
const THREE_YEARS = 1095;

/**
 * Releases that come once a year in their season: [month (0-based), days of spread, whether the
 * text is about the previous year].
 */
const annual: Partial<Record<NewsTemplateKey, [number, number, boolean]>> = {
  season: [3, 40, false],
  summerJobs: [0, 45, false],
  emissions: [2, 25, true],
  recipeTrend: [0, 20, true],
};

/** Interim reports and AGMs of the last three years, on their usual dates. */
function financialCalendar(): {
  template: NewsTemplateKey;
  date: Date;
  year: number;
  quarter: 1 | 2 | 3 | 4;
}[] {
  const out: { template: NewsTemplateKey; date: Date; year: number; quarter: 1 | 2 | 3 | 4 }[] = [];
  const from = EPOCH - THREE_YEARS * 86_400_000;
  for (let year = 2023; year <= 2026; year++) {
    const dates: [NewsTemplateKey, number, number, number, 1 | 2 | 3 | 4][] = [
      ['report', year + 1, 1, 12, 4],
      ['report', year, 3, 25, 1],
      ['report', year, 6, 18, 2],
      ['report', year, 9, 23, 3],
      ['agm', year, 3, 8, 4],
    ];
    for (const [template, y, month, day, quarter] of dates) {
      const date = new Date(Date.UTC(y, month, day, 6, 0));
      if (date.getTime() >= from && date.getTime() < EPOCH) {
        out.push({
          template,
          date,
          year: template === 'report' && quarter === 4 ? y - 1 : y,
          quarter,
        });
      }
    }
  }
  return out.sort((a, b) => a.date.getTime() - b.date.getTime());
}

function country(site: Site, profile: SiteProfile): 'fi' | 'se' {
  if (site.id === 'konsernifi') return 'fi';
  if (site.id === 'koncernse') return 'se';
  return profile.gtinPrefix === '64' ? 'fi' : 'se';
}

type Fixed = { template: NewsTemplateKey; date: Date; year: number; quarter: 1 | 2 | 3 | 4 };

/** A release with random parameters; `fixed` pins the template and date (financial calendar). */
export function randomNewsConcept(
  site: Site,
  profile: SiteProfile,
  langs: Lang[],
  rng: Random,
  fixed?: Fixed,
): NewsConcept {
  const home = country(site, profile);
  const personPool = people.map((_, i) => i).filter((i) => (home === 'fi' ? i < 10 : i >= 10));
  const brands = site.corporate
    ? sites.filter((s) => !s.corporate).map((s) => s.name)
    : [site.name];
  const templates = profile.newsTemplates.filter((t) => t !== 'report' && t !== 'agm');
  const template = fixed?.template ?? rng.pick(templates);
  const time = rng.int(6, 14) * 3_600_000 + rng.pick([0, 15, 30, 45]) * 60_000;
  let date = fixed?.date ?? new Date(EPOCH - rng.int(1, THREE_YEARS) * 86_400_000 + time);
  let year = fixed?.year ?? date.getUTCFullYear();
  const season = annual[template];
  if (!fixed && season) {
    const [month, spread, previous] = season;
    // The latest year whose season has begun before the epoch, or one of the two before it.
    const latest =
      new Date(EPOCH).getUTCFullYear() -
      (Date.UTC(new Date(EPOCH).getUTCFullYear(), month, spread) > EPOCH ? 1 : 0);
    const y = latest - rng.int(0, 2);
    date = new Date(Date.UTC(y, month, 1 + rng.int(0, spread - 1)) + time);
    year = previous ? y - 1 : y;
  }
  const [low, high] = counts[template] ?? [10, 50];
  return {
    template,
    langs,
    date,
    year,
    quarter: fixed?.quarter ?? rng.pick([1, 2, 3, 4] as const),
    plant: rng.pick(plantsByCountry[home]),
    amount: template === 'report' ? rng.int(180, 950) : rng.int(5, 60),
    percent: rng.int(2, 25),
    count: rng.int(low, high),
    person: rng.pick(personPool),
    product: pickProduct(profile, langs, rng),
    event: rng.int(0, 5),
    partner: rng.int(0, 5),
    brand: rng.pick(brands),
    image: rng.int(0, 11),
  };
}

/**
 * A site's releases over the three years before the epoch. Corporate sites get their financial
 * calendar first. A release is translated into the site's other languages while they still need
 * releases, unless its template names country-specific events or partners; those languages then
 * get releases of their own.
 */
export function newsConcepts(site: Site, profile: SiteProfile, rng: Random): NewsConcept[] {
  const langs = (site.languages as readonly Lang[]).filter((l) => (profile.news[l] ?? 0) > 0);
  const [primary, ...others] = langs;
  if (!primary) return [];
  const assigned: Partial<Record<Lang, number>> = {};
  const seen = new Set<string>();
  const make = (langsOf: Lang[], fixed?: Fixed): NewsConcept => {
    for (let attempt = 0; ; attempt++) {
      const concept = randomNewsConcept(site, profile, langsOf, rng, fixed);
      // Annual releases once a year; others by title.
      const key = annual[concept.template]
        ? `${langsOf[0]}:${concept.template}:${concept.year}`
        : `${langsOf[0]}:${renderNews(langsOf[0] ?? primary, concept).title}`;
      if (!seen.has(key) || attempt > 30) {
        seen.add(key);
        return concept;
      }
    }
  };
  const concepts: NewsConcept[] = [];
  const need = (l: Lang) => (profile.news[l] ?? 0) - (assigned[l] ?? 0);
  const translations = (template: NewsTemplateKey) =>
    untranslated.has(template) ? [] : others.filter((l) => need(l) > 0);
  const push = (c: NewsConcept) => {
    for (const l of c.langs) assigned[l] = (assigned[l] ?? 0) + 1;
    concepts.push(c);
  };
  if (site.corporate) {
    for (const fixed of financialCalendar()) {
      if (need(primary) <= 0) break;
      push(make([primary, ...translations(fixed.template)], fixed));
    }
  }
  while (need(primary) > 0) {
    // Made for every language that may get it, so a product it names exists in each of them.
    const c = make([primary, ...others.filter((l) => need(l) > 0)]);
    c.langs = [primary, ...translations(c.template)];
    push(c);
  }
  for (const l of others) while (need(l) > 0) push(make([l]));
  return concepts.sort((a, b) => a.date.getTime() - b.date.getTime());
}

function pickProduct(profile: SiteProfile, langs: Lang[], rng: Random): NewsConcept['product'] {
  const vs = langs.map((l) => vocabularies[l]);
  const [primary] = vs;
  if (!primary) return null;
  // The same family with the same kind of variants in every language, so names translate.
  const shared = primary.families.filter((f) =>
    vs.every((v) => v.families.some((g) => g.key === f.key && g.variants === f.variants)),
  );
  const own = shared.filter((f) => profile.productGroups.includes(f.group));
  const f = rng.pick(own.length ? own : shared);
  const variants = primary.variants[f.variants].filter(
    (x) => x.label && vs.every((v) => v.variants[f.variants].some((y) => y.key === x.key)),
  );
  const x = variants.length ? rng.pick(variants) : undefined;
  return { family: f.key, variant: x?.key ?? 'plain' };
}

export function renderNews(lang: Lang, c: NewsConcept): NewsText & { author: string } {
  const v = vocabularies[lang];
  const person = people[c.person] ?? people[0];
  if (!person) throw new Error('no people');
  let product = c.brand;
  if (c.product) {
    const f = v.families.find((x) => x.key === c.product?.family);
    const variant = f
      ? v.variants[f.variants].find((x) => x.key === c.product?.variant)
      : undefined;
    if (f) product = v.productName(f.name, variant?.label ?? '', '').trim();
  }
  const params: NewsParams = {
    brand: c.brand,
    year: c.year,
    quarter: c.quarter,
    plant: v.plants[c.plant],
    amount: c.amount,
    percent: c.percent,
    count: c.count,
    person: { ...person, role: v.roles[person.role] },
    product,
    event: v.events[c.event % v.events.length] ?? '',
    partner: v.partners[c.partner % v.partners.length] ?? '',
  };
  return { ...v.news[c.template].render(params), author: person.name };
}

export async function addNews(
  seeding: Seeding,
  versions: SiteLang[],
  c: NewsConcept,
  translationKey: string,
) {
  const texts = versions.map((s) => renderNews(s.lang, c));
  // A picture serves several releases of one template: a mood picture (a dish, a grill, a
  // landscape) that the release's title carries, so decorative, with an empty alt in every
  // language. The topic's name would be no description of it.
  const alt = { fi: '', sv: '', en: '' };
  const imageId = await seeding.images.get({
    kind: 'news',
    seed: `news:${c.template}:${c.image}`,
    alt,
  });
  versions.forEach((s, i) => {
    const text = texts[i];
    if (!text) return;
    const row = seeding.content.add(
      'news',
      newsRow(s, c, text, imageId, translationKey),
    ) as NewsRow;
    s.news.push(row);
  });
}

export function newsRow(
  s: SiteLang,
  c: NewsConcept,
  text: NewsText & { author: string },
  imageId: number,
  translationKey: string,
  pathSuffix = '',
): Omit<NewsRow, 'id'> {
  const { v } = s;
  const template = v.news[c.template];
  const person = people[c.person];
  const contact = person ? v.contactLine(person.name, v.roles[person.role].title) : '';
  const topic = s.facets.newsTopic[template.topic];
  const type = s.facets.newsType[template.textType];
  return {
    siteId: s.site.id,
    lang: s.lang,
    path: uniquePath(
      s,
      `${sectionPath.news(s)}/${c.date.getUTCFullYear()}`,
      slugify(text.title).slice(0, 90).replace(/-+$/, '') + pathSuffix,
    ),
    title: text.title,
    teaser: text.teaser,
    bodyHtml: `${paragraphs(text.paragraphs)}<p><em>${escapeHtml(contact)}</em></p>`,
    imageId,
    publishDate: c.date,
    categoryIds: topic === undefined ? [] : [topic],
    facetTagIds: [topic, type].filter((id): id is number => id !== undefined),
    authors: [text.author],
    kind: s.profile.newsKind,
    textType: v.facets.newsType.tags[template.textType],
    translationKey,
    updatedAt: c.date,
  };
}
