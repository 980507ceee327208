import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { serverT } from '../../i18n/catalogues.ts';
import { Conflict, Invalid } from '../../server/errors.ts';
import { getSite } from '../../sites/registry.ts';
import { langPrefix } from '../../sites/resolve.ts';
import type { Lang } from '../../sites/types.ts';
import { enqueueMail } from '../forms/index.server.ts';
import { unsubscribeUrl } from './store.server.ts';
import {
  type MailedVersion,
  type MailingStatus,
  newsReleaseCategories,
  newsReleaseMailings,
  newsReleaseMails,
} from './tables.ts';

/**
 * The news-release mailing (decision 158). Publishing a release through the back office queues
 * its mailing in the publishing transaction (`scheduleNewsReleaseMailing`, called by the content
 * feature); the `news-release-mailing` job, run once across processes, sends each mailing whose
 * time has come (`sendDueNewsMailings`): one mail through the outbox to every address with a
 * confirmed subscription of one of the release's categories on its site, in the subscriber's
 * language, with the unsubscribe link. Each address gets one mail per release whatever the number
 * of its categories or of the release's language versions: `news_release_mails` is unique per
 * site, release (its translation key) and address, and a mail is put in the outbox only for the
 * row that insert made, in the same transaction.
 */

/** Addresses mailed per transaction: a large list goes in several, each whole. */
export const MAILING_CHUNK = 500;

export interface ReleaseToMail {
  releaseId: number;
  siteId: string;
  lang: string;
  translationKey: string;
  informationTypes: string[];
  /** The release's language versions, the published one first. */
  versions: MailedVersion[];
  siteUrl: string;
  sendAt: Date;
}

export interface MailingState {
  status: MailingStatus;
  sendAt: string;
  version: number;
  recipients: number;
  informationTypes: string[];
}

type MailingRow = typeof newsReleaseMailings.$inferSelect;

const stateOf = (row: MailingRow): MailingState => ({
  status: row.status,
  sendAt: row.sendAt.toISOString(),
  version: row.version,
  recipients: row.recipients,
  informationTypes: row.informationTypes,
});

/**
 * Queues (or, while it waits, moves) the mailing of a release, in the publishing transaction.
 * The categories must be the site's in the release's language (400 naming `informationTypes`).
 * `seenVersion` is the mailing's version the staff member saw (null: none was queued): a mailing
 * queued or changed meanwhile is 409, and so is one already sent or begun (a release is mailed
 * once).
 */
export async function scheduleNewsReleaseMailing(
  tx: Transaction,
  release: ReleaseToMail,
  seenVersion: number | null,
  scheduledBy: string,
): Promise<{ before: MailingState | null; after: MailingState }> {
  const types = [...new Set(release.informationTypes)];
  const known = types.length
    ? await tx
        .select({ type: newsReleaseCategories.informationType })
        .from(newsReleaseCategories)
        .where(
          and(
            eq(newsReleaseCategories.siteId, release.siteId),
            eq(newsReleaseCategories.lang, release.lang),
            inArray(newsReleaseCategories.informationType, types),
          ),
        )
    : [];
  if (types.length === 0 || known.length !== types.length) {
    throw new Invalid({ informationTypes: 'admin.error.invalid' }, 'Unknown or no categories.');
  }
  const [current] = await tx
    .select()
    .from(newsReleaseMailings)
    .where(eq(newsReleaseMailings.releaseId, release.releaseId))
    .for('update');
  // A mailing that has begun (a large list goes out a chunk at a time) is not moved either.
  if (current && (current.status === 'sent' || current.recipients > 0)) {
    throw new Conflict('The release was already mailed.');
  }
  if ((current?.version ?? null) !== seenVersion) {
    throw new Conflict('The release’s publishing changed since it was shown. Look at it again.');
  }
  const values = {
    siteId: release.siteId,
    lang: release.lang,
    translationKey: release.translationKey,
    informationTypes: types,
    versions: release.versions,
    siteUrl: release.siteUrl,
    sendAt: release.sendAt,
    scheduledBy,
    updatedAt: new Date(),
  };
  const [row] = current
    ? await tx
        .update(newsReleaseMailings)
        .set({ ...values, version: current.version + 1 })
        .where(eq(newsReleaseMailings.id, current.id))
        .returning()
    : await tx
        .insert(newsReleaseMailings)
        .values({ releaseId: release.releaseId, ...values })
        .returning();
  if (!row) throw new Conflict('The mailing was not stored.');
  return { before: current ? stateOf(current) : null, after: stateOf(row) };
}

/**
 * Withdraws the waiting mailing of a release taken off the site (decision 167), in the
 * unpublishing transaction; one that has begun or was sent stays (a release is mailed once).
 * Answers the mailing as it was, when one was withdrawn.
 */
export async function withdrawNewsReleaseMailing(
  tx: Transaction,
  releaseId: number,
): Promise<MailingState | null> {
  const [gone] = await tx
    .delete(newsReleaseMailings)
    .where(
      and(
        eq(newsReleaseMailings.releaseId, releaseId),
        eq(newsReleaseMailings.status, 'scheduled'),
        eq(newsReleaseMailings.recipients, 0),
      ),
    )
    .returning();
  return gone ? stateOf(gone) : null;
}

/** The mailings of releases, by release id (for the back office's list of releases). */
export async function mailingsOf(
  db: Database,
  releaseIds: readonly number[],
): Promise<Map<number, MailingState>> {
  const rows = releaseIds.length
    ? await db
        .select()
        .from(newsReleaseMailings)
        .where(inArray(newsReleaseMailings.releaseId, [...releaseIds]))
    : [];
  return new Map(rows.map((row) => [row.releaseId, stateOf(row)]));
}

