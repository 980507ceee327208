import type { Database } from '../../src/db/client.ts';
import {
  campaignParticipations,
  campaigns,
  newsReleaseCategories,
  subscriptions,
} from '../../src/features/subscriptions/tables.ts';

/** Marketing-list rows: subscriptions with their consent, categories, campaigns and entries. */
let counter = 0;
const next = () => ++counter;

/** A subscription, confirmed unless told otherwise, with its consent record. */
export async function createSubscription(
  db: Database,
  overrides: Partial<typeof subscriptions.$inferInsert> & { siteId: string; list: string },
) {
  const n = next();
  const consentAt = new Date(Date.UTC(2026, 9, 1, 8, 0, n % 60));
  const status = overrides.status ?? 'confirmed';
  const [row] = await db
    .insert(subscriptions)
    .values({
      email: `tilaaja${n}@example.fi`,
      lang: 'fi',
      status,
      source: 'news-releases',
      consentText: 'Tilaan valitsemani tiedotteet sähköpostiini.',
      consentAt,
      confirmedAt: status === 'confirmed' ? new Date(consentAt.getTime() + 60_000) : null,
      unsubscribedAt: status === 'unsubscribed' ? new Date(consentAt.getTime() + 120_000) : null,
      createdAt: consentAt,
      updatedAt: consentAt,
      ...overrides,
    })
    .returning();
  if (!row) throw new Error('no subscription row');
  return row;
}

export async function createNewsCategory(
  db: Database,
  row: { siteId: string; lang: string; informationType: string; name: string; position?: number },
) {
  await db
    .insert(newsReleaseCategories)
    .values(row)
    .onConflictDoUpdate({
      target: [
        newsReleaseCategories.siteId,
        newsReleaseCategories.lang,
        newsReleaseCategories.informationType,
      ],
      set: { name: row.name },
    });
}

export async function createCampaign(
  db: Database,
  overrides: Partial<typeof campaigns.$inferInsert> & { siteId: string },
) {
  const n = next();
  const [row] = await db
    .insert(campaigns)
    .values({
      id: `kampanja-${n}-${Date.now()}`,
      name: `Kampanja ${n}`,
      startsAt: new Date(Date.UTC(2026, 0, 1)),
      endsAt: new Date(Date.UTC(2028, 0, 1)),
      ...overrides,
    })
    .returning();
  if (!row) throw new Error('no campaign row');
  return row;
}

export async function createParticipation(
  db: Database,
  overrides: Partial<typeof campaignParticipations.$inferInsert> & { campaignId: string },
) {
  const n = next();
  const [row] = await db
    .insert(campaignParticipations)
    .values({
      email: `osallistuja${n}@example.fi`,
      lang: 'fi',
      isAdult: true,
      acceptedRules: true,
      wantsNewsletter: false,
      ...overrides,
    })
    .returning();
  if (!row) throw new Error('no participation row');
  return row;
}
