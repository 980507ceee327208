import { DrizzleQueryError } from 'drizzle-orm';
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { stdSerializers } from 'pino';
import { pathOfTarget } from './request-path.ts';

/**
 * What the logs may say about a request and its errors. They carry no personal data: no client
 * address, no query string, and no value a visitor sent, which a failed database query would
 * otherwise repeat (its message lists the bound parameters, such as a search text).
 */
export const logSerializers = {
  req: (req: { method: string; url: string; headers: Record<string, unknown> }) => ({
    method: req.method,
    path: pathOfTarget(req.url),
    host: String(req.headers.host ?? ''),
  }),
  res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
  err: serializeError,
};

/**
 * An error for the log. A failed query keeps its SQL (parameterised: no values in it), the
 * database's SQLSTATE and primary message and the stack frames; its parameters and the database's
 * `detail` and `where` (which quote the values) are left out.
 */
export function serializeError(err: Error): SerializedError {
  if (!(err instanceof DrizzleQueryError)) return stdSerializers.err(err);
  const cause = err.cause as
    | (Error & { code?: unknown; severity?: unknown; routine?: unknown })
    | undefined;
  const message = 'Failed query';
  return {
    type: err.name === 'Error' ? 'DrizzleQueryError' : err.name,
    message,
    query: err.query,
    stack: `DrizzleQueryError: ${message}\n${framesOf(err.stack)}`,
    ...(cause instanceof Error
      ? {
          cause: {
            type: cause.constructor.name,
            message: cause.message,
            ...(typeof cause.code === 'string' ? { code: cause.code } : {}),
            ...(typeof cause.severity === 'string' ? { severity: cause.severity } : {}),
            ...(typeof cause.routine === 'string' ? { routine: cause.routine } : {}),
          },
        }
      : {}),
  };
}

export interface SerializedError {
  type: string;
  message: string;
  stack: string;
  [key: string]: unknown;
}

/** The `at …` lines of a stack, without the message above them (which may span lines). */
function framesOf(stack: string | undefined): string {
  if (!stack) return '';
  const first = stack.search(/\n\s+at /);
  return first === -1 ? '' : stack.slice(first + 1);
}

/**
 * The request log (issue 33): one line a request at most, written when its answer is done. A
 * request that failed is an error line with its error; one that took `slowMs` or longer a warning
 * with its time; any other a debug line, so the default level (`info`) writes none. Fastify's
 * default is two info lines a request (received, completed): about 4 % of a cached page's time,
 * for lines nobody reads. Its other lines (errors of its own handlers and streams) stay as they are.
 */
export class OneLineRequestLog extends LogController {
  constructor(private readonly slowMs: number) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const ms = Math.round(reply.elapsedTime);
    if (error) {
      request.log.error({ req: request, res: reply, err: error, ms }, 'request failed');
    } else if (ms >= this.slowMs) {
      request.log.warn({ req: request, res: reply, ms }, 'slow request');
    } else {
      // A no-op below `debug` (pino swaps the method for an empty one).
      request.log.debug({ req: request, res: reply, ms }, 'request');
    }
  }
}
