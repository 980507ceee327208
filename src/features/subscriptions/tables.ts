import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { belongsTo } from '../../db/columns.ts';

/**
 * The marketing lists' tables (decisions 038, 126): subscriptions per site and list with their
 * consent, confirmed by a mailed single-use link; the confirmation mails sent per address (the
 * hourly bound); the news-release categories one can subscribe to; campaigns and their
 * participations.
 */

/**
 * One address on one list of one site. `status` moves pending → confirmed (the mailed link) →
 * unsubscribed (the link in every mail); subscribing again moves it back to pending. Only the
 * SHA-256 of the confirmation token is kept; every row asked for in one request shares it.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: serial('id').primaryKey(),
    siteId: text('site_id').notNull(),
    /** `newsletter`, `newsreleases:<informationType>`, a campaign's list (`cincinvino`). */
    list: text('list').notNull(),
    /** As typed (trimmed); unique per site and list case-insensitively. */
    email: text('email').notNull(),
    lang: text('lang').notNull(),
    status: text('status').notNull().default('pending'),
    /** Where the visitor subscribed: `newsletter-modal`, `overlay`, `news-releases`, `campaign:<id>`. */
    source: text('source').notNull(),
    /** The consent text the form showed, in the visitor's language, and when it was given. */
    consentText: text('consent_text').notNull(),
    consentAt: timestamp('consent_at', { withTimezone: true }).notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true }),
    tokenHash: text('token_hash'),
    tokenExpiresAt: timestamp('token_expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('subscriptions_address_uq').on(t.siteId, t.list, sql`lower(${t.email})`),
    index('subscriptions_token_idx').on(t.tokenHash),
    check('subscriptions_status_ck', sql`${t.status} in ('pending', 'confirmed', 'unsubscribed')`),
  ],
);

/** Confirmation mails sent per address (lower-cased), for the hourly bound; pruned as it goes. */
export const subscriptionMails = pgTable(
  'subscription_mails',
  {
    id: serial('id').primaryKey(),
    address: text('address').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('subscription_mails_address_idx').on(t.address, t.sentAt)],
);

/** The news-release categories of a site and language (spec §3: name, informationType). */
export const newsReleaseCategories = pgTable(
  'news_release_categories',
  {
    siteId: text('site_id').notNull(),
    lang: text('lang').notNull(),
    informationType: text('information_type').notNull(),
    name: text('name').notNull(),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.lang, t.informationType] })],
);

/** A campaign one can join once per address between its start and end. */
export const campaigns = pgTable(
  'campaigns',
  {
    /** The fixed id the campaign block sends as `join`. */
    id: text('id').primaryKey(),
    siteId: text('site_id').notNull(),
    name: text('name').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    /** The list `subscribeToCinCinVinoNewsletter` subscribes to, if the campaign offers one. */
    newsletterList: text('newsletter_list'),
  },
  (t) => [check('campaigns_period_ck', sql`${t.endsAt} > ${t.startsAt}`)],
);

export const campaignParticipations = pgTable(
  'campaign_participations',
  {
    id: serial('id').primaryKey(),
    campaignId: belongsTo(text('campaign_id'), () => campaigns.id),
    email: text('email').notNull(),
    lang: text('lang').notNull(),
    isAdult: boolean('is_adult').notNull(),
    acceptedRules: boolean('accepted_rules').notNull(),
    wantsNewsletter: boolean('wants_newsletter').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('campaign_participations_address_uq').on(t.campaignId, sql`lower(${t.email})`),
  ],
);

// ---------------------------------------------------------------------------------------------
// News-release mailings (decision 158): a mailing is queued in the transaction that publishes a
// release through the back office and sent by a job once its time has come; each address gets at
// most one mail per release (in any of its languages), which the unique index guarantees.
// ---------------------------------------------------------------------------------------------

export const MAILING_STATUSES = ['scheduled', 'sent'] as const;
export type MailingStatus = (typeof MAILING_STATUSES)[number];

/** One language version of the release, as the mail links to it. */
export interface MailedVersion {
  lang: string;
  title: string;
  teaser: string;
  /** The release's page, absolute. */
  url: string;
}

export const newsReleaseMailings = pgTable(
  'news_release_mailings',
  {
    id: serial('id').primaryKey(),
    /** The content feature's `news_releases.id` (no foreign key: another feature's table). */
    releaseId: integer('release_id').notNull(),
    siteId: text('site_id').notNull(),
    lang: text('lang').notNull(),
    /** The release's language versions share it; an address is mailed once per release. */
    translationKey: text('translation_key').notNull(),
    informationTypes: text('information_types').array().notNull(),
    /** The release's language versions at publishing, the published one first. */
    versions: jsonb('versions').$type<MailedVersion[]>().notNull(),
    /** The site's home address the links start from, as the publishing request saw it. */
    siteUrl: text('site_url').notNull(),
    sendAt: timestamp('send_at', { withTimezone: true }).notNull(),
    status: text('status').$type<MailingStatus>().notNull().default('scheduled'),
    /** Bumped by every change; a change names the version it was made on (409 otherwise). */
    version: integer('version').notNull().default(0),
    scheduledBy: text('scheduled_by'),
    recipients: integer('recipients').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('news_release_mailings_release_uq').on(t.releaseId),
    index('news_release_mailings_due_idx').on(t.status, t.sendAt),
    check('news_release_mailings_status_ck', sql`${t.status} in ('scheduled', 'sent')`),
  ],
);

/** The mails a mailing put in the outbox: one per address and release (any language version). */
export const newsReleaseMails = pgTable(
  'news_release_mails',
  {
    id: serial('id').primaryKey(),
    mailingId: belongsTo(integer('mailing_id'), () => newsReleaseMailings.id),
    siteId: text('site_id').notNull(),
    translationKey: text('translation_key').notNull(),
    /** The address, lower-cased. */
    address: text('address').notNull(),
    /** The address's subscriptions of the release's categories (the unsubscribe link's ids). */
    subscriptionIds: integer('subscription_ids').array().notNull(),
    lang: text('lang').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('news_release_mails_once_uq').on(t.siteId, t.translationKey, t.address),
    index('news_release_mails_mailing_idx').on(t.mailingId),
  ],
);

/**
 * A campaign's raffle draw (decision 158): the seed, the participants it considered (their ids in
 * order and a digest of their addresses) and the winners. The same seed and participants draw the
 * same winners again, so anyone can check a draw.
 */
export const campaignDraws = pgTable(
  'campaign_draws',
  {
    id: serial('id').primaryKey(),
    campaignId: belongsTo(text('campaign_id'), () => campaigns.id),
    /** 32 random bytes, hex. */
    seed: text('seed').notNull(),
    winnersWanted: integer('winners_wanted').notNull(),
    participantIds: integer('participant_ids').array().notNull(),
    /** SHA-256 of the considered participants' `id:address` lines, in id order. */
    participantsDigest: text('participants_digest').notNull(),
    winnerIds: integer('winner_ids').array().notNull(),
    drawnBy: text('drawn_by').notNull(),
    drawnAt: timestamp('drawn_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('campaign_draws_campaign_idx').on(t.campaignId, t.drawnAt)],
);
