import type { FastifyInstance } from 'fastify';

/** `/images/…`: image presets (resized, WebP/AVIF when accepted, cached). */
export async function imageRoutes(_app: FastifyInstance) {}
