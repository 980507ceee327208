import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, fieldErrorsOf, Invalid, NotFound, problemOf } from '../server/errors.ts';
import { imageParams, imageQuery } from './schemas.ts';
import { formatMime, negotiateFormat, VariantCache } from './variants.server.ts';

/**
 * `/images/<id>/<slug>.jpg?preset=<name>`: an image resized to a preset, as AVIF, WebP or JPEG
 * by the browser's Accept header, from the file store's cache when it has been made before.
 *
 * Errors are answered here as small problem+json bodies rather than thrown: the error handler
 * would answer a page's 404 with the site's HTML page, which is no use to an `<img>`.
 */
export async function imageRoutes(app: FastifyInstance) {
  const variants = new VariantCache(app.db, app.files);

  app.get('/images/:id/:file', { config: { session: false } }, async (request, reply) => {
    const params = imageParams.safeParse(request.params);
    if (!params.success) return sendProblem(request, reply, new NotFound('No such image.'));
    const query = imageQuery.safeParse(request.query);
    if (!query.success) {
      return sendProblem(
        request,
        reply,
        new Invalid(fieldErrorsOf(query.error), 'The preset is not one of the image presets.'),
      );
    }
    const { id } = params.data;
    const { preset } = query.data;
    const format = negotiateFormat(request.headers.accept);
    const etag = `"${id}-${preset}-${format}"`;

    reply.header('vary', 'Accept');
    if (ifNoneMatch(request.headers['if-none-match'], etag)) {
      return reply
        .status(304)
        .header('etag', etag)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send();
    }

    let result: Awaited<ReturnType<VariantCache['get']>>;
    try {
      result = await variants.get(id, preset, format);
    } catch (err) {
      request.log.error({ err, imageId: id, preset }, 'image variant failed');
      const error = new AppError(
        500,
        'internal',
        'Internal server error',
        'The image could not be made.',
      );
      return sendProblem(request, reply, error);
    }
    if (result.status === 'missing') {
      return sendProblem(request, reply, new NotFound('No such image.'));
    }
    return reply
      .header('content-type', formatMime[format])
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('etag', etag)
      .header('x-image-cache', result.cached ? 'hit' : 'miss')
      .send(result.data);
  });
}

function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

function sendProblem(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  return reply
    .status(error.status)
    .type('application/problem+json; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(problemOf(error, request.url.split('?', 1)[0]));
}
