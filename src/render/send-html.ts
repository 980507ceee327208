import { PassThrough, Writable } from 'node:stream';
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
  onHtml?: (html: Buffer) => Buffer | undefined,
): Promise<FastifyReply> {
  if (onHtml) return sendWholeHtml(reply, element, status, onHtml);
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

/**
 * Renders the whole document before answering (a page that may be kept whole, decision 033):
 * `onHtml` gets the bytes, then they are sent, or the bytes it gives back (the page with a
 * visitor's fragments in its holes, decision 157). An error before the shell rejects, as above.
 */
function sendWholeHtml(
  reply: FastifyReply,
  element: ReactElement,
  status: number,
  onHtml: (html: Buffer) => Buffer | undefined,
): Promise<FastifyReply> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
        done();
      },
    });
    let shellFailed = false;
    const { pipe, abort } = renderToPipeableStream(element, {
      onShellError(error) {
        shellFailed = true;
        clearTimeout(timer);
        reject(error);
      },
      onAllReady() {
        clearTimeout(timer);
        if (shellFailed) return;
        sink.on('finish', () => {
          let html: Buffer;
          try {
            const made = Buffer.concat(chunks);
            html = onHtml(made) ?? made;
          } catch (error) {
            reject(error);
            return;
          }
          reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-cache');
          resolve(reply.send(html));
        });
        pipe(sink);
      },
      onError(error) {
        reply.log.error({ err: error }, 'render error');
      },
    });
    const timer = setTimeout(() => abort(new Error('render timed out')), RENDER_TIMEOUT_MS);
    timer.unref();
  });
}
