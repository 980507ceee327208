import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign, createParticipation } from '../../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import {
  auditCount,
  type Enrolled,
  enrolledStaff,
  json,
  lastAudit,
  reauth,
} from '../../../../tests/helpers/staff.ts';
import { campaignDraws } from '../tables.ts';
import { drawWinners, participantsDigest } from './raffle.server.ts';
import { CAMPAIGNS_API, type Draw, type OpenedCampaign } from './schemas.ts';

/**
 * Campaigns in the back office (decision 158): the participants read (audited) and exported
 * (re-authentication, audited), and the raffle: random (a fresh seed each time), repeatable from
 * its recorded seed and participants, recorded and audited; refused without the grant.
 */
let t: TestApp;
let service: Enrolled;
let campaignId: string;
const emails: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  service = await enrolledStaff(t.app, [
    { role: 'customer-service', sites: ['mestariforsmanfi'], langs: null },
  ]);
  const campaign = await createCampaign(t.app.db, {
    siteId: 'mestariforsmanfi',
    name: 'Kesäkampanja',
  });
  campaignId = campaign.id;
  for (let i = 0; i < 40; i++) {
    const email = i === 0 ? 'Örjan.Åkerö@example.fi' : `osallistuja-${i}@example.fi`;
    emails.push(email);
    await createParticipation(t.app.db, { campaignId, email, wantsNewsletter: i % 2 === 0 });
  }
  // Another site's campaign: never shown to this grant.
  const other = await createCampaign(t.app.db, { siteId: 'sibylla', name: 'Muu kampanja' });
  await createParticipation(t.app.db, { campaignId: other.id, email: 'muu@example.fi' });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('the raffle’s draw', () => {
  const ids = Array.from({ length: 25 }, (_, i) => 100 + i * 3);
  const seed = 'a'.repeat(64);

  it('gives the same winners from the same seed and participants, whatever their order', () => {
    const winners = drawWinners(seed, ids, 3);
    expect(winners).toHaveLength(3);
    expect(new Set(winners).size).toBe(3);
    expect(winners.every((w) => ids.includes(w))).toBe(true);
    expect(drawWinners(seed, [...ids].reverse(), 3)).toEqual(winners);
  });

  it('gives other winners from another seed, and every participant a fair chance', () => {
    const wins = new Map<number, number>();
    const firsts = new Set<string>();
    for (let i = 0; i < 2500; i++) {
      const s = i.toString(16).padStart(64, '0');
      const [winner] = drawWinners(s, ids, 1);
      firsts.add(String(winner));
      wins.set(winner as number, (wins.get(winner as number) ?? 0) + 1);
    }
    // 2,500 draws of one among 25: each about 100 times; far outside 50–150 is no chance.
    expect(firsts.size).toBe(25);
    for (const n of wins.values()) {
      expect(n).toBeGreaterThan(50);
      expect(n).toBeLessThan(150);
    }
  });

  it('draws everyone when asked for more winners than there are participants', () => {
    expect(drawWinners(seed, [5, 3, 9], 10).sort()).toEqual([3, 5, 9]);
    expect(drawWinners(seed, [], 2)).toEqual([]);
  });
});

