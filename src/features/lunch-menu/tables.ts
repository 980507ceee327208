import { sql } from 'drizzle-orm';
import { check, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** The lunch menu's table (decisions 042, 126): saved menus and their weeks as JSON. */

/** A card of a saved lunch menu: one of the site's recipes, as it was when the menu was saved. */
export interface LunchMenuCard {
  header: string;
  link: string;
  image: string;
}

/** One week of a saved lunch menu: its ISO week, texts, background and the cards of each weekday. */
export interface LunchMenuWeek {
  year: number;
  week: number;
  heading: string;
  text: string;
  background: string;
  monday: LunchMenuCard[];
  tuesday: LunchMenuCard[];
  wednesday: LunchMenuCard[];
  thursday: LunchMenuCard[];
  friday: LunchMenuCard[];
}

/**
 * Weekly lunch menus saved by visitors of the food-service sites (decision 042). A row is never
 * changed (a trigger refuses updates): a save makes a new row with a new unguessable id, so a
 * shared link always shows the menu it was made for.
 */
export const lunchMenus = pgTable(
  'lunch_menus',
  {
    /** 128 random bits as base64url (22 characters). */
    id: text('id').primaryKey(),
    siteId: text('site_id').notNull(),
    lang: text('lang').notNull(),
    weeks: jsonb('weeks').$type<LunchMenuWeek[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('lunch_menus_id_ck', sql`${t.id} ~ '^[A-Za-z0-9_-]{22}$'`),
    check('lunch_menus_weeks_ck', sql`jsonb_typeof(${t.weeks}) = 'array'`),
  ],
);
