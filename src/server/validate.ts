import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import { z } from 'zod';
import { type AppError, type FieldErrors, fieldErrorsOf, Invalid } from './errors.ts';

export interface ZodValidation {
  /** Reshapes the raw part before it is parsed (the search folds bracket notation). */
  prepare?: (input: unknown) => unknown;
  /** The error a failure answers; `Invalid` (400 problem+json naming each field) by default. */
  invalid?: (errors: FieldErrors) => AppError;
}

/**
 * Fastify's validator for the zod schemas routes declare (`schema.querystring`, `params`,
 * `body`): the parsed value replaces the request's part, and a failure answers 400
 * problem+json naming each field (`Invalid`). The app sets it once; a route with its own needs
 * passes `validatorCompiler` with options.
 */
export function zodValidatorCompiler(options: ZodValidation = {}): FastifySchemaCompiler<unknown> {
  const prepare = options.prepare ?? ((input: unknown) => input);
  const invalid = options.invalid ?? ((errors: FieldErrors) => new Invalid(errors));
  return ({ schema, method, url, httpPart }) => {
    if (!(schema instanceof z.ZodType)) {
      throw new Error(`${method} ${url}: the ${httpPart ?? 'request'} schema is not a zod schema`);
    }
    return (data: unknown) => {
      // Fastify hands a missing part over as null; zod must see it missing ('validation.required').
      const result = schema.safeParse(prepare(data === null ? undefined : data));
      return result.success
        ? { value: result.data }
        : { error: invalid(fieldErrorsOf(result.error)) };
    };
  };
}

/**
 * Answers are written as the handlers return them, as without a schema: the response schemas
 * routes declare document the API (`/api/openapi.json`) and type the handlers, and cost nothing
 * per request.
 */
export const jsonSerializerCompiler: FastifySerializerCompiler<unknown> = () => (data) =>
  JSON.stringify(data);
