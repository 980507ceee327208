import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { sealBytes, sealText } from './crypto.server.ts';
import { testFormsConfig } from './forms.test-support.ts';
import { backoffSeconds, MAX_ATTEMPTS, type MailTransport, sendDueMails } from './outbox.server.ts';
import { deleteExpiredSubmissions } from './retention.server.ts';
import { formSubmissionFiles, formSubmissions, mailOutbox, usedCaptchaTokens } from './tables.ts';

let t: TestApp;
const config = testFormsConfig();
const key = config.encryptionKey;

beforeAll(async () => {
  t = await createTestApp({ config: { forms: config } });
});
afterAll(async () => {
  await t?.close();
});

async function submission(id: string, deleteAfter: Date, withFile = false) {
  await t.app.db.insert(formSubmissions).values({
    id,
    form: 'question',
    siteId: 'konsernifi',
    lang: 'fi',
    sealedData: sealText(key, '{}'),
    deleteAfter,
  });
  if (withFile) {
    const storageKey = `forms/question/${id}/1.png`;
    await t.app.files.put(storageKey, sealBytes(key, Buffer.from('x')));
    await t.app.db.insert(formSubmissionFiles).values({
      submissionId: id,
      position: 0,
      name: 'a.png',
      mime: 'image/png',
      size: 1,
      storageKey,
    });
  }
  await t.app.db.insert(mailOutbox).values({
    submissionId: id,
    recipients: 'staff@example.fi',
    subject: `Mail ${id}`,
    sealedBody: sealText(key, `Body ${id}`),
  });
}

describe('outbox worker', () => {
  it('sends due mails once, and retries a failure with back-off until it gives up', async () => {
    // No mail left due by another test.
    await t.app.db.execute(sql`truncate mail_outbox, form_submissions cascade`);
    await submission('s-1', new Date(Date.now() + 864e5));
    const sent: { to: string; subject: string; text: string }[] = [];
    const ok: MailTransport = {
      sendMail: async (mail) => {
        sent.push(mail);
      },
    };
    expect(await sendDueMails(t.app.db, ok, { from: 'a@b.fi', key })).toEqual({
      sent: 1,
      failed: 0,
    });
    expect(sent).toEqual([
      { from: 'a@b.fi', to: 'staff@example.fi', subject: 'Mail s-1', text: 'Body s-1' },
    ]);
    expect(await sendDueMails(t.app.db, ok, { from: 'a@b.fi', key })).toEqual({
      sent: 0,
      failed: 0,
    });

    await submission('s-2', new Date(Date.now() + 864e5));
    const failing: MailTransport = {
      sendMail: async () => {
        throw new Error('connection refused');
      },
    };
    expect(await sendDueMails(t.app.db, failing, { from: 'a@b.fi', key })).toEqual({
      sent: 0,
      failed: 1,
    });
    const [row] = await t.app.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.submissionId, 's-2'));
    expect(row?.attempts).toBe(1);
    expect(row?.lastError).toBe('connection refused');
    expect(row?.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
    // Not due yet: nothing is tried.
    expect(await sendDueMails(t.app.db, failing, { from: 'a@b.fi', key })).toEqual({
      sent: 0,
      failed: 0,
    });
    await t.app.db
      .update(mailOutbox)
      .set({ attempts: MAX_ATTEMPTS - 1, nextAttemptAt: new Date(0) })
      .where(eq(mailOutbox.submissionId, 's-2'));
    await sendDueMails(t.app.db, failing, { from: 'a@b.fi', key });
    const [gaveUp] = await t.app.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.submissionId, 's-2'));
    expect(gaveUp?.failedAt).not.toBeNull();
  });

  it('backs off exponentially up to six hours', () => {
    expect([1, 2, 3, 20].map(backoffSeconds)).toEqual([60, 120, 240, 6 * 3600]);
  });
});

describe('retention job', () => {
  it('deletes expired submissions with their files and mails, and keeps the others', async () => {
    await t.app.db.execute(sql`truncate form_submissions cascade`);
    await submission('old', new Date(Date.now() - 1000), true);
    await submission('new', new Date(Date.now() + 864e5), true);
    await t.app.db.insert(usedCaptchaTokens).values([
      { id: 'spent-old', expiresAt: new Date(Date.now() - 1000) },
      { id: 'spent-new', expiresAt: new Date(Date.now() + 60_000) },
    ]);
    expect(await deleteExpiredSubmissions(t.app.db, t.app.files)).toBe(1);
    const left = await t.app.db.select({ id: formSubmissions.id }).from(formSubmissions);
    expect(left).toEqual([{ id: 'new' }]);
    expect(await t.app.files.exists('forms/question/old/1.png')).toBe(false);
    expect(await t.app.files.exists('forms/question/new/1.png')).toBe(true);
    const mails = await t.app.db.select({ id: mailOutbox.submissionId }).from(mailOutbox);
    expect(mails.map((m) => m.id)).not.toContain('old');
    const tokens = await t.app.db.select({ id: usedCaptchaTokens.id }).from(usedCaptchaTokens);
    expect(tokens).toEqual([{ id: 'spent-new' }]);
  });
});
