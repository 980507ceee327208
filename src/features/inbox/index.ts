/** Browser-safe parts of the customer-service inbox: the API's shapes for the /admin app. */
export type { InboxRow, OpenedSubmission, SubmissionEvent } from './schemas.ts';
export type { SubmissionEventKind, SubmissionState } from './tables.ts';
