import { and, desc, eq, gte, lt, lte, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.ts';
import { scopeWhere } from './access.server.ts';
import type { AccessGrant } from './access.ts';
import type { AuditRow } from './schemas.ts';
import { auditLog } from './tables.ts';

/**
 * The audit log (decision 132): who did what, when, from where, and the before and after of the
 * fields that changed. Rows are written in the transaction of the change they describe, so
 * neither exists without the other; the table refuses UPDATE and DELETE.
 */

export type Changes = Record<string, { before?: unknown; after?: unknown }>;

export interface AuditEntry {
  action: string;
  subjectType?: string;
  subjectId?: string;
  siteId?: string | null;
  lang?: string | null;
  changes?: Changes;
}

/** Who acts: a signed-in staff member, someone at a login step, or the command line. */
export interface Actor {
  staffId: string | null;
  label: string;
  ip?: string | null;
  requestId?: string | null;
}

export const COMMAND_LINE: Actor = { staffId: null, label: 'command line' };

/** The request's actor: `staff` (someone at a login step), or the signed-in staff member. */
export function actorOf(request: FastifyRequest, staff?: { id: string; email: string }): Actor {
  const id = staff?.id ?? request.staff?.staffId ?? null;
  return {
    staffId: id,
    label: staff?.email ?? request.staff?.email ?? 'anonymous',
    ip: request.ip,
    requestId: request.id,
  };
}

type Writer = Pick<Database, 'insert'>;

export async function recordAudit(tx: Writer, actor: Actor, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({
    staffId: actor.staffId,
    actor: actor.label,
    action: entry.action,
    subjectType: entry.subjectType ?? null,
    subjectId: entry.subjectId ?? null,
    siteId: entry.siteId ?? null,
    lang: entry.lang ?? null,
    ip: actor.ip ?? null,
    requestId: actor.requestId ?? null,
    changes: entry.changes ?? {},
  });
}

/**
 * The fields of `after` whose value differs from `before`'s (compared as JSON), each with both
 * values; fields named in `secret` show only that they changed.
 */
export function changesBetween(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  secret: readonly string[] = [],
): Changes {
  const changes: Changes = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of keys) {
    const a = before?.[key];
    const b = after?.[key];
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    changes[key] = secret.includes(key)
      ? {
          before: a === undefined || a === null ? null : '…',
          after: b === undefined || b === null ? null : '…',
        }
      : { ...(before ? { before: a ?? null } : {}), ...(after ? { after: b ?? null } : {}) };
  }
  return changes;
}

const PAGE = 50;

/**
 * The audit log for a reader with `audit.read`: newest first, a page at a time, filtered, and
 * limited to the sites the grants give it for (rows about no site need a grant for every site).
 */
export async function listAudit(
  db: Database,
  grants: readonly AccessGrant[],
  filter: {
    staff?: string | undefined;
    action?: string | undefined;
    site?: string | undefined;
    lang?: string | undefined;
    subject?: string | undefined;
    from?: string | undefined;
    to?: string | undefined;
    before?: number | undefined;
  },
): Promise<{ entries: AuditRow[]; next: number | null }> {
  // A row about no site has a null site, which no list of sites takes: only a grant for every
  // site shows it.
  const where: SQL[] = [
    scopeWhere(grants, 'audit.read', { site: auditLog.siteId, lang: auditLog.lang }),
  ];
  if (filter.staff) where.push(eq(auditLog.staffId, filter.staff));
  if (filter.action)
    where.push(sql`${auditLog.action} like ${`${filter.action.replace(/[%_\\]/g, '\\$&')}%`}`);
  if (filter.site) where.push(eq(auditLog.siteId, filter.site));
  if (filter.lang) where.push(eq(auditLog.lang, filter.lang));
  if (filter.subject) where.push(eq(auditLog.subjectId, filter.subject));
  if (filter.from) where.push(gte(auditLog.at, new Date(filter.from)));
  if (filter.to) where.push(lte(auditLog.at, new Date(filter.to)));
  if (filter.before) where.push(lt(auditLog.id, filter.before));
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(...where))
    .orderBy(desc(auditLog.id))
    .limit(PAGE + 1);
  const page = rows.slice(0, PAGE);
  return {
    entries: page.map((row) => ({
      id: row.id,
      at: row.at.toISOString(),
      staffId: row.staffId,
      actor: row.actor,
      action: row.action,
      subjectType: row.subjectType,
      subjectId: row.subjectId,
      siteId: row.siteId,
      lang: row.lang,
      ip: row.ip,
      changes: row.changes,
    })),
    next: rows.length > PAGE ? (page[page.length - 1]?.id ?? null) : null,
  };
}
