import type { z } from 'zod';
import { fieldErrorsOf, Invalid } from './errors.ts';

/** Parses input with a zod schema; a failure throws `Invalid` with the field errors. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new Invalid(fieldErrorsOf(result.error));
  return result.data;
}
