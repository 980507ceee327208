/**
 * Test data in one place: each factory inserts valid rows, with overrides for what a test cares
 * about. Shared test code lives under `tests/`: data here, drivers (the app, a visitor) in
 * `tests/helpers/`. Fixtures only one feature needs stay beside its code as `*.test-support.ts`.
 */
export * from './content.ts';
export * from './facets.ts';
export * from './subscriptions.ts';
