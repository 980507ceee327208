import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, NotFound, problemOf, Unavailable } from '../errors.ts';
import { isApiRequest, requestPath } from '../request-path.ts';

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
      const appError = toAppError(error);
      if (appError.status >= 500) {
        request.log.error({ err: error }, 'request failed');
      }
      if (appError instanceof Unavailable) {
        reply.header('retry-after', String(appError.retryAfterSeconds));
      }
      if (isApiRequest(request) || !app.errorPage.render || request.method !== 'GET') {
        return sendProblem(reply, appError, request);
      }
      return renderPage(app, request, reply, Math.min(appError.status, 500));
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

function toAppError(error: FastifyError): AppError {
  if (error instanceof AppError) return error;
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const title = clientErrorTitles[status] ?? 'Bad request';
    const detail =
      error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ? 'The body is not valid JSON.' : undefined;
    return new AppError(status, slug(title), title, detail);
  }
  if (status === 503) return new Unavailable();
  return new AppError(
    500,
    'internal',
    'Internal server error',
    'The server could not complete the request.',
  );
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
  if (status !== 404 && status !== 500) {
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
      .send(status === 404 ? 'Not found' : 'Server error');
  }
}
