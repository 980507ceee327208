import { and, eq } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { pathRedirects } from './tables.ts';

/** One item's published path moving within its site and language. */
export interface PathChange {
  siteId: string;
  lang: string;
  from: string;
  to: string;
}

/**
 * Where a path that no live item has moved to (decision 165): the current path, or undefined.
 * Asked only after the path was not found, so live paths cost nothing.
 */
export async function movedPath(
  db: Database,
  siteId: string,
  lang: string,
  path: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ toPath: pathRedirects.toPath })
    .from(pathRedirects)
    .where(
      and(
        eq(pathRedirects.siteId, siteId),
        eq(pathRedirects.lang, lang),
        eq(pathRedirects.fromPath, path),
      ),
    )
    .limit(1);
  return row?.toPath;
}

/**
 * Records that a published item's path moved, in the transaction that publishes the move: the
 * old path answers 301 to the new one, every older path that pointed at the old one now points at
 * the new one (no chains), and a redirect from the new path (it is live again) is dropped.
 */
export async function recordPathChange(tx: Transaction, change: PathChange): Promise<void> {
  if (change.from === change.to) return;
  const { siteId, lang } = change;
  const here = and(eq(pathRedirects.siteId, siteId), eq(pathRedirects.lang, lang));
  await tx.delete(pathRedirects).where(and(here, eq(pathRedirects.fromPath, change.to)));
  await tx
    .update(pathRedirects)
    .set({ toPath: change.to })
    .where(and(here, eq(pathRedirects.toPath, change.from)));
  await tx
    .insert(pathRedirects)
    .values({ siteId, lang, fromPath: change.from, toPath: change.to })
    .onConflictDoUpdate({
      target: [pathRedirects.siteId, pathRedirects.lang, pathRedirects.fromPath],
      set: { toPath: change.to, createdAt: new Date() },
    });
}
