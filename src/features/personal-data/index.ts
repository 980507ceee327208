/** Browser-safe parts of personal-data requests: the API's shapes. */
export * from './schemas.ts';
