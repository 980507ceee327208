import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, asc, eq, gt, inArray, ne, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { serverT } from '../../i18n/catalogues.ts';
import { Invalid } from '../../server/errors.ts';
import type { Lang } from '../../sites/types.ts';
import { enqueueMail } from '../forms/index.server.ts';
import type { CampaignInput, NewsCategory } from './schemas.ts';
import { CONFIRM_PAGE, UNSUBSCRIBE_PAGE } from './schemas.ts';
import {
  campaignParticipations,
  campaigns,
  newsReleaseCategories,
  subscriptions,
} from './tables.ts';

/** How long a confirmation link works. */
export const CONFIRM_TTL_MS = 7 * 24 * 3600 * 1000;
/** Confirmation mails to one address per hour, over every site and list (decision 038). */
export const MAILS_PER_ADDRESS_HOUR = 3;

type Executor = Database | Transaction;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** What the mails need to know of the deployment. */
export interface MailContext {
  /** Seals the mail bodies in the outbox (the forms key). */
  mailKey: Buffer;
  /** Signs the unsubscribe links (the session secret). */
  secret: string;
  /** The site's home URL: the links in the mail point there. */
  siteUrl: string;
  /** The subscriber's language version of the site ('' or '/en'): the linked pages speak it. */
  langPrefix: string;
  siteName: string;
}

export interface SubscribeRequest {
  siteId: string;
  lang: Lang;
  email: string;
  /** The lists with their names as the mail tells them. */
  lists: { list: string; name: string }[];
  source: string;
  /** The consent text the form showed, stored with each row. */
  consentText: string;
}

/** What one subscribe did; never shown to the visitor (every answer is the same). */
export interface SubscribeOutcome {
  /** Rows waiting for the link after this request. */
  pending: number;
  mailed: boolean;
}

/** Signs the ids an unsubscribe link ends. */
export function unsubscribeSignature(secret: string, ids: readonly number[]): string {
  return createHmac('sha256', secret)
    .update(`unsubscribe:${ids.join('-')}`)
    .digest('base64url');
}

export function unsubscribeUrl(
  siteUrl: string,
  secret: string,
  ids: readonly number[],
  langPrefix = '',
): string {
  const url = new URL(`${langPrefix}${UNSUBSCRIBE_PAGE}`, siteUrl);
  url.searchParams.set('s', ids.join('-'));
  url.searchParams.set('sig', unsubscribeSignature(secret, ids));
  return url.href;
}

/** The ids of a signed unsubscribe link, or null when the link was not made here. */
export function verifiedUnsubscribeIds(secret: string, s: string, sig: string): number[] | null {
  if (!/^\d{1,10}(-\d{1,10}){0,99}$/.test(s)) return null;
  const ids = s.split('-').map(Number);
  const expected = Buffer.from(unsubscribeSignature(secret, ids));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected) ? ids : null;
}

/**
 * Subscribes an address to lists of a site, in the caller's transaction when given one.
 * Race-safe: one transaction per address at a time (an advisory lock on the lower-cased
 * address), rows upserted on the unique (site, list, lower(email)). A confirmed row stays
 * confirmed and gets no mail; a new, pending or unsubscribed one becomes pending. One mail with
 * one confirmation link covers this request's pending rows, unless the address had
 * `MAILS_PER_ADDRESS_HOUR` mails in the last hour: then no mail goes and the links already sent
 * keep working (their token is not replaced).
 */
