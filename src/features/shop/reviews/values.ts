import { SHOP_SITE_ID } from '../../../sites/shop-id.ts';

/**
 * The reviews' plain values (shop spec §7, §9), apart from their zod schemas (`schemas.ts`, which
 * re-exports them), so the review list on every shop product page loads without zod.
 */

export const REVIEW_API = `/api/review/${SHOP_SITE_ID}/`;

/** Spec §9: page size 9, text at most 500 characters, ratings 1–5, truncation at 170. */
export const REVIEW_PAGE_SIZE = 9;
export const REVIEW_PAGE_SIZE_MAX = 50;
export const REVIEW_TEXT_MAX = 500;
export const REVIEW_TRUNCATE_AT = 170;
export const RATING_MIN = 1;
export const RATING_MAX = 5;
export const USER_NAME_MAX = 60;
/** Pages a product page asks for at once when opened with `page` above 1 (spec §4). */
export const REVIEW_PAGES_MAX = 20;
