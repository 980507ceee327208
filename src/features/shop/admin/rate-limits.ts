import { perMinute } from '../../../server/rate-limit.ts';

/**
 * The shop back office's rate limits, per client and minute, the same for every one of its APIs:
 * staff page through lists and filters freely, and change things by hand.
 */
export const API_LIMIT = perMinute(600);
export const WRITE_LIMIT = perMinute(120);
