/**
 * The search's back-office surface: the synonym sets' API schemas and types (decision 164), for
 * the /admin app. Nothing here loads database code.
 */
export * from './synonym-schemas.ts';
