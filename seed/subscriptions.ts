import type { Database } from '../src/db/client.ts';
import { type Block, pageBlocks } from '../src/features/content/blocks.ts';
import { campaigns, newsReleaseCategories } from '../src/features/subscriptions/tables.ts';
import type { Lang } from '../src/sites/types.ts';
import type { Seeding, SiteLang } from './context.ts';
import { daysFromEpoch } from './model.ts';

/**
 * The marketing lists' demo data (decision 038): the news-release categories of the corporate
 * sites with the subscription block on their newsrooms, and one campaign, CinCinVino, with its
 * page on the master-chef brand's site, linked from its home page. The campaign page is added
 * after every site's pages, so no other row's id moves.
 */
export const CAMPAIGN_SITE = 'mestariforsmanfi';
export const CAMPAIGN_ID = 'cincinvino-2026';
export const CAMPAIGN_PATH = '/kampanja';

const categoryNames: Record<string, [string, Partial<Record<Lang, string>>][]> = {
  konsernifi: [
    ['PRM', { fi: 'Lehdistötiedotteet', en: 'Press releases' }],
    ['RDV', { fi: 'Pörssitiedotteet', en: 'Stock exchange releases' }],
    ['KMK', { fi: 'Taloudelliset raportit', en: 'Financial reports' }],
    ['INB', { fi: 'Sijoittajauutiset', en: 'Investor news' }],
  ],
  koncernse: [
    ['PRM', { sv: 'Pressmeddelanden', en: 'Press releases' }],
    ['RDV', { sv: 'Börsmeddelanden', en: 'Stock exchange releases' }],
    ['KMK', { sv: 'Finansiella rapporter', en: 'Financial reports' }],
  ],
};

/** Puts the blocks on the seeded pages and adds the campaign page (pages only, in memory). */
export function addSubscriptionPages(seeding: Seeding, all: SiteLang[]): void {
  const pages = seeding.content.rows.pages;
  for (const s of all) {
    if (!categoryNames[s.site.id]) continue;
    const newsroom = pages.find(
      (p) => p.siteId === s.site.id && p.lang === s.lang && p.type === 'newsroom',
    );
    if (newsroom) {
      newsroom.blocks = pageBlocks.parse([
        ...((newsroom.blocks as Block[] | undefined) ?? []),
        { type: 'news-releases' },
      ]);
    }
  }
  const home = pages.find((p) => p.siteId === CAMPAIGN_SITE && p.lang === 'fi' && p.path === '/');
  if (!home) return;
  const title = 'CinCinVino-kampanja: voita viinimatka';
  const teaser = 'Osallistu ja voita kahden hengen viinimatka Toscanaan.';
  seeding.content.add('pages', {
    siteId: CAMPAIGN_SITE,
    lang: 'fi',
    path: CAMPAIGN_PATH,
    title,
    teaser,
    seoTitle: `${title} | ${all.find((s) => s.site.id === CAMPAIGN_SITE)?.site.name ?? ''}`,
    seoDescription: teaser,
    translationKey: 'page:campaign',
    publishedAt: daysFromEpoch(-10, 7),
    updatedAt: daysFromEpoch(-10, 7),
    parentId: home.id,
    type: 'content',
    teaserImageId: null,
    blocks: pageBlocks.parse([
      {
        type: 'rich-text',
        html: `<p><strong>${teaser}</strong></p><p>Kampanja on voimassa 31.12.2027 asti. Arvonta suoritetaan kampanjan päätyttyä, ja voittajalle ilmoitetaan henkilökohtaisesti. Osallistuminen edellyttää 18 vuoden ikää. Kukin sähköpostiosoite voi osallistua kerran.</p>`,
      },
      { type: 'campaign', campaignId: CAMPAIGN_ID },
    ]),
    settings: {},
    showInNav: false,
    navArea: 'bottom',
    icon: null,
    sortOrder: 99,
  });
  home.blocks = pageBlocks.parse([
    ...((home.blocks as Block[] | undefined) ?? []),
    {
      type: 'rich-text',
      html: `<h2>CinCinVino-kampanja</h2><p>${teaser} <a href="${CAMPAIGN_PATH}">Osallistu kampanjaan</a></p>`,
    },
  ]);
}

/** Writes the campaign and the categories (replacing earlier seeds' rows of the same keys). */
export async function seedSubscriptionData(db: Database): Promise<void> {
  await db.delete(newsReleaseCategories);
  const rows = Object.entries(categoryNames).flatMap(([siteId, list]) =>
    list.flatMap(([informationType, names], position) =>
      Object.entries(names).map(([lang, name]) => ({
        siteId,
        lang,
        informationType,
        name: name ?? informationType,
        position,
      })),
    ),
  );
  await db.insert(newsReleaseCategories).values(rows);
  await db
    .insert(campaigns)
    .values({
      id: CAMPAIGN_ID,
      siteId: CAMPAIGN_SITE,
      name: 'CinCinVino 2026',
      startsAt: daysFromEpoch(-30),
      endsAt: new Date(Date.UTC(2028, 0, 1)),
      newsletterList: 'cincinvino',
    })
    .onConflictDoUpdate({
      target: campaigns.id,
      set: {
        siteId: CAMPAIGN_SITE,
        startsAt: daysFromEpoch(-30),
        endsAt: new Date(Date.UTC(2028, 0, 1)),
        newsletterList: 'cincinvino',
      },
    });
}
