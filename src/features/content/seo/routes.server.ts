import type { FastifyInstance } from 'fastify';

/** `sitemap.xml` and `robots.txt` per site. */
export async function seoRoutes(_app: FastifyInstance) {}
