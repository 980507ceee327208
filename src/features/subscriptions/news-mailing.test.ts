import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createNews,
  createNewsCategory,
  createSubscription,
} from '../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import {
  auditCount,
  type Enrolled,
  enrolledStaff,
  json,
  lastAudit,
} from '../../../tests/helpers/staff.ts';
import { getSite } from '../../sites/registry.ts';
import { ADMIN_NEWS_API, type AdminNewsRow } from '../content/admin/schemas.ts';
import { newsReleases } from '../content/tables.ts';
import { openText } from '../forms/crypto.server.ts';
import { mailOutbox } from '../forms/tables.ts';
import { sendDueNewsMailings } from './news-mailing.server.ts';
import { verifiedUnsubscribeIds } from './store.server.ts';
import { newsReleaseMailings } from './tables.ts';

/**
 * Publishing a news release mails its categories' subscribers (decision 158): once per address
 * (a subscriber of two of its categories gets one mail, and so does one who would get another
 * language version of it), only confirmed subscriptions of its site, in the subscriber's
 * language with the unsubscribe link; at its time when scheduled; releases never published
 * through the back office (the seeded ones) mail no one. The publish is refused without the
 * grant, for unknown categories, a passed time and a stale or sent mailing.
 */
let t: TestApp;
let publisher: Enrolled;
let keys: { mailKey: Buffer; secret: string };
let fiRelease: Awaited<ReturnType<typeof createNews>>;
let enRelease: Awaited<ReturnType<typeof createNews>>;
const ids: Record<string, number[]> = {};

async function mailsTo(addresses: string[]) {
  const rows = await t.app.db
    .select()
    .from(mailOutbox)
    .where(inArray(mailOutbox.recipients, addresses));
  return rows.map((row) => ({
    to: row.recipients,
    subject: row.subject,
    text: openText(keys.mailKey, row.sealedBody),
  }));
}

async function subscriber(
  email: string,
  lists: string[],
  options: { lang?: string; status?: 'pending' | 'unsubscribed'; siteId?: string } = {},
) {
  for (const list of lists) {
    const row = await createSubscription(t.app.db, {
      siteId: options.siteId ?? 'konsernifi',
      list: `newsreleases:${list}`,
      email,
      lang: options.lang ?? 'fi',
      ...(options.status ? { status: options.status } : {}),
    });
    ids[email] = [...(ids[email] ?? []), row.id];
  }
}

function publish(id: number, body: Record<string, unknown>, who: Enrolled = publisher) {
  return who.visitor.post(
    `${ADMIN_NEWS_API}/${id}/publish`,
    json({ at: null, mailingVersion: null, ...body }),
  );
}

