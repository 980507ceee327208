import { createHmac } from 'node:crypto';
import { and, count, eq, gt, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { contentLikes, products, recipes } from '../../../db/schema.ts';
import type { LikeTarget } from './schemas.ts';

/**
 * Counting likes (decision 040). One row per visitor and content in `content_likes`; the
 * content's `like_count` rises in the same transaction as the row is written, so the count is
 * the stored one everywhere it shows (cards, search hits via the search triggers, the recipe page).
 */

/** Likes of one content from one client address within a day that are counted at most. */
export const LIKES_PER_ADDRESS_AND_DAY = 20;

/** The visitor and client as stored: keyed hashes, never the session token or the address. */
export function likeClientKey(secret: string, address: string): string {
  return createHmac('sha256', secret).update(`like-client:${address}`).digest('base64url');
}

const tableOf = (kind: LikeTarget['kind']) => (kind === 'recipe' ? recipes : products);

/** The stored count of a recipe or product of the site, or undefined when it has none such. */
export async function storedLikeCount(
  db: Database,
  siteId: string,
  target: LikeTarget,
): Promise<number | undefined> {
  const table = tableOf(target.kind);
  const [row] = await db
    .select({ likeCount: table.likeCount })
    .from(table)
    .where(and(eq(table.id, target.id), eq(table.siteId, siteId)));
  return row?.likeCount;
}

/**
 * Counts a visitor's like of a recipe or product of the site, once: a second like by the same
 * visitor (a replay, a double click, twenty requests at once) finds the unique row and counts
 * nothing. Undefined when the site has no such content (nothing is written then).
 */
export async function likeContent(
  db: Database,
  input: { siteId: string; target: LikeTarget; visitor: string; client: string },
): Promise<{ likeCount: number; counted: boolean } | undefined> {
  const { target } = input;
  const table = tableOf(target.kind);
  const targetColumn = target.kind === 'recipe' ? contentLikes.recipeId : contentLikes.productId;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ likeCount: table.likeCount })
      .from(table)
      .where(and(eq(table.id, target.id), eq(table.siteId, input.siteId)));
    if (!row) return undefined;
    const [fromClient] = await tx
      .select({ n: count() })
      .from(contentLikes)
      .where(
        and(
          eq(targetColumn, target.id),
          eq(contentLikes.client, input.client),
          gt(contentLikes.createdAt, sql`now() - interval '1 day'`),
        ),
      );
    if ((fromClient?.n ?? 0) >= LIKES_PER_ADDRESS_AND_DAY) {
      return { likeCount: row.likeCount, counted: false };
    }
    // The unique index (content, visitor) makes a concurrent second insert wait for the first
    // and then do nothing; the count read after it sees the first one's committed raise.
    const inserted = await tx
      .insert(contentLikes)
      .values({
        ...(target.kind === 'recipe' ? { recipeId: target.id } : { productId: target.id }),
        visitor: input.visitor,
        client: input.client,
      })
      .onConflictDoNothing()
      .returning({ id: contentLikes.id });
    if (inserted.length === 0) {
      const [now] = await tx
        .select({ likeCount: table.likeCount })
        .from(table)
        .where(eq(table.id, target.id));
      return { likeCount: now?.likeCount ?? row.likeCount, counted: false };
    }
    const [raised] = await tx
      .update(table)
      .set({ likeCount: sql`${table.likeCount} + 1` })
      .where(eq(table.id, target.id))
      .returning({ likeCount: table.likeCount });
    return { likeCount: raised?.likeCount ?? row.likeCount + 1, counted: true };
  });
}
