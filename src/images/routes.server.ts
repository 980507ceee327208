import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  AppError,
  fieldErrorsOf,
  Invalid,
  NotFound,
  problemOf,
  TooManyRequests,
  Unavailable,
} from '../server/errors.ts';
import { clientLimit, perMinute } from '../server/rate-limit.ts';
import { requestPath } from '../server/request-path.ts';
import { imageParams, imageQuery } from './schemas.ts';
import { formatMime, negotiateFormat, VariantCache } from './variants.server.ts';

export async function imageRoutes(app: FastifyInstance) {
  const variants = new VariantCache(app.db, app.files);
  // Cache misses per client and minute (IMAGE_MISS_RATE_LIMIT); a hit costs a file read and is
  // not counted. A page's pictures are mostly made already; a first visit to a page nobody has
  // seen since a deploy makes a few dozen.
  const missLimit = clientLimit(app, {
    name: 'image-miss',
    ...perMinute(app.config.imageMissRateLimit),
  });

  app.get('/images/:id/:file', { config: { session: false } }, async (request, reply) => {
    const params = imageParams.safeParse(request.params);
    if (!params.success) return sendProblem(request, reply, new NotFound('No such image.'));
    const query = imageQuery.safeParse(request.query);
    if (!query.success) {
      return sendProblem(
        request,
        reply,
        new Invalid(
          fieldErrorsOf(query.error),
          'The preset is not one of the image presets, or the revision is not a number.',
        ),
      );
    }
    const { id } = params.data;
    const { preset } = query.data;
    const revision = query.data.v ?? 1;
    const format = negotiateFormat(request.headers.accept);
    const etagOf = (r: number) => `"${id}-${r > 1 ? `r${r}-` : ''}${preset}-${format}"`;
    const etag = etagOf(revision);

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
      const cached = await variants.cached(id, preset, format, revision);
      if (cached) {
        result = { status: 'ok', data: cached, cached: true, revision };
      } else {
        // A miss queries the database and may resize: that is what the limit counts.
        await missLimit(request);
        result = await variants.get(id, preset, format, revision);
      }
    } catch (err) {
      if (err instanceof TooManyRequests || err instanceof Unavailable) {
        reply.header('retry-after', String(err.retryAfterSeconds));
        return sendProblem(request, reply, err);
      }
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
    // An address of another revision than the image's (a page cached before a replace, or a
    // place that does not name the revision) gets the current picture, kept only for a minute.
    const current = result.revision === revision;
    return reply
      .header('content-type', formatMime[format])
      .header(
        'cache-control',
        current ? 'public, max-age=31536000, immutable' : 'public, max-age=60',
      )
      .header('etag', etagOf(result.revision))
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
    .send(problemOf(error, requestPath(request)));
}