beforeAll(async () => {
  t = await createTestApp();
  keys = { mailKey: t.app.config.forms.encryptionKey, secret: t.app.config.sessionSecret };
  publisher = await enrolledStaff(t.app, [
    { role: 'publisher', sites: ['konsernifi'], langs: null },
  ]);
  const db = t.app.db;
  for (const [lang, names] of [
    ['fi', ['Lehdistötiedotteet', 'Pörssitiedotteet', 'Taloudelliset raportit']],
    ['en', ['Press releases', 'Stock exchange releases', 'Financial reports']],
  ] as const) {
    for (const [position, type] of ['PRM', 'RDV', 'KMK'].entries()) {
      await createNewsCategory(db, {
        siteId: 'konsernifi',
        lang,
        informationType: type,
        name: names[position] ?? type,
        position,
      });
    }
  }
  fiRelease = await createNews(db, {
    siteId: 'konsernifi',
    path: '/uutiset/2026/tulos-parani',
    title: 'Tulos parani',
    teaser: 'Liikevaihto kasvoi.',
    translationKey: 'news:tulos',
  });
  enRelease = await createNews(db, {
    siteId: 'konsernifi',
    lang: 'en',
    path: '/news/2026/result-improved',
    title: 'Result improved',
    teaser: 'Net sales grew.',
    translationKey: 'news:tulos',
  });
  await subscriber('anna@example.fi', ['PRM']);
  await subscriber('Bertta@Example.fi', ['PRM', 'RDV']);
  await subscriber('chris@example.com', ['RDV'], { lang: 'en' });
  await subscriber('odottaa@example.fi', ['PRM'], { status: 'pending' });
  await subscriber('perui@example.fi', ['RDV'], { status: 'unsubscribed' });
  await subscriber('raportit@example.fi', ['KMK']);
  await subscriber('svensk@example.se', ['PRM'], { siteId: 'koncernse', lang: 'sv' });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const everyone = [
  'anna@example.fi',
  'Bertta@Example.fi',
  'chris@example.com',
  'odottaa@example.fi',
  'perui@example.fi',
  'raportit@example.fi',
  'svensk@example.se',
];

describe('news releases not published through the back office', () => {
  it('mail no one, however many confirmed subscribers their site has', async () => {
    await createNews(t.app.db, { siteId: 'konsernifi', path: '/uutiset/2026/vanha' });
    await sendDueNewsMailings(t.app.db, keys);
    expect(await mailsTo(everyone)).toEqual([]);
    expect(await t.app.db.$count(newsReleaseMailings)).toBe(0);
  });
});

describe('publishing a news release', () => {
  it('refuses a staff member without the grant, unknown categories and a passed time', async () => {
    const editor = await enrolledStaff(t.app, [{ role: 'editor', sites: null, langs: null }]);
    const other = await enrolledStaff(t.app, [
      { role: 'publisher', sites: ['koncernse'], langs: null },
    ]);
    const before = await auditCount(t.app);
    expect((await publish(fiRelease.id, { informationTypes: ['PRM'] }, editor)).statusCode).toBe(
      403,
    );
    expect((await publish(fiRelease.id, { informationTypes: ['PRM'] }, other)).statusCode).toBe(
      403,
    );
    const unknown = await publish(fiRelease.id, { informationTypes: ['PRM', 'XYZ'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors).toEqual({ informationTypes: 'admin.error.invalid' });
    const none = await publish(fiRelease.id, { informationTypes: [] });
    expect(none.json().errors).toEqual({ informationTypes: 'admin.news.error.noCategory' });
    const past = await publish(fiRelease.id, {
      informationTypes: ['PRM'],
      at: new Date(Date.now() - 3_600_000).toISOString(),
    });
    expect(past.json().errors).toEqual({ at: 'admin.news.error.past' });
    expect(await auditCount(t.app)).toBe(before);
    expect(await t.app.db.$count(newsReleaseMailings)).toBe(0);
  });

  it('mails each confirmed subscriber of either category once, in their language, audited', async () => {
    const res = await publish(fiRelease.id, { informationTypes: ['PRM', 'RDV'] });
    expect(res.statusCode, res.body).toBe(200);
    const row = res.json() as AdminNewsRow;
    expect(row.informationTypes).toEqual(['PRM', 'RDV']);
    expect(row.mailing).toMatchObject({ status: 'scheduled', version: 0, recipients: 0 });
    expect(Date.now() - new Date(row.publishDate ?? 0).getTime()).toBeLessThan(60_000);
    expect(await lastAudit(t.app)).toMatchObject({
      action: 'news.publish',
      staffId: publisher.id,
      subjectType: 'news_release',
      subjectId: String(fiRelease.id),
      siteId: 'konsernifi',
      lang: 'fi',
      changes: {
        publishDate: { before: fiRelease.publishDate.toISOString(), after: row.publishDate },
        informationTypes: { before: [], after: ['PRM', 'RDV'] },
      },
    });

    await sendDueNewsMailings(t.app.db, keys);
    await sendDueNewsMailings(t.app.db, keys);
    const mails = await mailsTo(everyone);
    expect(mails.map((m) => m.to).sort()).toEqual([
      'Bertta@Example.fi',
      'anna@example.fi',
      'chris@example.com',
    ]);
    const anna = mails.find((m) => m.to === 'anna@example.fi');
    expect(anna?.subject).toBe(`Tulos parani – ${getSite('konsernifi')?.name}`);
    expect(anna?.text).toContain('Tulos parani');
    expect(anna?.text).toContain('Liikevaihto kasvoi.');
    expect(anna?.text).toContain(
      'Lue tiedote: http://konsernifi.localhost/uutiset/2026/tulos-parani',
    );
    expect(anna?.text).toContain(
      'Saat tämän viestin, koska tilasit tiedotteet: Lehdistötiedotteet.',
    );
    // The subscriber of both categories: one mail naming both, its link taking off both.
    const bertta = mails.find((m) => m.to === 'Bertta@Example.fi');
    expect(bertta?.text).toContain('Lehdistötiedotteet, Pörssitiedotteet');
    const link = new URL(/Peru tilaus: (\S+)/.exec(bertta?.text ?? '')?.[1] ?? '');
    expect(link.pathname).toBe('/tilaus/peruuta');
    expect(
      verifiedUnsubscribeIds(
        keys.secret,
        link.searchParams.get('s') ?? '',
        link.searchParams.get('sig') ?? '',
      ),
    ).toEqual(ids['Bertta@Example.fi']);
    // In English, with the English version of the release and English links.
    const chris = mails.find((m) => m.to === 'chris@example.com');
    expect(chris?.subject).toMatch(/^Result improved – /);
    expect(chris?.text).toContain(
      'Read the release: http://konsernifi.localhost/en/news/2026/result-improved',
    );
    expect(chris?.text).toContain(
      'You receive this message because you subscribed to: Stock exchange releases.',
    );
    expect(chris?.text).toMatch(
      /Unsubscribe: http:\/\/konsernifi\.localhost\/en\/tilaus\/peruuta\?/,
    );

    const [mailing] = await t.app.db
      .select()
      .from(newsReleaseMailings)
      .where(eq(newsReleaseMailings.releaseId, fiRelease.id));
    expect(mailing).toMatchObject({ status: 'sent', recipients: 3 });
  });

  it('mails no one again: not the other language version, not a second publish', async () => {
    const en = await publish(enRelease.id, { informationTypes: ['RDV'] });
    expect(en.statusCode, en.body).toBe(200);
    await sendDueNewsMailings(t.app.db, keys);
    expect(await mailsTo(everyone)).toHaveLength(3);
    const again = await publish(fiRelease.id, { informationTypes: ['PRM'], mailingVersion: 0 });
    expect(again.statusCode).toBe(409);
    await sendDueNewsMailings(t.app.db, keys);
    expect(await mailsTo(everyone)).toHaveLength(3);
  });

  it('mails a scheduled release at its time, and moves it only from the version seen', async () => {
    const release = await createNews(t.app.db, {
      siteId: 'konsernifi',
      path: '/uutiset/2026/osavuosikatsaus',
      title: 'Osavuosikatsaus',
    });
    const at = new Date(Date.now() + 3_600_000);
    const first = await publish(release.id, { informationTypes: ['KMK'], at: at.toISOString() });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().mailing).toMatchObject({ status: 'scheduled', sendAt: at.toISOString() });
    const [stored] = await t.app.db
      .select()
      .from(newsReleases)
      .where(eq(newsReleases.id, release.id));
    expect(stored?.publishDate.toISOString()).toBe(at.toISOString());
    await sendDueNewsMailings(t.app.db, keys);
    expect(await mailsTo(['raportit@example.fi'])).toEqual([]);

    // A colleague who saw no mailing queued is told; one who saw this one moves it.
    const later = new Date(at.getTime() + 3_600_000);
    const stale = await publish(release.id, { informationTypes: ['KMK'], at: later.toISOString() });
    expect(stale.statusCode).toBe(409);
    const moved = await publish(release.id, {
      informationTypes: ['KMK'],
      at: later.toISOString(),
      mailingVersion: 0,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().mailing).toMatchObject({ version: 1, sendAt: later.toISOString() });
    // Begun (a large list goes a chunk at a time): no longer moved.
    await t.app.db
      .update(newsReleaseMailings)
      .set({ recipients: 1 })
      .where(eq(newsReleaseMailings.releaseId, release.id));
    const begun = await publish(release.id, {
      informationTypes: ['KMK'],
      at: later.toISOString(),
      mailingVersion: 1,
    });
    expect(begun.statusCode).toBe(409);
    await t.app.db
      .update(newsReleaseMailings)
      .set({ recipients: 0 })
      .where(eq(newsReleaseMailings.releaseId, release.id));
    await sendDueNewsMailings(t.app.db, keys, new Date(at.getTime() + 60_000));
    expect(await mailsTo(['raportit@example.fi'])).toEqual([]);
    await sendDueNewsMailings(t.app.db, keys, new Date(later.getTime() + 1_000));
    const mails = await mailsTo(['raportit@example.fi']);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toMatch(/^Osavuosikatsaus – /);
  });

  it('lists the releases the grant reaches with their mailings and categories', async () => {
    const res = await publisher.visitor.get(`${ADMIN_NEWS_API}?site=konsernifi&lang=fi`);
    expect(res.statusCode, res.body).toBe(200);
    const { releases } = res.json() as { releases: AdminNewsRow[] };
    const published = releases.find((r) => r.id === fiRelease.id);
    expect(published?.mailing).toMatchObject({ status: 'sent', recipients: 3 });
    expect(published?.categories.map((c) => c.name)).toEqual([
      'Lehdistötiedotteet',
      'Pörssitiedotteet',
      'Taloudelliset raportit',
    ]);
    const other = await publisher.visitor.get(`${ADMIN_NEWS_API}?site=koncernse`);
    expect(other.json().releases).toEqual([]);
  });
});
