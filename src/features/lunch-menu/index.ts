/** The lunch menu's browser-safe surface: its contract without zod. */
export * from './values.ts';
