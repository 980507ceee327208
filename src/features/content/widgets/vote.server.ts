import { createHmac } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { and, count, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../../db/client.ts';
import { Invalid, NotFound } from '../../../server/errors.ts';
import { acceptFormPosts, FORM_TOKEN_FIELD } from '../../../server/form-posts.ts';
import { jsonAnswer, problemAnswers, XSRF_SECURITY } from '../../../server/openapi.ts';
import { clientLimit, perMinute } from '../../../server/rate-limit.ts';
import { localReturnPath, RETURN_PATH_MAX } from '../../../server/return-path.ts';
import { pageBlocks } from '../blocks.ts';
import { pages, schoolVotes } from '../tables.ts';
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
export const VOTE_LIMIT = perMinute(30);

const helsinkiDay = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Helsinki' });

/**
 * The part of a client address that one household or one device keeps: an IPv4 address whole
 * (an IPv4-mapped IPv6 one as IPv4), an IPv6 address's /64, which a single connection is given
 * whole and can walk through.
 */
function addressBlock(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return mapped;
  const bare = address.split('%')[0] ?? address;
  if (isIPv4(bare) || !isIPv6(bare)) return bare;
  const [head = '', tail] = bare.split('::');
  const before = head ? head.split(':') : [];
  const after = tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? before
      : [...before, ...Array(Math.max(0, 8 - before.length - after.length)).fill('0'), ...after];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * The client of a vote as stored (decision 076): a keyed hash of its address block and the day
 * in Helsinki, so a row says nothing about the address and the same address on another day is
 * another client.
 */
export function voteClientKey(secret: string, address: string, at: Date): string {
  return createHmac('sha256', secret)
    .update(`vote-client:${helsinkiDay.format(at)}:${addressBlock(address)}`)
    .digest('base64url');
}

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
 * Counts a vote once per visitor (session) and once per client (address and day, decision 076):
 * the unique keys (site, vote, visitor) and (site, vote, client) let exactly one of any number of
 * parallel inserts through; the others find a vote already there and count nothing. Answers the
 * visitor's option (their earlier one when their session had voted; the one just chosen when
 * another session of the same client had) and the totals.
 */
export async function castVote(
  db: Database,
  input: { siteId: string; voteId: string; voterId: string; clientKey: string; option: number },
): Promise<SchoolVoteAnswer> {
  const options = await optionCount(db, input.siteId, input.voteId);
  if (options === undefined) throw new NotFound('The site has no vote with that id.');
  if (input.option >= options) throw new Invalid({ option: 'widgets.vote.option' });
  const inserted = await db
    .insert(schoolVotes)
    .values(input)
    // Either unique key: the session's vote or the client's vote of the day.
    .onConflictDoNothing()
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
 * is their session cookie's token (its hash): no session row is written for it. The client is a
 * keyed hash of the address and the day (`voteClientKey`).
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
          'One vote per visitor (session) and vote, and one per client address (an IPv6 /64) and vote a day (decision 076): a second vote, also one sent in parallel, is not counted (`counted: false`); the answer names the session’s first choice.',
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
        clientKey: voteClientKey(app.config.sessionSecret, request.ip, new Date()),
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
 * The anti-forgery check is that of forms on shared pages (the form-post guard with `sharedPage`,
 * decisions 073 and 125): the session's token when the form carries it, otherwise the browser's
 * word that the post comes from this site; a refused post goes back with the failure and counts
 * nothing.
 */
export async function schoolVoteFormRoutes(fastify: FastifyInstance) {
  acceptFormPosts(fastify, 4096);
  // The same per-address budget as the API's; over it the page shows the failure.
  const limit = clientLimit(fastify, { name: 'school-vote-form', ...VOTE_LIMIT });
  fastify.post(
    SCHOOL_VOTE_FORM_PATH,
    {
      bodyLimit: 4096,
      schema: { hide: true },
      config: { formPost: { sharedPage: true, refused: voteFailed } },
    },
    async (request, reply) => {
      const parsed = voteFormSchema.safeParse(request.body ?? {});
      if (!parsed.success) return voteFailed(request, reply);
      reply.header('cache-control', 'no-store');
      const back = localReturnPath(parsed.data.return) ?? '/';
      try {
        await limit(request);
        const answer = await castVote(fastify.db, {
          siteId: request.site.id,
          voteId: parsed.data.voteId,
          voterId: request.session.id,
          clientKey: voteClientKey(fastify.config.sessionSecret, request.ip, new Date()),
          option: parsed.data.option,
        });
        return reply.redirect(voteReturnPath(back, parsed.data.voteId, answer), 303);
      } catch (error) {
        request.log.info({ err: error }, 'school vote form refused');
        return voteFailed(request, reply);
      }
    },
  );
}

/**
 * Back to the form's page (`/` when the form names no page of this site), with the failure when
 * the form was one of a vote.
 */
function voteFailed(request: FastifyRequest, reply: FastifyReply) {
  reply.header('cache-control', 'no-store');
  const body = (request.body ?? {}) as Record<string, unknown>;
  const back = localReturnPath(body.return) ?? '/';
  const parsed = voteFormSchema.safeParse(body);
  return reply.redirect(
    parsed.success ? voteReturnPath(back, parsed.data.voteId, 'failed') : back,
    303,
  );
}
