import { createHash } from 'node:crypto';
import { asc, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { fieldErrorsOf, Invalid, problemOf } from '../../server/errors.ts';
import { openBytes, openText } from './crypto.server.ts';
import { formIds } from './forms.ts';
import { formSubmissionFiles, formSubmissions } from './tables.ts';

const query = z.object({
  form: z.enum(formIds),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});

export interface DevSubmission {
  id: string;
  form: string;
  siteId: string;
  lang: string;
  createdAt: string;
  /** The stored data, opened. */
  data: Record<string, unknown>;
  /** The stored files, opened from the file store: their bytes' SHA-256 and length. */
  files: {
    position: number;
    name: string;
    mime: string;
    size: number;
    storedBytes: number | null;
    sha256: string | null;
  }[];
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * `/dev/submissions?form=…`: the latest stored submissions of a form, opened, with their files
 * checked in the file store, so the browser tests can see what the server kept (they cannot
 * open its database: PGlite allows one process per data folder). Only when NODE_ENV=development
 * or DEV_SUBMISSIONS_API=true: the answer is personal data.
 */
export async function devSubmissionRoutes(app: FastifyInstance) {
  if (app.config.env !== 'development' && !app.config.forms.devSubmissionsApi) return;
  app.get('/dev/submissions', { config: { session: false } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    // Personal data: only to this machine, whatever the flag says.
    if (!LOOPBACK.has(request.socket.remoteAddress ?? '')) return reply.callNotFound();
    const parsed = query.safeParse(request.query);
    if (!parsed.success) {
      // Outside /api the error handler answers pages; this is an API, so it answers as one.
      const problem = problemOf(new Invalid(fieldErrorsOf(parsed.error)), '/dev/submissions');
      return reply.status(400).type('application/problem+json; charset=utf-8').send(problem);
    }
    return listSubmissions(app, parsed.data.form, parsed.data.limit);
  });
}

export async function listSubmissions(
  app: FastifyInstance,
  form: string,
  limit: number,
): Promise<DevSubmission[]> {
  const key = app.config.forms.encryptionKey;
  const rows = await app.db
    .select()
    .from(formSubmissions)
    .where(eq(formSubmissions.form, form))
    .orderBy(desc(formSubmissions.createdAt), desc(formSubmissions.id))
    .limit(limit);
  const files = rows.length
    ? await app.db
        .select()
        .from(formSubmissionFiles)
        .where(
          inArray(
            formSubmissionFiles.submissionId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(asc(formSubmissionFiles.submissionId), asc(formSubmissionFiles.position))
    : [];
  return Promise.all(
    rows.map(async (row) => ({
      id: row.id,
      form: row.form,
      siteId: row.siteId,
      lang: row.lang,
      createdAt: row.createdAt.toISOString(),
      data: JSON.parse(openText(key, row.sealedData)) as Record<string, unknown>,
      files: await Promise.all(
        files
          .filter((f) => f.submissionId === row.id)
          .map(async (f) => {
            const sealed = await app.files.get(f.storageKey);
            const bytes = sealed ? openBytes(key, sealed) : undefined;
            return {
              position: f.position,
              name: f.name,
              mime: f.mime,
              size: f.size,
              storedBytes: bytes?.length ?? null,
              sha256: bytes ? createHash('sha256').update(bytes).digest('hex') : null,
            };
          }),
      ),
    })),
  );
}