export interface MailingKeys {
  /** Seals the mail bodies in the outbox (the forms key). */
  mailKey: Buffer;
  /** Signs the unsubscribe links (the session secret). */
  secret: string;
}

interface Recipient {
  address: string;
  email: string;
  lang: string;
  ids: number[];
  lists: string[];
}

/**
 * Sends what is due: for each mailing whose time has come, a chunk at a time, the addresses not
 * yet mailed for the release get their mail in the outbox; when a chunk comes back short the
 * mailing is done. Each chunk is one transaction holding the mailing's row (`FOR UPDATE SKIP
 * LOCKED`: another process skips it), and the unique mail row is the second guard. Answers how
 * many mails it queued.
 */
export async function sendDueNewsMailings(
  db: Database,
  keys: MailingKeys,
  now: Date = new Date(),
): Promise<number> {
  let queued = 0;
  for (;;) {
    const step = await db.transaction(async (tx) => {
      const [mailing] = await tx
        .select()
        .from(newsReleaseMailings)
        .where(
          and(eq(newsReleaseMailings.status, 'scheduled'), lte(newsReleaseMailings.sendAt, now)),
        )
        .orderBy(asc(newsReleaseMailings.sendAt), asc(newsReleaseMailings.id))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!mailing) return null;
      const recipients = await recipientsOf(tx, mailing);
      const mailed = await mailChunk(tx, mailing, recipients, keys);
      const done = recipients.length < MAILING_CHUNK;
      await tx
        .update(newsReleaseMailings)
        .set({
          recipients: sql`${newsReleaseMailings.recipients} + ${mailed}`,
          ...(done ? { status: 'sent' as const, sentAt: new Date() } : {}),
        })
        .where(eq(newsReleaseMailings.id, mailing.id));
      return mailed;
    });
    if (step === null) return queued;
    queued += step;
  }
}

/**
 * The next addresses to mail: confirmed subscriptions of the release's categories on its site,
 * one entry per address (lower-cased) with every one of its subscription ids, not yet mailed for
 * the release. An address subscribed in two languages is mailed in that of its latest
 * confirmation.
 */
async function recipientsOf(tx: Transaction, mailing: MailingRow): Promise<Recipient[]> {
  const lists = mailing.informationTypes.map((type) => `newsreleases:${type}`);
  const result = (await tx.execute(sql`
    select lower(s.email) as address,
      (array_agg(s.email order by s.confirmed_at desc, s.id))[1] as email,
      (array_agg(s.lang order by s.confirmed_at desc, s.id))[1] as lang,
      array_agg(s.id order by s.id) as ids,
      array_agg(s.list order by s.id) as lists
    from subscriptions s
    where s.site_id = ${mailing.siteId}
      and s.status = 'confirmed'
      and s.list in (${sql.join(
        lists.map((l) => sql`${l}`),
        sql`, `,
      )})
      and not exists (
        select 1 from news_release_mails m
        where m.site_id = ${mailing.siteId}
          and m.translation_key = ${mailing.translationKey}
          and m.address = lower(s.email))
    group by lower(s.email)
    order by lower(s.email)
    limit ${MAILING_CHUNK}`)) as unknown as { rows: Recipient[] };
  return result.rows.map((r) => ({ ...r, ids: r.ids.map(Number) }));
}

/** The mail rows and outbox mails of one chunk; a row another run made first is skipped. */
async function mailChunk(
  tx: Transaction,
  mailing: MailingRow,
  recipients: Recipient[],
  keys: MailingKeys,
): Promise<number> {
  if (recipients.length === 0) return 0;
  const made = await tx
    .insert(newsReleaseMails)
    .values(
      recipients.map((r) => ({
        mailingId: mailing.id,
        siteId: mailing.siteId,
        translationKey: mailing.translationKey,
        address: r.address,
        subscriptionIds: r.ids,
        lang: r.lang,
      })),
    )
    .onConflictDoNothing()
    .returning({ address: newsReleaseMails.address });
  const mine = new Set(made.map((m) => m.address));
  const categories = await tx
    .select()
    .from(newsReleaseCategories)
    .where(
      and(
        eq(newsReleaseCategories.siteId, mailing.siteId),
        inArray(newsReleaseCategories.informationType, mailing.informationTypes),
      ),
    );
  const site = getSite(mailing.siteId);
  for (const r of recipients) {
    if (!mine.has(r.address)) continue;
    const lang = (site?.languages.includes(r.lang as Lang) ? r.lang : mailing.lang) as Lang;
    const version = mailing.versions.find((v) => v.lang === lang) ?? mailing.versions[0];
    if (!version) continue;
    const t = serverT(lang);
    const types = r.lists.map((l) => l.slice('newsreleases:'.length));
    const names = [...new Set(types)].map((type) => {
      const named = categories.filter((c) => c.informationType === type);
      return (
        (named.find((c) => c.lang === lang) ?? named.find((c) => c.lang === mailing.lang))?.name ??
        type
      );
    });
    const prefix = site ? langPrefix(site, lang) : '';
    const siteName = site?.name ?? mailing.siteId;
    await enqueueMail(tx, keys.mailKey, {
      to: r.email,
      subject: t('newsMailing.subject', { site: siteName, title: version.title }),
      text: [
        t('newsMailing.intro', { site: siteName }),
        '',
        version.title,
        ...(version.teaser ? ['', version.teaser] : []),
        '',
        t('newsMailing.read', { url: version.url }),
        ...(version.lang === lang ? [] : [t('newsMailing.otherLanguage')]),
        '',
        t('newsMailing.why', { categories: names.join(', ') }),
        t('newsMailing.unsubscribe', {
          url: unsubscribeUrl(mailing.siteUrl, keys.secret, r.ids, prefix),
        }),
      ].join('\n'),
    });
  }
  return mine.size;
}
