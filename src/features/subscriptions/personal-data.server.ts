import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import type { PersonRecord, PersonSubject } from '../../server/personal-data.ts';
import {
  campaignParticipations,
  campaigns,
  newsReleaseMails,
  subscriptionMails,
  subscriptions,
} from './tables.ts';

/**
 * The marketing lists' part of a personal-data request (decision 159): the person's
 * subscriptions (with their consent record) and campaign entries, found by their address, and
 * deleted on erasure with the count of confirmation mails sent to the address and the record of
 * news releases mailed to it.
 */

type Reader = Pick<Database, 'select'>;

/** The address's subscriptions on every list of every site. */
export async function findSubscriptions(
  db: Reader,
  subject: PersonSubject,
): Promise<PersonRecord[]> {
  const rows = await db
    .select()
    .from(subscriptions)
    .where(sql`lower(${subscriptions.email}) = ${subject.address}`)
    .orderBy(asc(subscriptions.createdAt), asc(subscriptions.id));
  return rows.map(({ tokenHash: _token, ...row }) => ({
    id: String(row.id),
    siteId: row.siteId,
    lang: row.lang,
    at: row.createdAt.toISOString(),
    summary: row.list,
    data: row,
  }));
}

/** The address's entries in campaigns, with the campaign's name and site. */
export async function findCampaignEntries(
  db: Reader,
  subject: PersonSubject,
): Promise<PersonRecord[]> {
  const rows = await db
    .select({ entry: campaignParticipations, campaign: campaigns })
    .from(campaignParticipations)
    .innerJoin(campaigns, eq(campaigns.id, campaignParticipations.campaignId))
    .where(sql`lower(${campaignParticipations.email}) = ${subject.address}`)
    .orderBy(asc(campaignParticipations.createdAt), asc(campaignParticipations.id));
  return rows.map(({ entry, campaign }) => ({
    id: String(entry.id),
    siteId: campaign.siteId,
    lang: entry.lang,
    at: entry.createdAt.toISOString(),
    summary: campaign.name,
    data: { ...entry, campaign: { id: campaign.id, name: campaign.name } },
  }));
}

/**
 * Deletes the subscriptions and, with `mails`, the record of confirmation mails sent to the
 * address (kept only for the hourly bound, about no one site); answers the subscriptions deleted.
 */
export async function eraseSubscriptions(
  tx: Transaction,
  ids: readonly string[],
  subject: PersonSubject,
  mails: boolean,
): Promise<number> {
  if (mails) {
    await tx
      .delete(subscriptionMails)
      .where(sql`lower(${subscriptionMails.address}) = ${subject.address}`);
  }
  // The news releases mailed to the address (decision 158): with `mails` on every site, else on
  // the sites of the subscriptions erased.
  const sites = ids.length
    ? await tx
        .selectDistinct({ siteId: subscriptions.siteId })
        .from(subscriptions)
        .where(inArray(subscriptions.id, ids.map(Number)))
    : [];
  if (mails || sites.length > 0) {
    await tx.delete(newsReleaseMails).where(
      and(
        eq(newsReleaseMails.address, subject.address),
        mails
          ? undefined
          : inArray(
              newsReleaseMails.siteId,
              sites.map((row) => row.siteId),
            ),
      ),
    );
  }
  if (ids.length === 0) return 0;
  const gone = await tx
    .delete(subscriptions)
    .where(inArray(subscriptions.id, ids.map(Number)))
    .returning({ id: subscriptions.id });
  return gone.length;
}

/** Deletes the campaign entries; answers how many went. */
export async function eraseCampaignEntries(
  tx: Transaction,
  ids: readonly string[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const gone = await tx
    .delete(campaignParticipations)
    .where(inArray(campaignParticipations.id, ids.map(Number)))
    .returning({ id: campaignParticipations.id });
  return gone.length;
}
