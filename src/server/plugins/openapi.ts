import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  createJsonSchemaTransform,
  createJsonSchemaTransformObject,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import { jsonAnswer, problemAnswers } from '../openapi.ts';
import { XSRF_HEADER } from './xsrf.ts';

export const OPENAPI_PATH = '/api/openapi.json';

/**
 * `/api/openapi.json`: an OpenAPI 3.1 document of every `/api` route, made from the zod schemas
 * the routes declare to Fastify (the same ones that validate their requests). Register it before
 * the routes: it sees the routes registered after it.
 */
export const openapiPlugin = fp(
  async (app: FastifyInstance) => {
    // Made per app: the transform caches the schema registry it has seen.
    const transform = createJsonSchemaTransform({ skipList: [] });
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Kattaus API',
          version: '1',
          description:
            'The JSON API of the Kattaus sites. The site comes from the Host header. Every error ' +
            'answers application/problem+json; every request but GET needs the X-XSRF-TOKEN ' +
            'header holding the XSRF-TOKEN cookie of the session.',
        },
        components: {
          securitySchemes: {
            xsrf: {
              type: 'apiKey',
              in: 'header',
              name: XSRF_HEADER.toUpperCase(),
              description: 'The value of the `XSRF-TOKEN` cookie.',
            },
          },
        },
      },
      transform: (document) =>
        isApiPath(document.url)
          ? transform(document)
          : { schema: { hide: true }, url: document.url },
      transformObject: (document) =>
        withoutUnusedSchemas(createJsonSchemaTransformObject({})(document)),
    });

    app.withTypeProvider<ZodTypeProvider>().get(
      OPENAPI_PATH,
      {
        // The document is the same for everyone: no session, and caches may keep it a while.
        config: { session: false },
        schema: {
          tags: ['api'],
          summary: 'This document',
          response: {
            200: jsonAnswer(
              z.looseObject({
                openapi: z.string(),
                info: z.looseObject({}),
                paths: z.looseObject({}),
              }),
              'The OpenAPI 3.1 document of /api.',
            ),
            ...problemAnswers(),
          },
        },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'public, max-age=300');
        return app.swagger() as { openapi: string; info: object; paths: object };
      },
    );
  },
  { name: 'openapi' },
);

function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/');
}

interface Document {
  paths?: unknown;
  components?: { schemas?: Record<string, unknown> };
}

/**
 * The zod transform lists every schema with an id in zod's registry, once for input and once for
 * output; the document keeps those its operations refer to.
 */
function withoutUnusedSchemas<D extends Document>(document: D): D {
  const schemas = document.components?.schemas ?? {};
  const used = new Set<string>();
  const queue: unknown[] = [document.paths];
  while (queue.length) {
    const value = queue.pop();
    if (Array.isArray(value)) queue.push(...value);
    else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        const name =
          key === '$ref' && typeof child === 'string'
            ? /^#\/components\/schemas\/(.+)$/.exec(child)?.[1]
            : undefined;
        if (name === undefined) queue.push(child);
        else if (!used.has(name)) {
          used.add(name);
          queue.push(schemas[name]);
        }
      }
    }
  }
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
  return { ...document, components: { ...document.components, schemas: kept } };
}
