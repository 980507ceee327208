import { and, count, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import { sites } from '../../../sites/registry.ts';
import { scopeWhere } from '../../staff/index.server.ts';
import type { AccessGrant } from '../../staff/index.ts';
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
  const live: SQL[] = [scopeWhere(grants, 'content.edit', { site: c.siteId, lang: c.lang })];
  const drafts: SQL[] = [
    scopeWhere(grants, 'content.edit', { site: contentItems.siteId, lang: contentItems.lang }),
    eq(contentItems.kind, spec.kind),
    isNull(contentItems.publishedVersion),
  ];
  const title = sql<string>`${contentVersions.document}->>${spec.fields.title}`;
  if (query.site) {
    live.push(eq(c.siteId, query.site));
    drafts.push(eq(contentItems.siteId, query.site));
  }
  if (query.lang) {
    live.push(eq(c.lang, query.lang));
    drafts.push(eq(contentItems.lang, query.lang));
  }
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
    .innerJoin(
      contentVersions,
      and(
        eq(contentVersions.kind, contentItems.kind),
        eq(contentVersions.itemId, contentItems.itemId),
        eq(contentVersions.version, contentItems.headVersion),
      ),
    )
    .where(and(...drafts));
  const union = liveRows.unionAll(draftRows).as('u');
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(union)
      .orderBy(desc(union.updatedAt), desc(union.id))
      .limit(PAGE_SIZE)
      .offset(query.offset),
    db.select({ n: count() }).from(union),
  ]);
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
    total: Number(total?.n ?? 0),
    scopes: editableScopes(grants),
  };
}
