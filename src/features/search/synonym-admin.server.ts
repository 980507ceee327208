import { and, asc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Transaction } from '../../db/client.ts';
import { Conflict, NotFound } from '../../server/errors.ts';
import { actorOf, recordAudit } from '../staff/index.server.ts';
import type { SynonymCreate, SynonymRow, SynonymUpdate } from './synonym-schemas.ts';
import { searchSynonyms } from './tables.ts';

/**
 * The synonym sets' use cases in the back office (decision 164). Each write is one transaction
 * with its audit row; a change or removal names the version the staff member saw and is 409 when
 * the set has moved on. The write is a content change: every process reads the sets again before
 * its next search (synonyms.server.ts).
 */
type Row = typeof searchSynonyms.$inferSelect;

function rowOf(row: Row): SynonymRow {
  return {
    id: row.id,
    lang: row.lang as SynonymRow['lang'],
    kind: row.kind as SynonymRow['kind'],
    terms: row.terms,
    targets: row.targets,
    version: row.version,
    updatedAt: row.updatedAt.toISOString(),
  };
}

const subject = (row: Pick<Row, 'id' | 'lang'>) => ({
  subjectType: 'search-synonym',
  subjectId: String(row.id),
  lang: row.lang,
});

/** What the audit row shows of a set. */
const shown = (row: Pick<Row, 'kind' | 'terms' | 'targets'>) => ({
  kind: row.kind,
  terms: row.terms,
  targets: row.targets,
});

export async function listSynonyms(
  request: FastifyRequest,
  lang: string,
): Promise<{ synonyms: SynonymRow[] }> {
  const rows = await request.server.db
    .select()
    .from(searchSynonyms)
    .where(eq(searchSynonyms.lang, lang))
    .orderBy(asc(searchSynonyms.id));
  return { synonyms: rows.map(rowOf) };
}

export async function createSynonym(
  request: FastifyRequest,
  lang: string,
  body: SynonymCreate,
): Promise<SynonymRow> {
  return request.server.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(searchSynonyms)
      .values({ lang, kind: body.kind, terms: body.terms, targets: body.targets })
      .returning();
    if (!row) throw new Error('synonym insert returned no row');
    await recordAudit(tx, actorOf(request), {
      action: 'search.synonyms.create',
      ...subject(row),
      changes: Object.fromEntries(
        Object.entries(shown(row)).map(([key, after]) => [key, { after }]),
      ),
    });
    return rowOf(row);
  });
}

export async function updateSynonym(
  request: FastifyRequest,
  lang: string,
  id: number,
  body: SynonymUpdate,
): Promise<SynonymRow> {
  return request.server.db.transaction(async (tx) => {
    const before = await lockedSet(tx, lang, id, body.version);
    const next = { kind: body.kind, terms: body.terms, targets: body.targets };
    const changes: Record<string, { before: unknown; after: unknown }> = {};
    const old = shown(before);
    for (const key of ['kind', 'terms', 'targets'] as const) {
      if (JSON.stringify(old[key]) !== JSON.stringify(next[key]))
        changes[key] = { before: old[key], after: next[key] };
    }
    if (Object.keys(changes).length === 0) return rowOf(before);
    const [row] = await tx
      .update(searchSynonyms)
      .set({ ...next, version: before.version + 1, updatedAt: new Date() })
      .where(eq(searchSynonyms.id, id))
      .returning();
    if (!row) throw new Error('synonym update returned no row');
    await recordAudit(tx, actorOf(request), {
      action: 'search.synonyms.update',
      ...subject(row),
      changes,
    });
    return rowOf(row);
  });
}

export async function deleteSynonym(
  request: FastifyRequest,
  lang: string,
  id: number,
  version: number,
): Promise<{ ok: true }> {
  return request.server.db.transaction(async (tx) => {
    const before = await lockedSet(tx, lang, id, version);
    await tx.delete(searchSynonyms).where(eq(searchSynonyms.id, id));
    await recordAudit(tx, actorOf(request), {
      action: 'search.synonyms.delete',
      ...subject(before),
      changes: Object.fromEntries(
        Object.entries(shown(before)).map(([key, value]) => [key, { before: value }]),
      ),
    });
    return { ok: true as const };
  });
}

/** The set locked for a change: 404 when it is not the language's, 409 when it moved on. */
async function lockedSet(tx: Transaction, lang: string, id: number, version: number) {
  const [row] = await tx
    .select()
    .from(searchSynonyms)
    .where(and(eq(searchSynonyms.id, id), eq(searchSynonyms.lang, lang)))
    .for('update');
  if (!row) throw new NotFound('No such synonym set in the language.');
  if (row.version !== version)
    throw new Conflict('Someone changed the synonym set since it was shown. Look again.');
  return row;
}
