import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../../../db/client.ts';
import { csvText } from '../../../server/csv.ts';
import { Forbidden, NotFound } from '../../../server/errors.ts';
import { getSite } from '../../../sites/registry.ts';
import { actorOf, recordAudit, scopeWhere } from '../../staff/index.server.ts';
import { type AccessGrant, can, type Permission } from '../../staff/index.ts';
import { campaignDraws, campaignParticipations, campaigns } from '../tables.ts';
import { drawWinners, participantsDigest } from './raffle.server.ts';
import type { AdminCampaign, Draw, OpenedCampaign, Participant } from './schemas.ts';
import { signedIn } from './subscribers.server.ts';

/**
 * Campaigns in the back office (decision 158): their participants (a read of personal data,
 * audited), the export (re-authentication, audited) and the raffle draw. A campaign belongs to one
 * site; its participants are limited by the grants' sites and languages like the lists.
 */

const PAGE_SIZE = 50;

type Campaign = typeof campaigns.$inferSelect;
type ParticipationRow = typeof campaignParticipations.$inferSelect;

function participantOf(row: ParticipationRow): Participant {
  return {
    id: row.id,
    email: row.email,
    lang: row.lang,
    acceptedRules: row.acceptedRules,
    wantsNewsletter: row.wantsNewsletter,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The participants of a campaign the grants let `permission` reach (site and language). */
function participantsWhere(
  grants: readonly AccessGrant[],
  permission: Permission,
  campaign: Campaign,
): SQL {
  return and(
    eq(campaignParticipations.campaignId, campaign.id),
    scopeWhere(grants, permission, {
      site: campaigns.siteId,
      lang: campaignParticipations.lang,
    }),
  ) as SQL;
}

/** The campaigns of the sites the grants reach, the latest first, with counts (no addresses). */
export async function listCampaigns(
  db: Database,
  grants: readonly AccessGrant[],
): Promise<AdminCampaign[]> {
  const rows = await db
    .select()
    .from(campaigns)
    .where(scopeWhere(grants, 'subscribers.read', { site: campaigns.siteId }))
    .orderBy(desc(campaigns.startsAt), asc(campaigns.id));
  const ids = rows.map((c) => c.id);
  if (ids.length === 0) return [];
  const participants = await db
    .select({ id: campaignParticipations.campaignId, n: count() })
    .from(campaignParticipations)
    .innerJoin(campaigns, eq(campaigns.id, campaignParticipations.campaignId))
    .where(
      and(
        inArray(campaignParticipations.campaignId, ids),
        scopeWhere(grants, 'subscribers.read', {
          site: campaigns.siteId,
          lang: campaignParticipations.lang,
        }),
      ),
    )
    .groupBy(campaignParticipations.campaignId);
  const draws = await db
    .select({ id: campaignDraws.campaignId, n: count() })
    .from(campaignDraws)
    .where(inArray(campaignDraws.campaignId, ids))
    .groupBy(campaignDraws.campaignId);
  return rows.map((c) => ({
    id: c.id,
    siteId: c.siteId,
    name: c.name,
    startsAt: c.startsAt.toISOString(),
    endsAt: c.endsAt.toISOString(),
    participants: Number(participants.find((p) => p.id === c.id)?.n ?? 0),
    drawCount: Number(draws.find((d) => d.id === c.id)?.n ?? 0),
  }));
}

/** The campaign, if some grant gives `permission` for its site (403 otherwise, 404 without one). */
async function scopedCampaign(
  request: FastifyRequest,
  id: string,
  permission: Permission,
): Promise<Campaign> {
  const [campaign] = await request.server.db.select().from(campaigns).where(eq(campaigns.id, id));
  if (!campaign) throw new NotFound('No such campaign.');
  const grants = signedIn(request).grants;
  const site = getSite(campaign.siteId);
  const langs = site?.languages ?? [];
  if (!langs.some((lang) => can(grants, permission, { siteId: campaign.siteId, lang }))) {
    throw new Forbidden(`This needs the permission ${permission} for ${campaign.siteId}.`);
  }
  return campaign;
}

/** For a route's `preValidation`: 403 or 404 before the body or query is looked at. */
export function assertCampaignAccess(permission: Permission) {
  return async (request: FastifyRequest) => {
    const id = String((request.params as { id?: unknown }).id ?? '');
    if (!/^[a-z0-9-]{1,80}$/.test(id)) return; // the params schema answers 400
    await scopedCampaign(request, id, permission);
  };
}

async function drawsOf(db: Database, campaignId: string): Promise<Draw[]> {
  const rows = await db
    .select()
    .from(campaignDraws)
    .where(eq(campaignDraws.campaignId, campaignId))
    .orderBy(desc(campaignDraws.drawnAt), desc(campaignDraws.id));
  const winnerIds = [...new Set(rows.flatMap((r) => r.winnerIds))];
  const winners = winnerIds.length
    ? await db
        .select({ id: campaignParticipations.id, email: campaignParticipations.email })
        .from(campaignParticipations)
        .where(inArray(campaignParticipations.id, winnerIds))
    : [];
  return rows.map((r) => ({
    id: r.id,
    drawnAt: r.drawnAt.toISOString(),
    drawnBy: r.drawnBy,
    seed: r.seed,
    winnersWanted: r.winnersWanted,
    participantCount: r.participantIds.length,
    participantsDigest: r.participantsDigest,
    // A winner whose entry was erased since keeps their place, without an address.
    winners: r.winnerIds.map((id) => ({
      id,
      email: winners.find((w) => w.id === id)?.email ?? null,
    })),
  }));
}

/**
 * A campaign opened: its counts, a page of its participants within the grants and its draws with
 * the winners' addresses. Writes `campaign.open` (a read of personal data).
 */
export async function openCampaign(
  request: FastifyRequest,
  id: string,
  offset: number,
): Promise<OpenedCampaign> {
  const db = request.server.db;
  const campaign = await scopedCampaign(request, id, 'subscribers.read');
  const grants = signedIn(request).grants;
  const where = participantsWhere(grants, 'subscribers.read', campaign);
  const [total] = await db
    .select({ n: count() })
    .from(campaignParticipations)
    .innerJoin(campaigns, eq(campaigns.id, campaignParticipations.campaignId))
    .where(where);
  const rows = await db
    .select({ p: campaignParticipations })
    .from(campaignParticipations)
    .innerJoin(campaigns, eq(campaigns.id, campaignParticipations.campaignId))
    .where(where)
    .orderBy(asc(campaignParticipations.createdAt), asc(campaignParticipations.id))
    .limit(PAGE_SIZE)
    .offset(offset);
  const draws = await drawsOf(db, id);
  await recordAudit(db, actorOf(request), {
    action: 'campaign.open',
    subjectType: 'campaign',
    subjectId: id,
    siteId: campaign.siteId,
    changes: { read: { after: { offset, shown: rows.length, draws: draws.length } } },
  });
  return {
    id: campaign.id,
    siteId: campaign.siteId,
    name: campaign.name,
    startsAt: campaign.startsAt.toISOString(),
    endsAt: campaign.endsAt.toISOString(),
    participants: Number(total?.n ?? 0),
    drawCount: draws.length,
    participantList: rows.map((r) => participantOf(r.p)),
    draws,
  };
}

/**
 * The campaign's participants within the grants as CSV for a spreadsheet (the inbox's format).
 * Writes `campaign.export` with the count.
 */
export async function exportParticipants(request: FastifyRequest, id: string): Promise<string> {
  const db = request.server.db;
  const campaign = await scopedCampaign(request, id, 'subscribers.export');
  const rows = await db
    .select({ p: campaignParticipations })
    .from(campaignParticipations)
    .innerJoin(campaigns, eq(campaigns.id, campaignParticipations.campaignId))
    .where(participantsWhere(signedIn(request).grants, 'subscribers.export', campaign))
    .orderBy(asc(campaignParticipations.createdAt), asc(campaignParticipations.id));
  const lines = [
    [
      'id',
      'site',
      'lang',
      'campaign',
      'email',
      'isAdult',
      'acceptedRules',
      'wantsNewsletter',
      'joinedAt',
    ],
    ...rows.map(({ p }) => [
      p.id,
      campaign.siteId,
      p.lang,
      campaign.id,
      p.email,
      p.isAdult ? 'yes' : 'no',
      p.acceptedRules ? 'yes' : 'no',
      p.wantsNewsletter ? 'yes' : 'no',
      p.createdAt.toISOString(),
    ]),
  ];
  await recordAudit(db, actorOf(request), {
    action: 'campaign.export',
    subjectType: 'campaign',
    subjectId: id,
    siteId: campaign.siteId,
    changes: { export: { after: { count: rows.length } } },
  });
  return csvText(lines);
}

/**
 * Draws `wanted` winners among every participant of the campaign (each address takes part once):
 * a fresh 32-byte seed from the operating system, the participants in id order, `drawWinners`.
 * The draw is stored with its seed, the participants it considered and a digest of their
 * addresses, and its audit row (`campaign.draw`), in one transaction: what is recorded as
 * considered is exactly what the draw read. Needs `subscribers.manage` for the site in every one of its languages (the draw reads
 * every participant).
 */
export async function drawCampaign(
  request: FastifyRequest,
  id: string,
  wanted: number,
): Promise<Draw> {
  const campaign = await scopedCampaign(request, id, 'subscribers.manage');
  const grants = signedIn(request).grants;
  const langs = getSite(campaign.siteId)?.languages ?? [];
  if (
    !langs.every((lang) => can(grants, 'subscribers.manage', { siteId: campaign.siteId, lang }))
  ) {
    throw new Forbidden('A draw reads every participant: it needs every language of the site.');
  }
  const seed = randomBytes(32).toString('hex');
  const actor = actorOf(request);
  const drawId = await request.server.db.transaction(async (tx) => {
    const participants = await tx
      .select({ id: campaignParticipations.id, email: campaignParticipations.email })
      .from(campaignParticipations)
      .where(eq(campaignParticipations.campaignId, id))
      .orderBy(asc(campaignParticipations.id));
    const participantIds = participants.map((p) => p.id);
    const winnerIds = drawWinners(seed, participantIds, wanted);
    const [draw] = await tx
      .insert(campaignDraws)
      .values({
        campaignId: id,
        seed,
        winnersWanted: wanted,
        participantIds,
        participantsDigest: participantsDigest(participants),
        winnerIds,
        drawnBy: actor.label,
      })
      .returning({ id: campaignDraws.id });
    await recordAudit(tx, actor, {
      action: 'campaign.draw',
      subjectType: 'campaign',
      subjectId: id,
      siteId: campaign.siteId,
      changes: {
        draw: {
          after: {
            id: draw?.id,
            seed,
            wanted,
            participants: participantIds.length,
            winners: winnerIds,
          },
        },
      },
    });
    return draw?.id;
  });
  const draw = (await drawsOf(request.server.db, id)).find((d) => d.id === drawId);
  if (!draw) throw new NotFound('The draw was not stored.');
  return draw;
}
