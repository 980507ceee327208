import { sql } from 'drizzle-orm';
import { check, integer, jsonb, pgTable, real, serial, text, timestamp } from 'drizzle-orm/pg-core';

/** The images service's table: the originals in the file store that every feature's rows point at. */

/** Images in the file store; `/images/{id}/{slug}.jpg?preset=…` serves resized variants. */
export const images = pgTable(
  'images',
  {
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
    /**
     * Raised by every change to the row (alt text, focus point, a new file): an edit names the
     * version it was made on, and an older one is refused (decision 168).
     */
    version: integer('version').notNull().default(1),
    /**
     * Raised when what the crops show changes (a new file or focus point): part of the image's URL
     * (`&v=`) and of its crops' keys in the file store, so no cached crop shows the old picture.
     */
    revision: integer('revision').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('images_focus_ck', sql`${t.focusX} between 0 and 1 and ${t.focusY} between 0 and 1`),
    check('images_version_ck', sql`${t.version} >= 1 and ${t.revision} >= 1`),
  ],
);
