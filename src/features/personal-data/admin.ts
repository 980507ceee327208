/**
 * The personal-data feature's back-office surface (decision 145): its API's address, schemas and
 * types for the /admin app. Nothing here loads database code.
 */
export * from './schemas.ts';
