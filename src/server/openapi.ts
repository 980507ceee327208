import { z } from 'zod';

/**
 * What routes declare to Fastify besides their request schemas: their answers, for
 * `/api/openapi.json`. The problem answers are components, the same in every operation.
 */

const problemFields = {
  type: z.string().meta({
    description: '`/problems/<kind>`: validation, not-found, forbidden, xsrf, conflict, …',
    examples: ['/problems/not-found'],
  }),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  instance: z.string().optional().meta({ description: 'The path of the request.' }),
};

/** An `application/problem+json` answer (RFC 9457); some carry more members (`maxQuantity`). */
export const problemSchema = z
  .looseObject(problemFields)
  .meta({ id: 'Problem', description: 'Every /api error: application/problem+json.' });

/** A refused request: `errors` names each invalid field with a message key. */
export const validationProblemSchema = z
  .looseObject({
    ...problemFields,
    errors: z.record(z.string(), z.string()).meta({
      description: 'Message key per field path, e.g. `{"Data.Email": "validation.required"}`.',
    }),
  })
  .meta({ id: 'ValidationProblem', description: 'A refused request (400), naming each field.' });

export interface Answer {
  description: string;
  content: Record<string, { schema: z.ZodType }>;
}

/** A JSON answer. */
export function jsonAnswer(schema: z.ZodType, description: string): Answer {
  return { description, content: { 'application/json': { schema } } };
}

/** A problem+json answer. */
export function problemAnswer(schema: z.ZodType, description: string): Answer {
  return { description, content: { 'application/problem+json': { schema } } };
}

const problemDescriptions = {
  400: 'Invalid parameters: `errors` names each field.',
  401: 'Not logged in, or the email address or password is wrong.',
  403: 'Missing or invalid anti-forgery token (`X-XSRF-TOKEN`).',
  404: 'Not found.',
  409: 'The request conflicts with the current state.',
  413: 'The body is too large.',
  429: 'Too many requests; `Retry-After` says when to try again.',
  500: 'The server could not complete the request; no details are given.',
  502: 'A service the request needs (the payment provider) did not answer; nothing is lost, try again.',
  503: 'The server is busy; `Retry-After` says when to try again.',
} as const;
export type ProblemStatus = keyof typeof problemDescriptions;

/** The problem answers of the given statuses; every route may also answer 500. */
export function problemAnswers(
  ...statuses: ProblemStatus[]
): Partial<Record<ProblemStatus, Answer>> {
  return problemAnswersWith(
    (status) => (status === 400 ? validationProblemSchema : problemSchema),
    ...statuses,
  );
}

/** The same, for routes whose problems carry more members (the forms' `isSuccess: false`). */
export function problemAnswersWith(
  schemaOf: (status: ProblemStatus) => z.ZodType,
  ...statuses: ProblemStatus[]
): Partial<Record<ProblemStatus, Answer>> {
  const answers: Partial<Record<ProblemStatus, Answer>> = {};
  for (const status of [...statuses, 500 as const]) {
    answers[status] = problemAnswer(schemaOf(status), problemDescriptions[status]);
  }
  return answers;
}

/** A state-changing request needs the anti-forgery header (see `plugins/xsrf.ts`). */
export const XSRF_SECURITY = [{ xsrf: [] }];