export async function subscribe(
  db: Executor,
  request: SubscribeRequest,
  mail: MailContext,
  now: Date = new Date(),
): Promise<SubscribeOutcome> {
  const address = request.email.toLowerCase();
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`subs:${address}`}, 0))`);
    await tx.execute(
      sql`delete from subscription_mails where sent_at < ${new Date(now.getTime() - 3600_000)}`,
    );
    const sentRows = (await tx.execute(
      sql`select count(*)::int as n from subscription_mails where address = ${address}`,
    )) as unknown as { rows: { n: number }[] };
    const mayMail = (sentRows.rows[0]?.n ?? 0) < MAILS_PER_ADDRESS_HOUR;
    const token = randomBytes(32).toString('base64url');
    const tokenHash = mayMail ? hashToken(token) : null;
    const expires = mayMail ? new Date(now.getTime() + CONFIRM_TTL_MS) : null;

    const rows: { id: number; list: string; status: string; token_hash: string | null }[] = [];
    for (const { list } of request.lists) {
      const result = (await tx.execute(sql`
        insert into subscriptions as s
          (site_id, list, email, lang, status, source, consent_text, consent_at,
           token_hash, token_expires_at, created_at, updated_at)
        values (${request.siteId}, ${list}, ${request.email}, ${request.lang}, 'pending',
          ${request.source}, ${request.consentText}, ${now}, ${tokenHash}, ${expires}, ${now}, ${now})
        on conflict (site_id, list, lower(email)) do update set
          status = case when s.status = 'confirmed' then 'confirmed' else 'pending' end,
          lang = excluded.lang,
          source = case when s.status = 'confirmed' then s.source else excluded.source end,
          consent_text =
            case when s.status = 'confirmed' then s.consent_text else excluded.consent_text end,
          consent_at = case when s.status = 'confirmed' then s.consent_at else excluded.consent_at end,
          unsubscribed_at = case when s.status = 'confirmed' then s.unsubscribed_at else null end,
          token_hash = case when s.status = 'confirmed' or excluded.token_hash is null
            then s.token_hash else excluded.token_hash end,
          token_expires_at = case when s.status = 'confirmed' or excluded.token_hash is null
            then s.token_expires_at else excluded.token_expires_at end,
          updated_at = excluded.updated_at
        returning id, list, status, token_hash`)) as unknown as { rows: typeof rows };
      rows.push(...result.rows);
    }
    const pending = rows.filter((r) => r.status === 'pending');
    const toMail = pending.filter((r) => tokenHash !== null && r.token_hash === tokenHash);
    if (toMail.length === 0) return { pending: pending.length, mailed: false };

    await tx.execute(
      sql`insert into subscription_mails (address, sent_at) values (${address}, ${now})`,
    );
    const t = serverT(request.lang);
    const names = toMail.map((r) => request.lists.find((l) => l.list === r.list)?.name ?? r.list);
    const confirm = new URL(`${mail.langPrefix}${CONFIRM_PAGE}`, mail.siteUrl);
    confirm.searchParams.set('token', token);
    const ids = rows.map((r) => r.id).sort((a, b) => a - b);
    await enqueueMail(tx, mail.mailKey, {
      to: request.email,
      subject: t('subscribe.mail.subject', { site: mail.siteName }),
      text: t('subscribe.mail.body', {
        site: mail.siteName,
        lists: names.join(', '),
        confirmUrl: confirm.href,
        unsubscribeUrl: unsubscribeUrl(mail.siteUrl, mail.secret, ids, mail.langPrefix),
      }),
    });
    return { pending: pending.length, mailed: true };
  });
}

/**
 * Confirms the rows a mailed link names. The token is spent by the update that confirms (its
 * hash cleared), so a link works once; an unknown, used or expired token confirms nothing.
 */
export async function confirmSubscription(
  db: Database,
  token: string,
  now: Date = new Date(),
): Promise<{ id: number; siteId: string; list: string }[]> {
  if (!token) return [];
  return db
    .update(subscriptions)
    .set({
      status: 'confirmed',
      confirmedAt: now,
      tokenHash: null,
      tokenExpiresAt: null,
      updatedAt: now,
    })
    .where(
      and(
        eq(subscriptions.tokenHash, hashToken(token)),
        gt(subscriptions.tokenExpiresAt, now),
        eq(subscriptions.status, 'pending'),
      ),
    )
    .returning({ id: subscriptions.id, siteId: subscriptions.siteId, list: subscriptions.list });
}

/** Takes the rows off their lists (again harmless); their pending links stop working. */
export async function unsubscribe(db: Database, ids: number[], now: Date = new Date()) {
  await db
    .update(subscriptions)
    .set({
      status: 'unsubscribed',
      unsubscribedAt: now,
      tokenHash: null,
      tokenExpiresAt: null,
      updatedAt: now,
    })
    .where(and(inArray(subscriptions.id, ids), ne(subscriptions.status, 'unsubscribed')));
}

/** The news-release categories of a site and language, in their order. */
export async function newsCategories(
  db: Database,
  siteId: string,
  lang: Lang,
): Promise<NewsCategory[]> {
  return db
    .select({
      name: newsReleaseCategories.name,
      informationType: newsReleaseCategories.informationType,
    })
    .from(newsReleaseCategories)
    .where(and(eq(newsReleaseCategories.siteId, siteId), eq(newsReleaseCategories.lang, lang)))
    .orderBy(asc(newsReleaseCategories.position), asc(newsReleaseCategories.informationType));
}

/**
 * The lists of news-release categories asked for by their `informationType`: each must be one of
 * the site's in the language (400 naming `informationTypes` otherwise).
 */
export async function newsReleaseLists(
  db: Database,
  siteId: string,
  lang: Lang,
  wanted: readonly string[],
): Promise<{ list: string; name: string }[]> {
  const unique = [...new Set(wanted)];
  const known = unique.length
    ? await db
        .select({
          informationType: newsReleaseCategories.informationType,
          name: newsReleaseCategories.name,
        })
        .from(newsReleaseCategories)
        .where(
          and(
            eq(newsReleaseCategories.siteId, siteId),
            eq(newsReleaseCategories.lang, lang),
            inArray(newsReleaseCategories.informationType, unique),
          ),
        )
    : [];
  if (known.length !== unique.length) {
    throw new Invalid({ informationTypes: 'validation.invalid' }, 'Unknown category.');
  }
  return known.map((c) => ({ list: `newsreleases:${c.informationType}`, name: c.name }));
}

/**
 * One participation per address and campaign: stored once (a second, or a parallel, one finds
 * the row and stores nothing), answered the same either way. An unknown campaign of this site,
 * or one outside its period, is refused (400 naming `join`) and nothing is stored. With the
 * newsletter box ticked, the address goes on the campaign's list through the double opt-in.
 */
export async function participate(
  db: Database,
  input: CampaignInput,
  context: { siteId: string; lang: Lang; mail: MailContext },
  now: Date = new Date(),
): Promise<void> {
  const [campaign] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, input.join), eq(campaigns.siteId, context.siteId)));
  if (!campaign)
    throw new Invalid({ join: 'subscribe.error.campaignUnknown' }, 'No such campaign.');
  if (now < campaign.startsAt || now >= campaign.endsAt) {
    throw new Invalid({ join: 'subscribe.error.campaignClosed' }, 'The campaign is not open.');
  }
  const wantsNewsletter = input.subscribeToCinCinVinoNewsletter === 'true';
  const t = serverT(context.lang);
  await db.transaction(async (tx) => {
    await tx
      .insert(campaignParticipations)
      .values({
        campaignId: campaign.id,
        email: input.email,
        lang: context.lang,
        isAdult: true,
        acceptedRules: input.acceptRules === 'true',
        wantsNewsletter,
        createdAt: now,
      })
      .onConflictDoNothing();
    if (wantsNewsletter && campaign.newsletterList) {
      await subscribe(
        tx,
        {
          siteId: context.siteId,
          lang: context.lang,
          email: input.email,
          lists: [{ list: campaign.newsletterList, name: t('subscribe.list.cincinvino') }],
          source: `campaign:${campaign.id}`,
          consentText: t('subscribe.campaign.newsletter'),
        },
        context.mail,
        now,
      );
    }
  });
}

/**
 * Forgets addresses that never confirmed: a pending subscription whose link has expired and that
 * was never confirmed holds an address without consent to mail it, so it is deleted (decision
 * 038's double opt-in; a later subscribe starts afresh). Confirmed and unsubscribed rows stay.
 */
export async function deleteUnconfirmedSubscriptions(
  db: Database,
  now = new Date(),
): Promise<number> {
  const deleted = await db
    .delete(subscriptions)
    .where(
      and(
        eq(subscriptions.status, 'pending'),
        sql`${subscriptions.confirmedAt} is null`,
        sql`${subscriptions.tokenExpiresAt} < ${now}`,
      ),
    )
    .returning({ id: subscriptions.id });
  return deleted.length;
}
