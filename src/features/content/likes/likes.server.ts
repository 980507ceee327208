import { createHmac } from 'node:crypto';
import { and, count, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import type { Block, Card } from '../blocks.ts';
import { contentLikes, products, recipes } from '../tables.ts';
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

/**
 * The blocks of a page with the stored like counts on their cards: a card that shows likes and
 * links to a recipe or product of the site and language shows that row's `like_count`, not the
 * number written into the page when it was made. Blocks without such cards come back as they are.
 */
export async function withStoredLikes(
  db: Database,
  siteId: string,
  lang: string,
  blocks: readonly Block[],
): Promise<Block[]> {
  const paths = new Set<string>();
  for (const block of blocks) {
    for (const card of cardsOf(block)) {
      if (card.likeCount !== undefined && card.link.startsWith('/')) paths.add(card.link);
    }
  }
  if (paths.size === 0) return [...blocks];
  const list = [...paths];
  const [recipeRows, productRows] = await Promise.all([
    db
      .select({ path: recipes.path, likeCount: recipes.likeCount })
      .from(recipes)
      .where(and(eq(recipes.siteId, siteId), eq(recipes.lang, lang), inArray(recipes.path, list))),
    db
      .select({ path: products.path, likeCount: products.likeCount })
      .from(products)
      .where(
        and(eq(products.siteId, siteId), eq(products.lang, lang), inArray(products.path, list)),
      ),
  ]);
  const stored = new Map([...productRows, ...recipeRows].map((r) => [r.path, r.likeCount]));
  const fresh = (card: Card): Card => {
    const likeCount = card.likeCount === undefined ? undefined : stored.get(card.link);
    return likeCount === undefined ? card : { ...card, likeCount };
  };
  return blocks.map((block) =>
    block.type === 'card-grid' || block.type === 'card-carousel'
      ? { ...block, cards: block.cards.map(fresh) }
      : block,
  );
}

function cardsOf(block: Block): readonly Card[] {
  return block.type === 'card-grid' || block.type === 'card-carousel' ? block.cards : [];
}
