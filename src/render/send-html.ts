import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { ReactElement } from 'react';
import { renderToPipeableStream } from 'react-dom/server';

const RENDER_TIMEOUT_MS = 10_000;

/**
 * Streams a server-rendered document. The status and headers are sent once the shell is ready;
 * an error before that rejects (and the error handler answers with the error page).
 */
export function sendHtml(
  reply: FastifyReply,
  element: ReactElement,
  status = 200,
): Promise<FastifyReply> {
  return new Promise((resolve, reject) => {
    const body = new PassThrough();
    const { pipe, abort } = renderToPipeableStream(element, {
      onShellReady() {
        reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-cache');
        pipe(body);
        resolve(reply.send(body));
      },
      onShellError(error) {
        clearTimeout(timer);
        reject(error);
      },
      onAllReady() {
        clearTimeout(timer);
      },
      onError(error) {
        reply.log.error({ err: error }, 'render error');
      },
    });
    const timer = setTimeout(() => abort(new Error('render timed out')), RENDER_TIMEOUT_MS);
    timer.unref();
  });
}
