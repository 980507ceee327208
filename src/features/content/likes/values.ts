/**
 * The like contract's plain values, without zod: the like button (an island on recipe and product
 * pages, loaded at load) needs the address and the storage key, not the schemas (`schemas.ts`,
 * which re-exports these), so its chunk does not pull zod in (decision 051).
 */

/**
 * Likes (spec §4 and §7, decision 040): `POST /api/contentlikecount/{contentId}` without a body.
 * A content id names the liked recipe or product by its table and row: `recipe-12`,
 * `product-34` (the two tables number their rows apart, so a bare number would be ambiguous).
 */
export const LIKE_API = '/api/contentlikecount';

/** The local storage key of the liked content ids (spec §3: liked ids in local storage). */
export const LIKED_STORAGE_KEY = 'kattaus:liked-content';
