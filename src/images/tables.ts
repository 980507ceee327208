import { integer, jsonb, pgTable, real, serial, text, timestamp } from 'drizzle-orm/pg-core';

/** The images service's table: the originals in the file store that every feature's rows point at. */

/** Images in the file store; `/images/{id}/{slug}.jpg?preset=…` serves resized variants. */
export const images = pgTable('images', {
  id: serial('id').primaryKey(),
  /** Key of the original in the file store. */
  storageKey: text('storage_key').notNull().unique(),
  mime: text('mime').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  alt: jsonb('alt').$type<Partial<Record<'fi' | 'sv' | 'en', string>>>().notNull().default({}),
  /** Point to keep in crops, 0..1 from the left and top. */
  focusX: real('focus_x').notNull().default(0.5),
  focusY: real('focus_y').notNull().default(0.5),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
