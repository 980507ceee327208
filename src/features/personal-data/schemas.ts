import { z } from 'zod';
import { staffEmailSchema } from '../staff/index.ts';

/** Personal-data requests in the back office (decision 159): find, export, erase one person. */
export const PERSONAL_DATA_API = '/api/admin/personal-data';

/** The seven stores that may hold a person, in the order they are shown and erased. */
export const PERSON_STORES = [
  'customers',
  'orders',
  'submissions',
  'subscriptions',
  'campaignEntries',
  'reviews',
  'outbox',
] as const;
export type PersonStore = (typeof PERSON_STORES)[number];

/** The address asked about: in the body, never in a URL (logs and history keep URLs). */
export const personQuerySchema = z.object({ email: staffEmailSchema }).strict();
export type PersonQuery = z.infer<typeof personQuerySchema>;

export const storeCountsSchema = z.object(
  Object.fromEntries(PERSON_STORES.map((s) => [s, z.number().int().min(0)])) as Record<
    PersonStore,
    z.ZodNumber
  >,
);
export type StoreCounts = z.infer<typeof storeCountsSchema>;

export const foundRecordSchema = z.object({
  store: z.enum(PERSON_STORES),
  id: z.string(),
  siteId: z.string().nullable(),
  lang: z.string().nullable(),
  at: z.string(),
  summary: z.string(),
  /** A submission kept by its legal hold: an erasure leaves it (and its mails). */
  held: z.boolean(),
});
export type FoundRecord = z.infer<typeof foundRecordSchema>;

export const personFoundSchema = z.object({
  /** The keyed hash of the address: what the audit log names the person by. */
  subject: z.string(),
  counts: storeCountsSchema,
  /** What an erasure by this staff member would take now (their erase grants, less held rows). */
  erasable: storeCountsSchema,
  records: z.array(foundRecordSchema),
});
export type PersonFound = z.infer<typeof personFoundSchema>;

/** An erasure names the counts the staff member confirmed; other counts now are 409. */
export const eraseRequestSchema = z
  .object({ email: staffEmailSchema, counts: storeCountsSchema })
  .strict();
export type EraseRequest = z.infer<typeof eraseRequestSchema>;

export const erasedSchema = z.object({
  subject: z.string(),
  requestId: z.string(),
  /** What each store erased (orders: anonymised). */
  erased: storeCountsSchema,
  /** Submissions (with their mails) kept by a legal hold. */
  kept: z.number().int(),
  sessionsEnded: z.number().int(),
  filesDeleted: z.number().int(),
  /** Files whose deletion failed now: the retry job deletes them. */
  filesPending: z.number().int(),
});
export type Erased = z.infer<typeof erasedSchema>;
