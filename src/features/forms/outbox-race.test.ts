import { like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { openSameDatabase } from '../../../tests/setup/database.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { runJobOnce } from '../../server/jobs.ts';
import { testFormsConfig } from './forms.test-support.ts';
import { enqueueMail, type MailTransport, sendDueMails } from './outbox.server.ts';
import { mailOutbox } from './tables.ts';

/**
 * Two server processes' outbox workers on one PostgreSQL database (decision 032): each mail goes
 * exactly once, whether the ticks take the job's lock (as the worker does) or only claim rows.
 * PostgreSQL only (DATABASE_URL): PGlite has one connection, so nothing would race.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
const config = testFormsConfig();
const key = config.encryptionKey;
const options = { from: 'no-reply@example.fi', key };
let t: TestApp;
let other: DatabaseHandle;

beforeAll(async () => {
  if (!onPostgres) return;
  t = await createTestApp({ config: { forms: config } });
  other = await openSameDatabase(t.database);
}, 60_000);
afterAll(async () => {
  await other?.close();
  await t?.close();
});

/** A transport that records each subject and takes a moment per mail, as SMTP does. */
function recorder() {
  const sent: string[] = [];
  const transport: MailTransport = {
    sendMail: async (mail) => {
      sent.push(mail.subject);
      await new Promise((resolve) => setTimeout(resolve, 3));
    },
  };
  return { sent, transport };
}

async function enqueue(prefix: string, count: number): Promise<string[]> {
  const subjects = Array.from({ length: count }, (_, i) => `${prefix} ${i}`);
  for (const subject of subjects) {
    await enqueueMail(t.app.db, key, { to: 'staff@example.fi', subject, text: subject });
  }
  return subjects;
}

async function unsent(prefix: string) {
  const rows = await t.app.db
    .select({ sentAt: mailOutbox.sentAt })
    .from(mailOutbox)
    .where(like(mailOutbox.subject, `${prefix} %`));
  return rows.filter((r) => r.sentAt === null).length;
}

describe('outbox workers in two processes (PostgreSQL)', () => {
  it.runIf(onPostgres)(
    'claims alone: two workers polling at the same moment send each mail once',
    async () => {
      const subjects = await enqueue('Claim', 45);
      const { sent, transport } = recorder();
      const worker = async (database: DatabaseHandle) => {
        for (;;) {
          const { sent: n, failed } = await sendDueMails(database.db, transport, options);
          if (n === 0 && failed === 0) return;
        }
      };
      await Promise.all([worker(t.database), worker(other), worker(t.database), worker(other)]);
      expect(sent.filter((s) => s.startsWith('Claim ')).sort()).toEqual([...subjects].sort());
      expect(await unsent('Claim')).toBe(0);
    },
  );

  it.runIf(onPostgres)(
    "the worker's ticks (job lock) in both processes at once send each mail once",
    async () => {
      const subjects = await enqueue('Tick', 35);
      const { sent, transport } = recorder();
      const ticks: boolean[] = [];
      const worker = async (database: DatabaseHandle) => {
        while ((await unsent('Tick')) > 0) {
          const outcome = await runJobOnce(database, 'outbox', (db) =>
            sendDueMails(db, transport, options),
          );
          ticks.push(outcome.ran);
        }
      };
      await Promise.all([worker(t.database), worker(other)]);
      expect(sent.filter((s) => s.startsWith('Tick ')).sort()).toEqual([...subjects].sort());
      // Both processes asked; while one ticked, the other's tick was skipped.
      expect(ticks.some((ran) => !ran)).toBe(true);
    },
  );
});
