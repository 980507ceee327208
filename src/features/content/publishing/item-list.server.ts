import {
  and,
  count,
  desc,
  eq,
  isNull,
  type SQL,
  type SQLWrapper,
  type Subquery,
  sql,
} from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../../../db/client.ts';
import { sites } from '../../../sites/registry.ts';
import { scopeWhere } from '../../staff/index.server.ts';
import type { AccessGrant, Permission } from '../../staff/index.ts';
import { contentItems, contentVersions } from '../tables.ts';
import type { KindListRow } from './kind-schemas.ts';
import type { ItemKind } from './versions.server.ts';

/**
 * The list of one kind's items in the back office (decisions 162, 171), the same for every kind:
 * the live rows the grants reach, with whether a newer draft waits, and the items never
 * published (their newest draft's title and detail).
 */

/** The sites and languages the grants give `content.edit` for. */
export function editableScopes(grants: readonly AccessGrant[]) {
  const scopes = new Map<string, { siteId: string; lang: string }>();
  for (const grant of grants) {
    if (!grant.permissions.includes('content.edit')) continue;
    for (const site of sites) {
      if (grant.sites !== null && !grant.sites.includes(site.id)) continue;
      for (const lang of site.languages) {
        if (grant.langs !== null && !grant.langs.includes(lang)) continue;
        scopes.set(`${site.id}/${lang}`, { siteId: site.id, lang });
      }
    }
  }
  return [...scopes.values()];
}

const PAGE_SIZE = 50;

/** An item's newest version: how `content_versions` joins `content_items`. */
export const atHeadVersion = and(
  eq(contentVersions.kind, contentItems.kind),
  eq(contentVersions.itemId, contentItems.itemId),
  eq(contentVersions.version, contentItems.headVersion),
);

/**
 * What a list of a kind's items reads: its live rows (of the table of `columns`) and its items
 * never published, each in the sites and languages the grants give `permission` for, narrowed to
 * the `site` and `lang` asked.
 */
export function listWhere(
  grants: readonly AccessGrant[],
  permission: Permission,
  kind: ItemKind,
  columns: { siteId: PgColumn; lang: PgColumn },
  query: { site?: string | undefined; lang?: string | undefined },
): { live: SQL[]; drafts: SQL[] } {
  const live: SQL[] = [
    scopeWhere(grants, permission, { site: columns.siteId, lang: columns.lang }),
  ];
  const drafts: SQL[] = [
    scopeWhere(grants, permission, { site: contentItems.siteId, lang: contentItems.lang }),
    eq(contentItems.kind, kind),
    isNull(contentItems.publishedVersion),
  ];
  if (query.site) {
    live.push(eq(columns.siteId, query.site));
    drafts.push(eq(contentItems.siteId, query.site));
  }
  if (query.lang) {
    live.push(eq(columns.lang, query.lang));
    drafts.push(eq(contentItems.lang, query.lang));
  }
  return { live, drafts };
}

/**
 * A page of a list's rows (its live rows and drafts together): 50 from `offset`, the latest
 * first by `latest` (the newest id first among equals), and how many there are in all.
 */
export async function listPage<Union extends Subquery & { id: SQLWrapper }>(
  db: Database,
  union: Union,
  latest: SQLWrapper,
  offset: number,
): Promise<{ rows: SelectResultFields<Union['_']['selectedFields']>[]; total: number }> {
  // The union's own type is too deep for the query builder's generics; its rows are its fields.
  const rowsOf: Subquery = union;
  const [rows, [total]] = await Promise.all([
    db.select().from(rowsOf).orderBy(desc(latest), desc(union.id)).limit(PAGE_SIZE).offset(offset),
    db.select({ n: count() }).from(rowsOf),
  ]);
  return {
    rows: rows as SelectResultFields<Union['_']['selectedFields']>[],
    total: Number(total?.n ?? 0),
  };
}

/** Where a kind's list reads its live rows and its never-published drafts' documents. */
export interface ListSpec {
  kind: ItemKind;
  table: PgTable;
  columns: {
    id: PgColumn;
    siteId: PgColumn;
    lang: PgColumn;
    title: PgColumn;
    detail: PgColumn;
    updatedAt: PgColumn;
  };
  /** The document's fields the list shows for a draft: its title and its detail. */
  fields: { title: string; detail: string };
}

