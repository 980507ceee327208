import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { projectPath } from '../../../db/paths.ts';
import { NotFound } from '../../../server/errors.ts';
import { problemAnswers } from '../../../server/openapi.ts';

/** The videos in the project's `media/` folder: lowercase names ending in `.webm`. */
const paramsSchema = z.object({ file: z.string().regex(/^[a-z0-9-]{1,80}\.webm$/) });
const files = new Map<string, Buffer>();

/**
 * `GET /media/{file}`: the site's own videos (the hero and school videos), from the project's
 * `media/` folder, kept in memory after the first read. Public and unchanging.
 */
export async function mediaRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/media/:file',
    {
      config: { session: false },
      schema: {
        hide: true,
        params: paramsSchema,
        response: problemAnswers(400, 404),
      },
    },
    async (request, reply) => {
      const { file } = request.params;
      let body = files.get(file);
      if (!body) {
        body = await readFile(projectPath('media', file)).catch(() => undefined);
        if (!body) throw new NotFound('No such video.');
        files.set(file, body);
      }
      reply.header('cache-control', 'public, max-age=86400');
      reply.type('video/webm');
      return reply.send(body);
    },
  );
}
