import { getTableColumns, type Table } from 'drizzle-orm';
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

/**
 * Some of a table's columns by name, for a `select`: `columnsOf(pages, 'id', 'path')` is
 * `{ id: pages.id, path: pages.path }`, typed as the table's own columns.
 */
export function columnsOf<T extends Table, K extends keyof T['_']['columns'] & string>(
  table: T,
  ...names: K[]
): Pick<T['_']['columns'], K> {
  const all = getTableColumns(table);
  return Object.fromEntries(names.map((name) => [name, all[name]])) as Pick<T['_']['columns'], K>;
}
