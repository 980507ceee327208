/**
 * The process entry. React and other libraries pick their production build from NODE_ENV when
 * they are first loaded, so it is settled here, before anything else is imported: the server is
 * production unless told otherwise.
 */
process.env.NODE_ENV ??= 'production';
await import('./start.ts');

export {};
