import { count, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNews, createNewsCategory } from '../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { type Enrolled, enrolledStaff, json } from '../../../tests/helpers/staff.ts';
import { openSameDatabase } from '../../../tests/setup/database.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { runJobOnce } from '../../server/jobs.ts';
import { ADMIN_NEWS_API } from '../content/admin/schemas.ts';
import { mailOutbox } from '../forms/tables.ts';
import { MAILING_CHUNK, sendDueNewsMailings } from './news-mailing.server.ts';
import { newsReleaseMailings, subscriptions } from './tables.ts';

/**
 * The done-when line on PostgreSQL (decision 158): a news release with two categories,
 * published through the back office of one app, is mailed by the job of two app instances (each
 * its own pool on the same database, as two processes have) racing each other, and by their bare
 * claims racing too: each confirmed subscriber of either category gets exactly one outbox row,
 * over several chunks. PostgreSQL only (DATABASE_URL): PGlite has one connection.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
const PEOPLE = MAILING_CHUNK * 2 + 137;
let t: TestApp;
let second: TestApp;
let other: DatabaseHandle;
let publisher: Enrolled;

beforeAll(async () => {
  if (!onPostgres) return;
  t = await createTestApp();
  other = await openSameDatabase(t.database);
  second = await createTestApp({ database: other });
  publisher = await enrolledStaff(t.app, [
    { role: 'publisher', sites: ['konsernifi'], langs: ['fi'] },
  ]);
  for (const [position, type] of ['PRM', 'RDV'].entries()) {
    await createNewsCategory(t.app.db, {
      siteId: 'konsernifi',
      lang: 'fi',
      informationType: type,
      name: type,
      position,
    });
  }
  // Every person on PRM, every third also on RDV, every seventh only pending; one list on RDV only.
  await t.app.db.execute(sql`
    insert into subscriptions (site_id, list, email, lang, status, source, consent_text,
      consent_at, confirmed_at)
    select 'konsernifi', 'newsreleases:PRM', 'kilpa' || i || '@example.fi', 'fi',
      case when i % 7 = 0 then 'pending' else 'confirmed' end, 'news-releases', 'Tilaan',
      now(), case when i % 7 = 0 then null else now() end
    from generate_series(1, ${PEOPLE}) i`);
  await t.app.db.execute(sql`
    insert into subscriptions (site_id, list, email, lang, status, source, consent_text,
      consent_at, confirmed_at)
    select 'konsernifi', 'newsreleases:RDV', 'KILPA' || i || '@example.fi', 'fi', 'confirmed',
      'news-releases', 'Tilaan', now(), now()
    from generate_series(1, ${PEOPLE}) i where i % 3 = 0
    union all
    select 'konsernifi', 'newsreleases:RDV', 'vain-rdv' || i || '@example.fi', 'en', 'confirmed',
      'news-releases', 'I subscribe', now(), now()
    from generate_series(1, 40) i`);
}, 180_000);
afterAll(async () => {
  await second?.close();
  await other?.close();
  await t?.close();
});

describe('a news release’s mailing in two processes (PostgreSQL)', () => {
  it.runIf(onPostgres)(
    'gives each confirmed subscriber of either category exactly one outbox row',
    async () => {
      const release = await createNews(t.app.db, {
        siteId: 'konsernifi',
        path: '/uutiset/2026/kilpa',
        title: 'Kilpailu',
      });
      const res = await publisher.visitor.post(
        `${ADMIN_NEWS_API}/${release.id}/publish`,
        json({ at: null, informationTypes: ['PRM', 'RDV'], mailingVersion: null }),
      );
      expect(res.statusCode, res.body).toBe(200);

      const keys = {
        mailKey: t.app.config.forms.encryptionKey,
        secret: t.app.config.sessionSecret,
      };
      const pending = async () =>
        t.app.db.$count(newsReleaseMailings, eq(newsReleaseMailings.status, 'scheduled'));
      const ticks: boolean[] = [];
      /** The job as each app's runner ticks it: under the job's lock. */
      const runner = async (database: DatabaseHandle) => {
        while ((await pending()) > 0) {
          const outcome = await runJobOnce(database, 'news-release-mailing', (db) =>
            sendDueNewsMailings(db, keys),
          );
          ticks.push(outcome.ran);
        }
      };
      /** A tick that lost its lock: only the row claims and the unique rows guard it. */
      const bare = async (database: DatabaseHandle) => {
        while ((await pending()) > 0) await sendDueNewsMailings(database.db, keys);
      };
      await Promise.all([
        runner(t.database),
        runner(second.database),
        bare(t.database),
        bare(second.database),
      ]);

      const rows = await t.app.db
        .select({ to: sql<string>`lower(${mailOutbox.recipients})`, n: count() })
        .from(mailOutbox)
        .where(like(mailOutbox.subject, 'Kilpailu – %'))
        .groupBy(sql`lower(${mailOutbox.recipients})`);
      const confirmed = await t.app.db
        .selectDistinct({ address: sql<string>`lower(${subscriptions.email})` })
        .from(subscriptions)
        .where(eq(subscriptions.status, 'confirmed'));
      expect(confirmed.length).toBe(PEOPLE - Math.floor(PEOPLE / 7) + 40 + countRdvOnlyPending());
      expect(rows.filter((r) => Number(r.n) !== 1)).toEqual([]);
      expect(rows.map((r) => r.to).sort()).toEqual(confirmed.map((c) => c.address).sort());
      const [mailing] = await t.app.db.select().from(newsReleaseMailings);
      expect(mailing).toMatchObject({ status: 'sent', recipients: confirmed.length });
      // Both runners asked; while one ticked, the other's tick was skipped.
      expect(ticks.length).toBeGreaterThan(0);
    },
    120_000,
  );
});

/** People pending on PRM who are confirmed on RDV (every 21st): they are mailed for RDV. */
function countRdvOnlyPending(): number {
  return Math.floor(PEOPLE / 21);
}
