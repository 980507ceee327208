import { parse } from 'csv-parse/sync';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNewsCategory, createSubscription } from '../../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import {
  auditCount,
  auditOf,
  type Enrolled,
  enrolledStaff,
  json,
  lastAudit,
  reauth,
} from '../../../../tests/helpers/staff.ts';
import { subscriptions } from '../tables.ts';
import { SUBSCRIBERS_API, type Subscriber } from './schemas.ts';

/**
 * The subscribers in the back office (decision 158): the lists per site and category within the
 * grants, each address with its consent record, the read audited; the export as a Finnish
 * spreadsheet reads it after re-authentication, audited; taking someone off a list on their
 * behalf on the version seen (409 otherwise), audited, repeat-safe; staff without the grant get 403.
 */
let t: TestApp;
let service: Enrolled;
let editor: Enrolled;
let prm: Awaited<ReturnType<typeof createSubscription>>;
let both: Awaited<ReturnType<typeof createSubscription>>;

beforeAll(async () => {
  t = await createTestApp();
  // Customer service for the Finnish corporate site in Finnish and English.
  service = await enrolledStaff(t.app, [
    { role: 'customer-service', sites: ['konsernifi'], langs: null },
  ]);
  editor = await enrolledStaff(t.app, [{ role: 'editor', sites: null, langs: null }]);
  const db = t.app.db;
  await createNewsCategory(db, {
    siteId: 'konsernifi',
    lang: 'fi',
    informationType: 'PRM',
    name: 'Lehdistötiedotteet',
  });
  await createNewsCategory(db, {
    siteId: 'konsernifi',
    lang: 'fi',
    informationType: 'RDV',
    name: 'Pörssitiedotteet',
    position: 1,
  });
  prm = await createSubscription(db, {
    siteId: 'konsernifi',
    list: 'newsreleases:PRM',
    email: 'Åsa.Öhman@example.fi',
    consentText: 'Tilaan tiedotteet; "kaikki" ääkköset å, ä, ö.',
  });
  both = await createSubscription(db, {
    siteId: 'konsernifi',
    list: 'newsreleases:RDV',
    email: 'sijoittaja@example.fi',
    lang: 'en',
    consentText: 'I subscribe to the releases I chose.',
  });
  await createSubscription(db, {
    siteId: 'konsernifi',
    list: 'newsreleases:PRM',
    status: 'pending',
  });
  await createSubscription(db, {
    siteId: 'konsernifi',
    list: 'newsletter',
    status: 'unsubscribed',
  });
  // Another site: never shown to this grant.
  await createSubscription(db, {
    siteId: 'koncernse',
    lang: 'sv',
    list: 'newsreleases:PRM',
    email: 'svensk@example.se',
  });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('the subscribers’ lists', () => {
  it('lists the grant’s sites’ lists with counts, and no addresses (no audit row)', async () => {
    const before = await auditCount(t.app);
    const res = await service.visitor.get(`${SUBSCRIBERS_API}/lists`);
    expect(res.statusCode, res.body).toBe(200);
    const { lists } = res.json() as { lists: Record<string, unknown>[] };
    expect(lists.every((l) => l.siteId === 'konsernifi')).toBe(true);
    expect(lists).toContainEqual({
      siteId: 'konsernifi',
      list: 'newsreleases:PRM',
      kind: 'newsreleases',
      name: 'Lehdistötiedotteet',
      counts: { pending: 1, confirmed: 1, unsubscribed: 0 },
    });
    expect(lists).toContainEqual({
      siteId: 'konsernifi',
      list: 'newsletter',
      kind: 'newsletter',
      name: null,
      counts: { pending: 0, confirmed: 0, unsubscribed: 1 },
    });
    expect(res.body).not.toContain('@');
    expect(await auditCount(t.app)).toBe(before);
  });

  it('shows each address with its consent record, and writes the read to the audit log', async () => {
    const res = await service.visitor.get(
      `${SUBSCRIBERS_API}?site=konsernifi&list=newsreleases:PRM&status=confirmed`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const { subscribers, total } = res.json() as { subscribers: Subscriber[]; total: number };
    expect(total).toBe(1);
    expect(subscribers[0]).toMatchObject({
      id: prm.id,
      email: 'Åsa.Öhman@example.fi',
      lang: 'fi',
      status: 'confirmed',
      source: 'news-releases',
      consentText: 'Tilaan tiedotteet; "kaikki" ääkköset å, ä, ö.',
      consentAt: prm.consentAt.toISOString(),
      confirmedAt: prm.confirmedAt?.toISOString(),
      unsubscribedAt: null,
    });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(await lastAudit(t.app)).toMatchObject({
      action: 'subscribers.read',
      staffId: service.id,
      siteId: 'konsernifi',
      changes: {
        read: {
          after: { site: 'konsernifi', list: 'newsreleases:PRM', status: 'confirmed', shown: 1 },
        },
      },
    });
  });

  it('never lists another site’s addresses, whatever the query names', async () => {
    const res = await service.visitor.get(`${SUBSCRIBERS_API}?site=koncernse`);
    expect(res.json()).toEqual({ subscribers: [], total: 0 });
    const all = await service.visitor.get(`${SUBSCRIBERS_API}?q=example`);
    const emails = (all.json().subscribers as Subscriber[]).map((s) => s.email);
    expect(emails).toContain('sijoittaja@example.fi');
    expect(emails).not.toContain('svensk@example.se');
  });

  it('finds a person by a part of their address, % and _ taken as they are', async () => {
    const found = await service.visitor.get(`${SUBSCRIBERS_API}?q=${encodeURIComponent('ÅSA.')}`);
    expect((found.json().subscribers as Subscriber[]).map((s) => s.id)).toEqual([prm.id]);
    const none = await service.visitor.get(`${SUBSCRIBERS_API}?q=${encodeURIComponent('%')}`);
    expect(none.json().total).toBe(0);
  });

  it('refuses a staff member without the grant (403), and writes nothing', async () => {
    const before = await auditCount(t.app);
    for (const url of [
      `${SUBSCRIBERS_API}/lists`,
      SUBSCRIBERS_API,
      `${SUBSCRIBERS_API}/export.csv`,
    ]) {
      const res = await editor.visitor.get(url);
      expect(res.statusCode, url).toBe(403);
    }
    const res = await editor.visitor.post(
      `${SUBSCRIBERS_API}/${prm.id}/unsubscribe`,
      json({ version: prm.updatedAt.toISOString() }),
    );
    expect(res.statusCode).toBe(403);
    expect(await auditCount(t.app)).toBe(before);
  });
});

describe('the subscribers’ export', () => {
  it('needs the export permission: customer service may read but not export', async () => {
    const res = await service.visitor.get(`${SUBSCRIBERS_API}/export.csv`);
    expect(res.statusCode).toBe(403);
    expect(res.json().type).toBe('/problems/forbidden');
  });

  it('gives the filtered list as a Finnish spreadsheet reads it after re-authentication, audited', async () => {
    const dpo = await enrolledStaff(t.app, [{ role: 'dpo', sites: ['konsernifi'], langs: null }]);
    await t.app.db.execute(
      sql`update staff_sessions set verified_at = now() - interval '6 minutes' where staff_id = ${dpo.id}`,
    );
    const url = `${SUBSCRIBERS_API}/export.csv?site=konsernifi&list=newsreleases:PRM`;
    const refused = await dpo.visitor.get(url);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().type).toBe('/problems/reauth');
    expect((await reauth(dpo.visitor, dpo)).statusCode).toBe(200);
    const res = await dpo.visitor.get(url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="tilaajat.csv"');
    expect([...res.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const records = parse(res.rawPayload, { bom: true, delimiter: ';', columns: true }) as Record<
      string,
      string
    >[];
    expect(records).toHaveLength(2);
    expect(records.find((r) => r.status === 'confirmed')).toMatchObject({
      site: 'konsernifi',
      lang: 'fi',
      list: 'newsreleases:PRM',
      email: 'Åsa.Öhman@example.fi',
      consentText: 'Tilaan tiedotteet; "kaikki" ääkköset å, ä, ö.',
      consentAt: prm.consentAt.toISOString(),
      confirmedAt: prm.confirmedAt?.toISOString(),
      unsubscribedAt: '',
    });
    expect(await lastAudit(t.app)).toMatchObject({
      action: 'subscribers.export',
      staffId: dpo.id,
      siteId: 'konsernifi',
      changes: { export: { after: { site: 'konsernifi', list: 'newsreleases:PRM', count: 2 } } },
    });
  });
});

describe('unsubscribing on someone’s behalf', () => {
  it('refuses a stale version (409) and writes nothing', async () => {
    // The person confirmed again meanwhile: the row moved on.
    await t.app.db
      .update(subscriptions)
      .set({ updatedAt: new Date(both.updatedAt.getTime() + 5_000) })
      .where(eq(subscriptions.id, both.id));
    const before = await auditCount(t.app);
    const res = await service.visitor.post(
      `${SUBSCRIBERS_API}/${both.id}/unsubscribe`,
      json({ version: both.updatedAt.toISOString() }),
    );
    expect(res.statusCode).toBe(409);
    expect(await auditCount(t.app)).toBe(before);
    const [row] = await t.app.db.select().from(subscriptions).where(eq(subscriptions.id, both.id));
    expect(row?.status).toBe('confirmed');
  });

  it('takes the address off its list on the version seen, audited; a repeat writes nothing', async () => {
    const listed = await service.visitor.get(`${SUBSCRIBERS_API}?q=sijoittaja`);
    const seen = (listed.json().subscribers as Subscriber[])[0];
    expect(seen?.status).toBe('confirmed');
    const res = await service.visitor.post(
      `${SUBSCRIBERS_API}/${both.id}/unsubscribe`,
      json({ version: seen?.version }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: both.id, status: 'unsubscribed' });
    expect(res.json().unsubscribedAt).not.toBeNull();
    const rows = await auditOf(t.app, 'subscribers.unsubscribe');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      staffId: service.id,
      subjectType: 'subscription',
      subjectId: String(both.id),
      siteId: 'konsernifi',
      lang: 'en',
      changes: {
        status: { before: 'confirmed', after: 'unsubscribed' },
        list: { after: 'newsreleases:RDV' },
      },
    });
    const before = await auditCount(t.app);
    const again = await service.visitor.post(
      `${SUBSCRIBERS_API}/${both.id}/unsubscribe`,
      json({ version: seen?.version }),
    );
    expect(again.statusCode).toBe(200);
    expect(again.json().status).toBe('unsubscribed');
    expect(await auditCount(t.app)).toBe(before);
  });

  it('refuses another site’s subscription (403) and an unknown one (404), and checks the body', async () => {
    const [swedish] = await t.app.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.email, 'svensk@example.se'));
    const other = await service.visitor.post(
      `${SUBSCRIBERS_API}/${swedish?.id}/unsubscribe`,
      json({ version: swedish?.updatedAt.toISOString() }),
    );
    expect(other.statusCode).toBe(403);
    const missing = await service.visitor.post(
      `${SUBSCRIBERS_API}/99999999/unsubscribe`,
      json({ version: new Date().toISOString() }),
    );
    expect(missing.statusCode).toBe(404);
    const invalid = await service.visitor.post(
      `${SUBSCRIBERS_API}/${prm.id}/unsubscribe`,
      json({ version: 'eilen' }),
    );
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors).toEqual({ version: 'admin.error.invalid' });
  });
});
