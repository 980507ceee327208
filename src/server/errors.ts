import type { ZodError } from 'zod';

/** Field errors of a validation problem: field path → message key. */
export type FieldErrors = Record<string, string>;

/**
 * The typed errors a use case may throw. The error handler maps each to an
 * `application/problem+json` answer; anything else becomes a 500 with no details.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly title: string,
    readonly detail?: string,
    readonly extra?: Record<string, unknown>,
  ) {
    super(detail ?? title);
  }
}

export class Invalid extends AppError {
  constructor(
    readonly errors: FieldErrors,
    detail = 'The request has invalid fields.',
  ) {
    super(400, 'validation', 'Invalid request', detail, { errors });
  }
}

export class NotFound extends AppError {
  constructor(detail = 'The resource does not exist.') {
    super(404, 'not-found', 'Not found', detail);
  }
}

export class Forbidden extends AppError {
  constructor(detail = 'The request is not allowed.', type = 'forbidden') {
    super(403, type, 'Forbidden', detail);
  }
}

export class Conflict extends AppError {
  constructor(detail = 'The request conflicts with the current state.') {
    super(409, 'conflict', 'Conflict', detail);
  }
}

/** Seconds a client is asked to wait after the database's connections were all busy. */
export const BUSY_RETRY_SECONDS = 2;

/** Seconds a client is asked to wait while the database cannot be reached (decision 140). */
export const UNAVAILABLE_RETRY_SECONDS = 5;

export class Unavailable extends AppError {
  constructor(
    detail = 'The service is busy. Try again shortly.',
    readonly retryAfterSeconds = 5,
  ) {
    super(503, 'unavailable', 'Service unavailable', detail);
  }
}

export class TooManyRequests extends AppError {
  constructor(
    readonly retryAfterSeconds = 60,
    detail = 'Too many requests from this address. Try again shortly.',
  ) {
    super(429, 'too-many-requests', 'Too many requests', detail);
  }
}

/** Message keys of zod issues, keyed by dotted field path (`Data.Email`). */
export function fieldErrorsOf(error: ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.map(String).join('.') || '_';
    errors[field] ??=
      issue.code === 'invalid_type' && issue.input === undefined
        ? 'validation.required'
        : issue.message;
  }
  return errors;
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  errors?: FieldErrors;
  [key: string]: unknown;
}

export function problemOf(error: AppError, instance?: string): Problem {
  return {
    type: `/problems/${error.type}`,
    title: error.title,
    status: error.status,
    ...(error.detail ? { detail: error.detail } : {}),
    ...(instance ? { instance } : {}),
    ...error.extra,
  };
}
