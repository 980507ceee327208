/**
 * The shop's back-office surface (decision 145): the order, catalogue, coupon, gift-card and
 * review-moderation API's schemas and types, the order and review statuses and the Helsinki
 * date, for the /admin app. Nothing here loads database code or any public page's components.
 */

export * from './admin/catalogue-schemas.ts';
export * from './admin/customers-schemas.ts';
export * from './admin/promotions-schemas.ts';
export * from './admin/reviews-schemas.ts';
export * from './admin/schemas.ts';
export { addDays, helsinkiDate, helsinkiStartOfDay } from './dates.ts';
export * from './statuses.ts';
