import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** The marketing lists' tables (decisions 038, 126): subscriptions, their mails, categories, campaigns. */

// ---------------------------------------------------------------------------------------------
// Marketing lists (decision 038): subscriptions per site and list with their consent, confirmed
// by a mailed single-use link; the confirmation mails sent per address (the hourly bound); the
// news-release categories one can subscribe to; campaigns and their participations.
// ---------------------------------------------------------------------------------------------

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
    campaignId: text('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
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
