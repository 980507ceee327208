import { and, count, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../../db/client.ts';
import { pages, schoolVotes } from '../../../db/schema.ts';
import { Invalid, NotFound } from '../../../server/errors.ts';
import { acceptFormPosts, FORM_TOKEN_FIELD, formPostAllowed } from '../../../server/form-posts.ts';
import { jsonAnswer, problemAnswers, XSRF_SECURITY } from '../../../server/openapi.ts';
import { clientLimit } from '../../../server/rate-limit.ts';
import { localReturnPath, RETURN_PATH_MAX } from '../../../server/return-path.ts';
import { pageBlocks } from '../blocks.ts';
import {
  SCHOOL_VOTE_FORM_PATH,
  SCHOOL_VOTE_PATH,
  type SchoolVoteAnswer,
  voteReturnPath,
} from './vote-values.ts';

export const schoolVoteBodySchema = z
  .object({
    voteId: z.string().regex(/^[a-z0-9-]{1,60}$/, 'widgets.vote.voteId'),
    option: z
      .number()
      .int('widgets.vote.option')
      .min(0, 'widgets.vote.option')
      .max(5, 'widgets.vote.option'),
  })
  .strict();

const answerSchema = z.object({
  option: z.number().int(),
  counted: z.boolean(),
  totals: z.array(z.number().int()),
});

/** Per client address and minute: a visitor votes by hand, a few times at most. */
export const VOTE_LIMIT = { max: 30, timeWindow: 60_000 };

/** How many options the site's vote `voteId` has; undefined when no page of the site has it. */
async function optionCount(db: Database, siteId: string, voteId: string) {
  const rows = await db
    .select({ blocks: pages.blocks })
    .from(pages)
    .where(
      and(
        eq(pages.siteId, siteId),
        sql`${pages.blocks} @> ${JSON.stringify([{ type: 'school-vote', voteId }])}::jsonb`,
      ),
    )
    .limit(1);
  const blocks = pageBlocks.safeParse(rows[0]?.blocks);
  if (!blocks.success) return undefined;
  for (const block of blocks.data) {
    if (block.type === 'school-vote' && block.voteId === voteId) return block.options.length;
  }
  return undefined;
}

/**
 * Counts a visitor's vote once: the unique key (site, vote, visitor) lets exactly one of any
 * number of parallel inserts through; the others find the vote already there. Answers the
 * visitor's option (their earlier one when they had voted) and the totals.
 */
export async function castVote(
  db: Database,
  input: { siteId: string; voteId: string; voterId: string; option: number },
): Promise<SchoolVoteAnswer> {
  const options = await optionCount(db, input.siteId, input.voteId);
  if (options === undefined) throw new NotFound('The site has no vote with that id.');
  if (input.option >= options) throw new Invalid({ option: 'widgets.vote.option' });
  const inserted = await db
    .insert(schoolVotes)
    .values(input)
    .onConflictDoNothing({
      target: [schoolVotes.siteId, schoolVotes.voteId, schoolVotes.voterId],
    })
    .returning({ option: schoolVotes.option });
  const mine = inserted[0]
    ? inserted[0].option
    : (
        await db
          .select({ option: schoolVotes.option })
          .from(schoolVotes)
          .where(
            and(
              eq(schoolVotes.siteId, input.siteId),
              eq(schoolVotes.voteId, input.voteId),
              eq(schoolVotes.voterId, input.voterId),
            ),
          )
      )[0]?.option;
  const rows = await db
    .select({ option: schoolVotes.option, n: count() })
    .from(schoolVotes)
    .where(and(eq(schoolVotes.siteId, input.siteId), eq(schoolVotes.voteId, input.voteId)))
    .groupBy(schoolVotes.option);
  const totals = Array.from(
    { length: options },
    (_, i) => rows.find((r) => r.option === i)?.n ?? 0,
  );
  return { option: mine ?? input.option, counted: inserted.length > 0, totals };
}

/**
 * `POST /api/school/vote`: a visitor's vote in a school material page's vote block. The visitor
 * is their session cookie's token (its hash): no session row is written for it.
 */
export async function schoolVoteRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(
    SCHOOL_VOTE_PATH,
    {
      bodyLimit: 1024,
      config: { rateLimit: VOTE_LIMIT },
      schema: {
        tags: ['content'],
        summary: 'Counts a visitor’s vote in a school material vote',
        description:
          'One vote per visitor and vote: a second vote, also one sent in parallel, is not counted and the answer names the first choice.',
        security: XSRF_SECURITY,
        body: schoolVoteBodySchema,
        response: {
          200: jsonAnswer(answerSchema, 'The visitor’s choice and the totals'),
          ...problemAnswers(400, 403, 404, 413, 429),
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return castVote(app.db, {
        siteId: request.site.id,
        voteId: request.body.voteId,
        voterId: request.session.id,
        option: request.body.option,
      });
    },
  );
}

/** The plain form's fields: the option is the pressed button's value. */
const voteFormSchema = z.object({
  voteId: schoolVoteBodySchema.shape.voteId,
  option: z.string().regex(/^\d$/).transform(Number).pipe(schoolVoteBodySchema.shape.option),
  return: z.string().max(RETURN_PATH_MAX).optional(),
  [FORM_TOKEN_FIELD]: z.string().max(200).optional(),
});

/**
 * `POST /school-vote`: the vote as a plain form (no script, or before it runs), in the site's
 * no-script pattern (as the recipe banner closes): the same one-vote-per-session logic as the
 * API, then 303 back to the page with the counted choice in the query, which the page shows; a
 * refused or failed vote goes back with the failure, shown as an alert the address points at.
 * The anti-forgery check is that of forms on shared pages (`formPostAllowed`, decision 073): the
 * session's token when the form carries it, otherwise the browser's word that the post comes from
 * this site; a refused post goes back with the failure and counts nothing.
 */
export async function schoolVoteFormRoutes(fastify: FastifyInstance) {
  acceptFormPosts(fastify, 4096);
  // The same per-address budget as the API's; over it the page shows the failure.
  const limit = clientLimit(fastify, { name: 'school-vote-form', ...VOTE_LIMIT });
  fastify.post(
    SCHOOL_VOTE_FORM_PATH,
    { bodyLimit: 4096, schema: { hide: true } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const body = (request.body ?? {}) as Record<string, unknown>;
      const back = localReturnPath(body.return) ?? '/';
      const parsed = voteFormSchema.safeParse(body);
      const voteId = parsed.success ? parsed.data.voteId : undefined;
      const failed = () =>
        reply.redirect(voteId ? voteReturnPath(back, voteId, 'failed') : back, 303);
      if (!parsed.success || !formPostAllowed(request, { sharedPage: true })) return failed();
      try {
        await limit(request);
        const answer = await castVote(fastify.db, {
          siteId: request.site.id,
          voteId: parsed.data.voteId,
          voterId: request.session.id,
          option: parsed.data.option,
        });
        return reply.redirect(voteReturnPath(back, parsed.data.voteId, answer), 303);
      } catch (error) {
        request.log.info({ err: error }, 'school vote form refused');
        return failed();
      }
    },
  );
}
