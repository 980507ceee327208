import { randomUUID } from 'node:crypto';
import { eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { arrive } from '../../../tests/helpers/visitor.ts';
import { emailHash, normaliseEmail } from '../../server/email-hash.ts';
import { sealText } from './crypto.server.ts';
import { backfillEmailHashes } from './email-hashes.server.ts';
import { solvedCaptcha, testFormsConfig, validPayload } from './forms.test-support.ts';
import { forms } from './forms.ts';
import { enqueueMail } from './outbox.server.ts';
import { formSubmissions, mailOutbox } from './tables.ts';

/**
 * The keyed hash of an address beside every sealed row (decision 159): written with a submission
 * and its mail, with each outbox mail (of the person it is about), and filled in by the backfill
 * for rows written before it was kept, which it finds by opening them.
 */
let t: TestApp;
let key: Buffer;

beforeAll(async () => {
  t = await createTestApp({ config: { forms: testFormsConfig() } });
  key = t.app.config.forms.encryptionKey;
});
afterAll(async () => {
  await t?.close();
});

describe('normaliseEmail and emailHash', () => {
  it('take an address trimmed, lower-cased and in NFC as the same address', () => {
    const composed = 'äijä@esimerkki.fi';
    const decomposed = ' A\u0308ija\u0308@Esimerkki.FI ';
    expect(normaliseEmail(decomposed)).toBe(composed);
    expect(emailHash(key, decomposed)).toBe(emailHash(key, composed));
    expect(emailHash(key, 'aija@esimerkki.fi')).not.toBe(emailHash(key, composed));
    // Keyed: another key, another hash; and never the address itself.
    expect(emailHash(Buffer.alloc(32, 7), composed)).not.toBe(emailHash(key, composed));
    expect(emailHash(key, composed)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('rows written now', () => {
  it('carry the submitter’s hash on the submission and its notification mail', async () => {
    const visitor = await arrive(t.app);
    const payload = await validPayload('feedback');
    (payload.Data as Record<string, unknown>).Email = ' Palaute.Antaja@Example.FI';
    payload.MTCaptchaToken = await solvedCaptcha(t.app);
    const res = await visitor.post(forms.feedback.path, {
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await t.app.db
      .select()
      .from(formSubmissions)
      .where(eq(formSubmissions.emailHash, emailHash(key, 'palaute.antaja@example.fi')));
    expect(row).toBeDefined();
    const [mail] = await t.app.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.submissionId, row?.id ?? ''));
    expect(mail?.emailHash).toBe(row?.emailHash);
    // The clear address is in no column but the sealed ones.
    expect(JSON.stringify(row).toLowerCase()).not.toContain('palaute.antaja');
  });

  it('carry on a mail the hash of the person it is about, its recipient by default', async () => {
    await enqueueMail(t.app.db, key, { to: 'Saaja@example.fi', subject: 'A', text: 'x' });
    await enqueueMail(t.app.db, key, {
      to: 'kauppa@kattaus.example',
      about: 'ostaja@example.fi',
      subject: 'B',
      text: 'ostaja@example.fi tilasi',
    });
    const rows = await t.app.db.select().from(mailOutbox);
    expect(rows.find((r) => r.subject === 'A')?.emailHash).toBe(emailHash(key, 'saaja@example.fi'));
    expect(rows.find((r) => r.subject === 'B')?.emailHash).toBe(
      emailHash(key, 'ostaja@example.fi'),
    );
  });
});

describe('backfillEmailHashes', () => {
  it('fills the rows written before the hash was kept, by opening them, and only those', async () => {
    const old = (data: Record<string, unknown>) => ({
      id: randomUUID(),
      form: 'feedback',
      siteId: 'sibylla',
      lang: 'fi',
      sealedData: sealText(key, JSON.stringify(data)),
      deleteAfter: new Date(Date.now() + 864e5),
    });
    const withAddress = old({ Firstname: 'Vanha', Email: 'Vanha.Lahettaja@example.fi' });
    const salesForm = old({ firstName: 'Myyja', email: 'myynti.kysyja@example.fi' });
    const noAddress = old({ Message: 'Kysymys ilman osoitetta' });
    await t.app.db.insert(formSubmissions).values([withAddress, salesForm, noAddress]);
    const mail = (values: Partial<typeof mailOutbox.$inferInsert> & { body: string }) => ({
      recipients: 'asiakaspalvelu@kattaus.example',
      subject: `vanha ${randomUUID()}`,
      sealedBody: sealText(key, values.body),
      ...values,
    });
    const [ofSubmission, ofOrder, toPerson, toNobody] = await t.app.db
      .insert(mailOutbox)
      .values([
        mail({ submissionId: withAddress.id, body: 'Palaute' }),
        mail({
          recipients: 'tilaukset@kattaus.example',
          body: 'Uusi tilaus 100123\nostaja.vanha@example.fi, 0401234567',
        }),
        mail({ recipients: 'Suora.Saaja@example.fi', body: 'Salasanan vaihtolinkki' }),
        mail({ submissionId: noAddress.id, body: 'Kysymys' }),
      ])
      .returning();

    const filled = await backfillEmailHashes(t.app.db, key);
    expect(filled).toEqual({ submissions: 2, mails: 3 });
    const hashOf = async (id: string) =>
      (await t.app.db.select().from(formSubmissions).where(eq(formSubmissions.id, id)))[0]
        ?.emailHash;
    expect(await hashOf(withAddress.id)).toBe(emailHash(key, 'vanha.lahettaja@example.fi'));
    expect(await hashOf(salesForm.id)).toBe(emailHash(key, 'myynti.kysyja@example.fi'));
    expect(await hashOf(noAddress.id)).toBeNull();
    const mailHash = async (id: number | undefined) =>
      (
        await t.app.db
          .select()
          .from(mailOutbox)
          .where(eq(mailOutbox.id, id ?? 0))
      )[0]?.emailHash;
    expect(await mailHash(ofSubmission?.id)).toBe(emailHash(key, 'vanha.lahettaja@example.fi'));
    expect(await mailHash(ofOrder?.id)).toBe(emailHash(key, 'ostaja.vanha@example.fi'));
    expect(await mailHash(toPerson?.id)).toBe(emailHash(key, 'suora.saaja@example.fi'));
    expect(await mailHash(toNobody?.id)).toBeNull();

    // A second run finds nothing more to fill; what has no address is still without a hash.
    expect(await backfillEmailHashes(t.app.db, key)).toEqual({ submissions: 0, mails: 0 });
    const left = await t.app.db
      .select({ id: formSubmissions.id })
      .from(formSubmissions)
      .where(isNull(formSubmissions.emailHash));
    expect(left.map((r) => r.id)).toEqual([noAddress.id]);
  });
});
