import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type {
  ConnectionError,
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
} from 'fastify';
import fp from 'fastify-plugin';
import { isDatabaseUnavailable, isPoolExhausted } from '../../db/client.ts';
import {
  AppError,
  BUSY_RETRY_SECONDS,
  NotFound,
  problemOf,
  TooManyRequests,
  UNAVAILABLE_RETRY_SECONDS,
  Unavailable,
} from '../errors.ts';
import { isApiPath, isApiRequest, pathOfTarget, requestPath } from '../request-path.ts';

/** Titles for the framework's own 4xx errors; their messages are not passed on. */
const clientErrorTitles: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  406: 'Not acceptable',
  408: 'Request timeout',
  413: 'Payload too large',
  414: 'URI too long',
  415: 'Unsupported media type',
  429: 'Too many requests',
  431: 'Request header fields too large',
};

/**
 * One place where errors leave the server: `/api` answers `application/problem+json`, pages get
 * their site's error page, and a 5xx never shows a stack trace or SQL.
 */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler(async (error: FastifyError, request, reply) => {
      // The database cannot be reached (decision 140): recognised here for every route. The
      // outage is logged once, not per request; an anonymous page the cache holds is served
      // from its last good copy; everything else answers 503.
      if (isDatabaseUnavailable(error)) {
        if (app.hasDecorator('databaseOutage')) app.databaseOutage.noticed(error);
        request.log.debug({ err: error }, 'database unavailable');
        if (app.hasDecorator('pageCache') && app.pageCache.serveStale(request, reply)) return reply;
        return answer(
          app,
          request,
          reply,
          new Unavailable(
            'The service is temporarily unavailable. Try again shortly.',
            UNAVAILABLE_RETRY_SECONDS,
          ),
        );
      }
      const appError = toAppError(error);
      if (appError.status >= 500) {
        request.log.error({ err: error }, 'request failed');
      }
      return answer(app, request, reply, appError);
    });

    app.setNotFoundHandler(async (request, reply) => {
      if (isApiRequest(request) || !app.errorPage.render || request.method !== 'GET') {
        return sendProblem(reply, new NotFound(), request);
      }
      return renderPage(app, request, reply, 404);
    });
  },
  { name: 'errors' },
);

/** Sends `appError`: problem+json to `/api` and everything but a GET, the error page to pages. */
function answer(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  appError: AppError,
) {
  if (appError instanceof Unavailable || appError instanceof TooManyRequests) {
    reply.header('retry-after', String(appError.retryAfterSeconds));
  }
  if (isApiRequest(request) || !app.errorPage.render || request.method !== 'GET') {
    return sendProblem(reply, appError, request);
  }
  const status = appError.status === 503 ? 503 : Math.min(appError.status, 500);
  return renderPage(app, request, reply, status);
}

function toAppError(error: FastifyError): AppError {
  if (error instanceof AppError) return error;
  // Every database connection stayed busy (a burst of orders): nothing was done, try again.
  if (isPoolExhausted(error)) {
    return new Unavailable('The server is busy. Try again shortly.', BUSY_RETRY_SECONDS);
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const detail =
      error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ? 'The body is not valid JSON.' : undefined;
    return clientError(status, detail);
  }
  if (status === 503) return new Unavailable();
  return new AppError(
    500,
    'internal',
    'Internal server error',
    'The server could not complete the request.',
  );
}

function clientError(status: number, detail?: string): AppError {
  const title = clientErrorTitles[status] ?? 'Bad request';
  return new AppError(status, slug(title), title, detail);
}

function slug(title: string): string {
  return title.toLowerCase().replaceAll(' ', '-');
}

function sendProblem(reply: FastifyReply, error: AppError, request: FastifyRequest) {
  return reply
    .status(error.status)
    .type('application/problem+json; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(problemOf(error, requestPath(request)));
}

async function renderPage(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
) {
  const render = app.errorPage.render;
  if (status !== 400 && status !== 404 && status !== 500 && status !== 503) {
    return reply
      .status(status)
      .type('text/plain; charset=utf-8')
      .send(clientErrorTitles[status] ?? 'Error');
  }
  try {
    return await render?.(request, reply, status);
  } catch (err) {
    request.log.error({ err }, 'error page failed');
    return reply
      .status(status)
      .type('text/plain; charset=utf-8')
      .send(clientErrorTitles[status] ?? 'Server error');
  }
}

/**
 * Errors of the router, before any route or hook runs: a path that does not decode (`/api/%zz`,
 * 400) or a parameter over the length limit (414). Fastify would answer them as plain JSON that
 * echoes the path; `/api` gets problem+json as everywhere else, pages a short text.
 */
export function frameworkErrors(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
  const problem = clientError(status);
  if (isApiRequest(request)) {
    return sendProblem(reply, problem, request);
  }
  return reply
    .status(status)
    .type('text/plain; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(problem.title);
}

/** Node's per-connection parser: `incoming` is the request whose headers were read, if any. */
type ParsedSocket = Socket & {
  parser?: { incoming?: { url?: string } | null } | null;
  _httpMessage?: { headersSent?: boolean } | null;
};

/**
 * Errors of Node's HTTP parser, which no route or hook ever sees: headers too large (431), broken
 * framing such as bad chunk sizes (400), a request that took too long (408). Answered here on the
 * socket, which is then closed: `/api` requests, and requests whose target is unknown, with
 * problem+json; pages with a short text.
 */
export function clientErrorHandler(
  this: FastifyInstance,
  error: ConnectionError,
  socket: Socket,
): void {
  const parsed = socket as ParsedSocket;
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? 408
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? 431
        : 400;
  this.log.debug({ code: error.code, status }, 'client error');
  // A response under way cannot be replaced; the connection just ends.
  if (socket.writable && !parsed._httpMessage?.headersSent) {
    const target = parsed.parser?.incoming?.url ?? requestTargetOf(error.rawPacket as unknown);
    const path = target === undefined ? undefined : pathOfTarget(target);
    const problem = clientError(status);
    const api = path === undefined || isApiPath(path);
    const body = api
      ? JSON.stringify(problemOf(problem, path?.startsWith('/') ? path : undefined))
      : problem.title;
    const type = api ? 'application/problem+json; charset=utf-8' : 'text/plain; charset=utf-8';
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        `content-type: ${type}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
        `cache-control: no-store\r\nconnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * The target of the request line at the start of `raw`: Node's parse errors carry the bytes being
 * parsed when they happened (a Buffer, whatever the types say).
 */
function requestTargetOf(raw: unknown): string | undefined {
  if (!Buffer.isBuffer(raw)) return undefined;
  const line = raw.subarray(0, 8192).toString('latin1').split('\r\n', 1)[0] ?? '';
  const match = /^[A-Z]+ (\S+) HTTP\/\d\.\d$/.exec(line);
  return match?.[1];
}
