import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { openText } from '../forms/index.server.ts';
import { submissionEvents, submissionHandling } from './tables.ts';

/**
 * The inbox's part of a personal-data archive (decision 159): how each of the person's
 * submissions was handled and its timeline, notes and replies opened. Erasure needs nothing of
 * its own: both tables go with the submission by cascade.
 */
export async function submissionTimelines(
  db: Pick<Database, 'select'>,
  key: Buffer,
  ids: readonly string[],
): Promise<Map<string, Record<string, unknown>>> {
  const found = new Map<string, Record<string, unknown>>();
  if (ids.length === 0) return found;
  const handling = await db
    .select()
    .from(submissionHandling)
    .where(inArray(submissionHandling.submissionId, [...ids]));
  const events = await db
    .select()
    .from(submissionEvents)
    .where(inArray(submissionEvents.submissionId, [...ids]))
    .orderBy(asc(submissionEvents.id));
  for (const id of ids) {
    const h = handling.find((row) => row.submissionId === id);
    found.set(id, {
      state: h?.state ?? 'new',
      legalHold: h?.legalHold ?? false,
      timeline: events
        .filter((e) => e.submissionId === id)
        .map((e) => ({
          at: e.at.toISOString(),
          kind: e.kind,
          text: e.sealedText ? openText(key, e.sealedText) : null,
          detail: e.detail,
        })),
    });
  }
  return found;
}

/**
 * The submissions among `ids` on legal hold: an erasure keeps them (GDPR art. 17(3)(e)) until
 * the hold is taken off.
 */
export async function heldSubmissions(
  db: Pick<Database, 'select'>,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: submissionHandling.submissionId })
    .from(submissionHandling)
    .where(
      and(
        inArray(submissionHandling.submissionId, [...ids]),
        eq(submissionHandling.legalHold, true),
      ),
    );
  return new Set(rows.map((r) => r.id));
}
