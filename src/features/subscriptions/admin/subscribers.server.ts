import { and, asc, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../../../db/client.ts';
import { csvText } from '../../../server/csv.ts';
import { Conflict, Forbidden, Invalid, NotFound } from '../../../server/errors.ts';
import { actorOf, recordAudit, scopeWhere } from '../../staff/index.server.ts';
import { type AccessGrant, can } from '../../staff/index.ts';
import { campaigns, newsReleaseCategories, subscriptions } from '../tables.ts';
import type {
  ListKind,
  Subscriber,
  SubscriberList,
  SubscribersQuery,
  SubscriptionStatus,
} from './schemas.ts';

/**
 * The marketing lists' subscribers in the back office (decision 158). Every query is limited to
 * the sites and languages the staff member's grants give `subscribers.read` for (`scopeWhere`);
 * the overview of lists carries counts only, while every read of addresses (a page of the list,
 * an export) writes its audit row. Taking someone off a list is made on the version the staff
 * member saw, with its audit row in the same transaction.
 */

const PAGE_SIZE = 50;
/** At most this many subscribers in one export: a larger one is narrowed by its filters. */
export const EXPORT_MAX = 50_000;

type Row = typeof subscriptions.$inferSelect;

export function signedIn(request: FastifyRequest) {
  const staff = request.staff;
  if (!staff) throw new Forbidden();
  return staff;
}

/** The version a change names: the row's last change, to the millisecond. */
const versionOf = (row: Pick<Row, 'updatedAt'>) => row.updatedAt.toISOString();

function subscriberOf(row: Row): Subscriber {
  return {
    id: row.id,
    siteId: row.siteId,
    list: row.list,
    email: row.email,
    lang: row.lang,
    status: row.status as SubscriptionStatus,
    source: row.source,
    consentText: row.consentText,
    consentAt: row.consentAt.toISOString(),
    confirmedAt: row.confirmedAt?.toISOString() ?? null,
    unsubscribedAt: row.unsubscribedAt?.toISOString() ?? null,
    version: versionOf(row),
  };
}

export function kindOf(list: string): ListKind {
  if (list === 'newsletter') return 'newsletter';
  if (list.startsWith('newsreleases:')) return 'newsreleases';
  return 'campaign';
}

/**
 * The lists of the sites the grants reach, with how many addresses each has in each status: the
 * lists that have rows, and every news-release category of those sites (a new one has none yet).
 * Category and campaign names come in the staff member's language where the site has it.
 */
export async function listLists(
  db: Database,
  grants: readonly AccessGrant[],
  lang: string,
): Promise<SubscriberList[]> {
  const scope = scopeWhere(grants, 'subscribers.read', {
    site: subscriptions.siteId,
    lang: subscriptions.lang,
  });
  const counted = await db
    .select({
      siteId: subscriptions.siteId,
      list: subscriptions.list,
      status: subscriptions.status,
      n: count(),
    })
    .from(subscriptions)
    .where(scope)
    .groupBy(subscriptions.siteId, subscriptions.list, subscriptions.status);
  const categories = await db
    .select()
    .from(newsReleaseCategories)
    .where(
      scopeWhere(grants, 'subscribers.read', {
        site: newsReleaseCategories.siteId,
        lang: newsReleaseCategories.lang,
      }),
    )
    .orderBy(asc(newsReleaseCategories.position));
  const campaignRows = await db.select().from(campaigns);
  const lists = new Map<string, SubscriberList>();
  const entry = (siteId: string, list: string): SubscriberList => {
    const key = `${siteId} ${list}`;
    let found = lists.get(key);
    if (!found) {
      const kind = kindOf(list);
      const type = list.slice('newsreleases:'.length);
      const named = categories.filter((c) => c.siteId === siteId && c.informationType === type);
      found = {
        siteId,
        list,
        kind,
        name:
          kind === 'newsreleases'
            ? ((named.find((c) => c.lang === lang) ?? named[0])?.name ?? type)
            : kind === 'campaign'
              ? (campaignRows.find((c) => c.siteId === siteId && c.newsletterList === list)?.name ??
                list)
              : null,
        counts: { pending: 0, confirmed: 0, unsubscribed: 0 },
      };
      lists.set(key, found);
    }
    return found;
  };
  for (const c of categories) entry(c.siteId, `newsreleases:${c.informationType}`);
  for (const row of counted) {
    entry(row.siteId, row.list).counts[row.status as SubscriptionStatus] = Number(row.n);
  }
  const order: Record<ListKind, number> = { newsletter: 0, newsreleases: 1, campaign: 2 };
  return [...lists.values()].sort(
    (a, b) =>
      a.siteId.localeCompare(b.siteId) ||
      order[a.kind] - order[b.kind] ||
      a.list.localeCompare(b.list),
  );
}

function subscribersWhere(
  grants: readonly AccessGrant[],
  query: Omit<SubscribersQuery, 'offset'>,
): SQL[] {
  const where: SQL[] = [
    scopeWhere(grants, 'subscribers.read', {
      site: subscriptions.siteId,
      lang: subscriptions.lang,
    }),
  ];
  if (query.site) where.push(eq(subscriptions.siteId, query.site));
  if (query.lang) where.push(eq(subscriptions.lang, query.lang));
  if (query.list) where.push(eq(subscriptions.list, query.list));
  if (query.status) where.push(eq(subscriptions.status, query.status));
  if (query.q) {
    const pattern = `%${query.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(sql`lower(${subscriptions.email}) like ${pattern}`);
  }
  return where;
}

/** The filters an audit row keeps (the address search included: it says whom was looked for). */
const filtersOf = (query: Omit<SubscribersQuery, 'offset'>) =>
  Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== ''));

/**
 * A page of the subscribers the grants reach, newest first, narrowed by the query. The addresses
 * are personal data: the read writes `subscribers.read` with the filters and how many were shown.
 */
export async function listSubscribers(
  request: FastifyRequest,
  query: SubscribersQuery,
): Promise<{ subscribers: Subscriber[]; total: number }> {
  const db = request.server.db;
  const { offset, ...filters } = query;
  const where = subscribersWhere(signedIn(request).grants, filters);
  const [total] = await db
    .select({ n: count() })
    .from(subscriptions)
    .where(and(...where));
  const rows = await db
    .select()
    .from(subscriptions)
    .where(and(...where))
    .orderBy(desc(subscriptions.consentAt), desc(subscriptions.id))
    .limit(PAGE_SIZE)
    .offset(offset);
  await recordAudit(db, actorOf(request), {
    action: 'subscribers.read',
    subjectType: 'subscriptions',
    siteId: query.site ?? null,
    lang: query.lang ?? null,
    changes: { read: { after: { ...filtersOf(filters), offset, shown: rows.length } } },
  });
  return { subscribers: rows.map(subscriberOf), total: Number(total?.n ?? 0) };
}

/**
 * The subscribers of the filters as CSV for a spreadsheet (the inbox's format: UTF-8 with a
 * byte-order mark, `;`, CRLF), each with its consent record. Limited to the grants like the list;
 * more than `EXPORT_MAX` is 400. Writes `subscribers.export` with the filters and the count.
 */
export async function exportSubscribers(
  request: FastifyRequest,
  query: Omit<SubscribersQuery, 'offset'>,
): Promise<string> {
  const db = request.server.db;
  const rows = await db
    .select()
    .from(subscriptions)
    .where(and(...subscribersWhere(signedIn(request).grants, query)))
    .orderBy(asc(subscriptions.siteId), asc(subscriptions.list), asc(subscriptions.id))
    .limit(EXPORT_MAX + 1);
  if (rows.length > EXPORT_MAX) {
    throw new Invalid(
      { list: 'admin.error.exportTooLarge' },
      'Too many subscribers: narrow the filters.',
    );
  }
  const head = [
    'id',
    'site',
    'lang',
    'list',
    'email',
    'status',
    'source',
    'consentText',
    'consentAt',
    'confirmedAt',
    'unsubscribedAt',
  ];
  const lines = [
    head,
    ...rows.map((row) => {
      const s = subscriberOf(row);
      return [
        s.id,
        s.siteId,
        s.lang,
        s.list,
        s.email,
        s.status,
        s.source,
        s.consentText,
        s.consentAt,
        s.confirmedAt,
        s.unsubscribedAt,
      ];
    }),
  ];
  await recordAudit(db, actorOf(request), {
    action: 'subscribers.export',
    subjectType: 'subscriptions',
    siteId: query.site ?? null,
    lang: query.lang ?? null,
    changes: { export: { after: { ...filtersOf(query), count: rows.length } } },
  });
  return csvText(lines);
}

/**
 * Refuses (403) a staff member whose grants do not give `subscribers.manage` for the row's site
 * and language, or 404 when there is none; for the route's `preValidation`.
 */
export async function assertSubscriptionAccess(request: FastifyRequest): Promise<void> {
  const id = Number((request.params as { id?: unknown }).id);
  if (!Number.isInteger(id) || id < 1) return; // the params schema answers 400
  const [row] = await request.server.db
    .select({ siteId: subscriptions.siteId, lang: subscriptions.lang })
    .from(subscriptions)
    .where(eq(subscriptions.id, id));
  if (!row) throw new NotFound('No such subscription.');
  if (!can(signedIn(request).grants, 'subscribers.manage', row)) {
    throw new Forbidden(
      `This needs the permission subscribers.manage for ${row.siteId}/${row.lang}.`,
    );
  }
}

/**
 * Takes an address off a list on the person's behalf (they asked by phone or mail), on the
 * version the staff member saw: the row is locked, one changed since (resubscribed, confirmed)
 * is 409 with nothing written; one already off its list is answered as it is and nothing is
 * written. The change and its audit row (`subscribers.unsubscribe`, status before and after)
 * are one transaction. Its pending confirmation link stops working, as the mailed link's does.
 */
export async function unsubscribeOnBehalf(
  request: FastifyRequest,
  id: number,
  seenVersion: string,
): Promise<Subscriber> {
  const db = request.server.db;
  const grants = signedIn(request).grants;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, id))
      .for('update');
    if (!row) throw new NotFound('No such subscription.');
    if (!can(grants, 'subscribers.manage', row)) throw new Forbidden();
    if (row.status === 'unsubscribed') return subscriberOf(row);
    if (versionOf(row) !== new Date(seenVersion).toISOString()) {
      throw new Conflict('The subscription changed since it was shown. Look at it again.');
    }
    const now = new Date();
    const [changed] = await tx
      .update(subscriptions)
      .set({
        status: 'unsubscribed',
        unsubscribedAt: now,
        tokenHash: null,
        tokenExpiresAt: null,
        updatedAt: now,
      })
      .where(eq(subscriptions.id, id))
      .returning();
    if (!changed) throw new NotFound('No such subscription.');
    await recordAudit(tx, actorOf(request), {
      action: 'subscribers.unsubscribe',
      subjectType: 'subscription',
      subjectId: String(id),
      siteId: row.siteId,
      lang: row.lang,
      changes: {
        status: { before: row.status, after: 'unsubscribed' },
        list: { after: row.list },
      },
    });
    return subscriberOf(changed);
  });
}
