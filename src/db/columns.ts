import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/** What `belongsTo` needs of a column builder: `.notNull().references(…)`. */
interface Referring<R> {
  notNull(): { references(parent: () => AnyPgColumn, actions: { onDelete: 'cascade' }): R };
}

/**
 * A column naming the row this one belongs to: never empty, and deleted with that row
 * (`.notNull().references(parent, { onDelete: 'cascade' })`).
 */
export function belongsTo<R>(column: Referring<R>, parent: () => AnyPgColumn): R {
  return column.notNull().references(parent, { onDelete: 'cascade' });
}
