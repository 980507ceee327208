import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The server's own table: the sessions behind `plugins/sessions.ts`. Features that keep rows per
 * session (carts, orders) reference it.
 */

/**
 * Server-side sessions. The browser holds a random token; the row is keyed by its SHA-256 so a
 * copy of the table does not hand out live sessions. A row exists only once something is stored.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_expires_at_idx').on(t.expiresAt)],
);