describe('a campaign in the back office', () => {
  it('lists the grant’s campaigns with counts, and opens one with its participants (audited)', async () => {
    const list = await service.visitor.get(CAMPAIGNS_API);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().campaigns).toEqual([
      expect.objectContaining({ id: campaignId, participants: 40, drawCount: 0 }),
    ]);
    const res = await service.visitor.get(`${CAMPAIGNS_API}/${campaignId}`);
    expect(res.statusCode, res.body).toBe(200);
    const opened = res.json() as OpenedCampaign;
    expect(opened.participants).toBe(40);
    expect(opened.participantList).toHaveLength(40);
    expect(opened.participantList[0]).toMatchObject({
      email: 'Örjan.Åkerö@example.fi',
      wantsNewsletter: true,
    });
    expect(await lastAudit(t.app)).toMatchObject({
      action: 'campaign.open',
      staffId: service.id,
      subjectId: campaignId,
      siteId: 'mestariforsmanfi',
    });
  });

  it('exports the participants after re-authentication, audited, for the export permission only', async () => {
    // Customer service reads, but does not export.
    expect(
      (await service.visitor.get(`${CAMPAIGNS_API}/${campaignId}/participants.csv`)).statusCode,
    ).toBe(403);
    const dpo = await enrolledStaff(t.app, [{ role: 'dpo', sites: null, langs: null }]);
    await reauth(dpo.visitor, dpo);
    const res = await dpo.visitor.get(`${CAMPAIGNS_API}/${campaignId}/participants.csv`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="osallistujat.csv"');
    expect([...res.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const records = parse(res.rawPayload, { bom: true, delimiter: ';', columns: true }) as Record<
      string,
      string
    >[];
    expect(records.map((r) => r.email)).toEqual(emails);
    expect(records[0]).toMatchObject({
      site: 'mestariforsmanfi',
      lang: 'fi',
      campaign: campaignId,
      isAdult: 'yes',
      acceptedRules: 'yes',
      wantsNewsletter: 'yes',
    });
    expect(await lastAudit(t.app)).toMatchObject({
      action: 'campaign.export',
      staffId: dpo.id,
      changes: { export: { after: { count: 40 } } },
    });
  });

  it('draws winners with a recorded seed: a re-draw from it gives the same winners; audited', async () => {
    const first = await service.visitor.post(
      `${CAMPAIGNS_API}/${campaignId}/draws`,
      json({ winners: 3 }),
    );
    expect(first.statusCode, first.body).toBe(200);
    const draw = first.json() as Draw;
    expect(draw.winners).toHaveLength(3);
    expect(draw.participantCount).toBe(40);
    expect(draw.winners.every((w) => w.email && emails.includes(w.email))).toBe(true);
    const [stored] = await t.app.db
      .select()
      .from(campaignDraws)
      .where(eq(campaignDraws.id, draw.id));
    if (!stored) throw new Error('no draw stored');
    expect(stored.seed).toBe(draw.seed);
    expect(stored.participantIds).toHaveLength(40);
    expect(drawWinners(stored.seed, stored.participantIds, stored.winnersWanted)).toEqual(
      stored.winnerIds,
    );
    expect(draw.winners.map((w) => w.id)).toEqual(stored.winnerIds);
    const opened = (await service.visitor.get(`${CAMPAIGNS_API}/${campaignId}`)).json();
    const considered = (opened as OpenedCampaign).participantList;
    expect(stored.participantsDigest).toBe(participantsDigest(considered));

    // Random: another draw has another seed (and, 40 choose 3 ways, almost surely other winners).
    const second = (
      await service.visitor.post(`${CAMPAIGNS_API}/${campaignId}/draws`, json({ winners: 3 }))
    ).json() as Draw;
    expect(second.seed).not.toBe(draw.seed);
    const drawn = (await service.visitor.get(`${CAMPAIGNS_API}/${campaignId}`)).json();
    expect((drawn as OpenedCampaign).draws.map((d) => d.id)).toEqual([second.id, draw.id]);
  });

  it('writes one audit row per draw, with its seed and winners', async () => {
    const before = await auditCount(t.app);
    const res = await service.visitor.post(
      `${CAMPAIGNS_API}/${campaignId}/draws`,
      json({ winners: 1 }),
    );
    const draw = res.json() as Draw;
    expect(await auditCount(t.app)).toBe(before + 1);
    expect(await lastAudit(t.app)).toMatchObject({
      action: 'campaign.draw',
      staffId: service.id,
      subjectId: campaignId,
      changes: {
        draw: {
          after: { seed: draw.seed, wanted: 1, participants: 40, winners: [draw.winners[0]?.id] },
        },
      },
    });
  });

  it('refuses another site’s campaign and a staff member without the grant (403)', async () => {
    const editor = await enrolledStaff(t.app, [{ role: 'editor', sites: null, langs: null }]);
    expect((await editor.visitor.get(CAMPAIGNS_API)).statusCode).toBe(403);
    const other = (await service.visitor.get(CAMPAIGNS_API)).json().campaigns as { id: string }[];
    expect(other.map((c) => c.id)).toEqual([campaignId]);
    const [sibylla] = (
      await (
        await enrolledStaff(t.app, [{ role: 'admin', sites: null, langs: null }])
      ).visitor.get(CAMPAIGNS_API)
    )
      .json()
      .campaigns.filter((c: { siteId: string }) => c.siteId === 'sibylla');
    const before = await auditCount(t.app);
    expect((await service.visitor.get(`${CAMPAIGNS_API}/${sibylla.id}`)).statusCode).toBe(403);
    const draw = await service.visitor.post(
      `${CAMPAIGNS_API}/${sibylla.id}/draws`,
      json({ winners: 1 }),
    );
    expect(draw.statusCode).toBe(403);
    expect(await auditCount(t.app)).toBe(before);
    const invalid = await service.visitor.post(
      `${CAMPAIGNS_API}/${campaignId}/draws`,
      json({ winners: 0 }),
    );
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors).toEqual({ winners: 'admin.error.invalid' });
  });
});