type ListTable = PgTable & { id: PgColumn; siteId: PgColumn; lang: PgColumn; updatedAt: PgColumn };

/**
 * A kind's list from its table and the two columns it shows, a title and a detail; a draft's
 * document has them under the same names.
 */
export function listSpecOf<T extends ListTable>(
  kind: ItemKind,
  table: T,
  title: keyof T & string,
  detail: keyof T & string,
): ListSpec {
  const { id, siteId, lang, updatedAt } = table;
  const column = (key: keyof T & string) => table[key] as unknown as PgColumn;
  return {
    kind,
    table,
    columns: { id, siteId, lang, title: column(title), detail: column(detail), updatedAt },
    fields: { title, detail },
  };
}

export type ListQuery = {
  site?: string | undefined;
  lang?: string | undefined;
  q?: string | undefined;
  offset: number;
};

/**
 * The items of a kind the grants reach: published ones (with whether a newer draft waits) and
 * those not yet published, most recently changed first, 50 at a time, searched by their title.
 */
export async function listKind(request: FastifyRequest, spec: ListSpec, query: ListQuery) {
  const db = request.server.db;
  const grants = request.staff?.grants ?? [];
  const c = spec.columns;
  const q = query.q ? `%${query.q.replace(/[%_\\]/g, '\\$&')}%` : undefined;
  const { live, drafts } = listWhere(grants, 'content.edit', spec.kind, c, query);
  const title = sql<string>`${contentVersions.document}->>${spec.fields.title}`;
  if (q) {
    live.push(sql`${c.title} ilike ${q}`);
    drafts.push(sql`${title} ilike ${q}`);
  }
  const liveRows = db
    .select({
      id: sql<number>`${c.id}`.as('id'),
      siteId: sql<string>`${c.siteId}`.as('site_id'),
      lang: sql<string>`${c.lang}`.as('lang'),
      title: sql<string>`${c.title}`.as('title'),
      detail: sql<string>`${c.detail}::text`.as('detail'),
      state:
        sql<string>`case when ${contentItems.headVersion} > ${contentItems.publishedVersion} then 'changed' else 'published' end`.as(
          'state',
        ),
      updatedAt: sql<Date>`greatest(${c.updatedAt}, ${contentItems.updatedAt})`.as('updated_at'),
      version: sql<number>`coalesce(${contentItems.headVersion}, 1)`.as('version'),
    })
    .from(spec.table)
    .leftJoin(contentItems, and(eq(contentItems.kind, spec.kind), eq(contentItems.itemId, c.id)))
    .where(and(...live));
  const draftRows = db
    .select({
      id: sql<number>`${contentItems.itemId}`.as('id'),
      siteId: sql<string>`${contentItems.siteId}`.as('site_id'),
      lang: sql<string>`${contentItems.lang}`.as('lang'),
      title: sql<string>`${title}`.as('title'),
      detail: sql<string>`${contentVersions.document}->>${spec.fields.detail}`.as('detail'),
      state: sql<string>`'draft'`.as('state'),
      updatedAt: sql<Date>`${contentItems.updatedAt}`.as('updated_at'),
      version: sql<number>`${contentItems.headVersion}`.as('version'),
    })
    .from(contentItems)
    .innerJoin(contentVersions, atHeadVersion)
    .where(and(...drafts));
  const union = liveRows.unionAll(draftRows).as('u');
  const { rows, total } = await listPage(db, union, union.updatedAt, query.offset);
  return {
    rows: rows.map(
      (r): KindListRow => ({
        id: Number(r.id),
        siteId: r.siteId,
        lang: r.lang,
        title: r.title ?? '',
        detail: r.detail ?? '',
        state: r.state as KindListRow['state'],
        updatedAt: new Date(r.updatedAt).toISOString(),
        version: Number(r.version),
      }),
    ),
    total,
    scopes: editableScopes(grants),
  };
}
