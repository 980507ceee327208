/**
 * The shop back office's rate limits, per client and minute, the same for every one of its APIs:
 * staff page through lists and filters freely, and change things by hand.
 */
export const API_LIMIT = { max: 600, timeWindow: 60_000 };
export const WRITE_LIMIT = { max: 120, timeWindow: 60_000 };
