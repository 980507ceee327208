/**
 * The marketing lists' back-office surface (decision 145): the subscribers' and campaigns' API
 * schemas and types, for the /admin app. Nothing here loads database code.
 */
export * from './admin/schemas.ts';
