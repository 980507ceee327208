import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { type Enrolled, enrolledStaff, json, lastAudit } from '../../../tests/helpers/staff.ts';
import { openText } from '../forms/crypto.server.ts';
import { sendComplaint } from '../forms/forms.test-support.ts';
import { deleteExpiredSubmissions } from '../forms/retention.server.ts';
import { formSubmissions, mailOutbox } from '../forms/tables.ts';
import { INBOX_API, type OpenedSubmission } from './schemas.ts';

/**
 * The customer-service inbox (decision 137) on submissions sent through the public form: what a
 * grant shows and refuses, the opening and every file read in the audit log, thumbnails made
 * anew, downloads never inline, notes, assignees, states on the version seen, replies through
 * the outbox, and the legal hold that the retention job respects.
 */
let t: TestApp;
let service: Enrolled;
let editor: Enrolled;
let shopComplaint = '';
let swedishComplaint = '';
const onPostgres = inject('templateDatabase').engine === 'postgres';

const submitComplaint = (host: string) => sendComplaint(t.app, host);

beforeAll(async () => {
  t = await createTestApp();
  service = await enrolledStaff(t.app, [
    { role: 'customer-service', sites: ['lihakauppa'], langs: ['fi'] },
  ]);
  editor = await enrolledStaff(t.app, [{ role: 'editor', sites: null, langs: null }]);
  shopComplaint = await submitComplaint('lihakauppa.localhost');
  swedishComplaint = await submitComplaint('delise.localhost');
}, 180_000);
afterAll(async () => {
  await t?.close();
});

const open = async (id = shopComplaint) => {
  const res = await service.visitor.get(`${INBOX_API}/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as OpenedSubmission;
};

describe('the inbox', () => {
  it('lists only what the grant reaches, without personal data', async () => {
    const res = await service.visitor.get(INBOX_API);
    expect(res.statusCode, res.body).toBe(200);
    const listed: { id: string; siteId: string }[] = res.json().submissions;
    // The other tests add submissions of their own to the shop: all of the shop, none of delise.
    expect(listed.map((s) => s.id)).toContain(shopComplaint);
    expect(listed.map((s) => s.id)).not.toContain(swedishComplaint);
    expect(new Set(listed.map((s) => s.siteId))).toEqual(new Set(['lihakauppa']));
    expect(listed.find((s) => s.id === shopComplaint)).toMatchObject({
      form: 'complaint',
      state: 'new',
      version: 0,
    });
    expect(res.body).not.toContain('maija@example.fi');
    expect(res.headers['cache-control']).toBe('no-store');
    // Asking for another site narrows; it never widens.
    const other = await service.visitor.get(`${INBOX_API}?site=delise`);
    expect(other.json().submissions).toEqual([]);
    // No grant to read submissions: neither the list nor one of them.
    expect((await editor.visitor.get(INBOX_API)).statusCode).toBe(403);
    expect((await editor.visitor.get(`${INBOX_API}/${shopComplaint}`)).statusCode).toBe(403);
  });

  it('opens a submission of the grant decrypted, and writes the opening to the audit log', async () => {
    const opened = await open();
    expect(opened.data).toMatchObject({
      Email: 'maija@example.fi',
      ProductName: 'Grillimakkara 400 g',
    });
    expect(opened.files.map((f) => [f.name, f.image])).toEqual([
      ['kuva.png', true],
      ['kuva2.jpg', true],
    ]);
    expect(opened.replyTo).toBe('maija@example.fi');
    expect(opened.assignees.map((a) => a.id)).toContain(service.id);
    expect(opened.assignees.map((a) => a.id)).not.toContain(editor.id);
    const audit = await lastAudit(t.app);
    expect(audit).toMatchObject({
      action: 'submission.open',
      staffId: service.id,
      subjectId: shopComplaint,
      siteId: 'lihakauppa',
    });
    // Another site's submission, by its id: refused, and nothing read.
    const refused = await service.visitor.get(`${INBOX_API}/${swedishComplaint}`);
    expect(refused.statusCode).toBe(403);
    expect((await lastAudit(t.app))?.id).toBe(audit?.id);
    expect((await service.visitor.get(`${INBOX_API}/${crypto.randomUUID()}`)).statusCode).toBe(404);
  });

  it('shows an image as a thumbnail made anew and downloads files only as attachments', async () => {
    const thumb = await service.visitor.get(`${INBOX_API}/${shopComplaint}/files/0?thumbnail=1`);
    expect(thumb.statusCode, thumb.body).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    expect(thumb.headers['x-content-type-options']).toBe('nosniff');
    const meta = await sharp(thumb.rawPayload).metadata();
    expect(meta.format).toBe('jpeg');
    expect(await lastAudit(t.app)).toMatchObject({
      action: 'submission.file',
      subjectId: shopComplaint,
    });

    const download = await service.visitor.get(`${INBOX_API}/${shopComplaint}/files/1`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/octet-stream');
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="kuva2.jpg"/);
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.headers['cache-control']).toBe('no-store');
    expect((await sharp(download.rawPayload).metadata()).format).toBe('jpeg');
    expect((await service.visitor.get(`${INBOX_API}/${shopComplaint}/files/7`)).statusCode).toBe(
      404,
    );
  });

  it('keeps notes sealed in the timeline and gives the submission to someone who may handle it', async () => {
    const id = await submitComplaint('lihakauppa.localhost');
    const note = await service.visitor.post(
      `${INBOX_API}/${id}/notes`,
      json({ text: 'Soitettu asiakkaalle <script>alert(1)</script>' }),
    );
    expect(note.statusCode, note.body).toBe(200);
    expect((await lastAudit(t.app))?.action).toBe('submission.note');
    const stored = await t.app.db.execute(sql`select sealed_text from submission_events`);
    expect(JSON.stringify(stored)).not.toContain('Soitettu');
    const empty = await service.visitor.post(`${INBOX_API}/${id}/notes`, json({ text: '  ' }));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toEqual({ text: 'admin.error.required' });

    const wrongPerson = await service.visitor.post(
      `${INBOX_API}/${id}/assignee`,
      json({ assigneeId: editor.id, version: 0 }),
    );
    expect(wrongPerson.statusCode).toBe(400);
    expect(wrongPerson.json().errors).toEqual({ assigneeId: 'admin.error.assignee' });
    const given = await service.visitor.post(
      `${INBOX_API}/${id}/assignee`,
      json({ assigneeId: service.id, version: 0 }),
    );
    expect(given.statusCode, given.body).toBe(200);
    expect(given.json()).toMatchObject({ assignee: { id: service.id }, version: 1 });
    const opened = await open(id);
    expect(opened.events.map((e) => [e.kind, e.text])).toEqual([
      ['note', 'Soitettu asiakkaalle <script>alert(1)</script>'],
      ['assignee', null],
    ]);
  });

  it('changes a state only on the version seen: a stale change is 409 and changes nothing', async () => {
    const id = await submitComplaint('lihakauppa.localhost');
    const { version } = await open(id);
    const moved = await service.visitor.post(
      `${INBOX_API}/${id}/state`,
      json({ state: 'in_progress', version }),
    );
    expect(moved.statusCode, moved.body).toBe(200);
    const stale = await service.visitor.post(
      `${INBOX_API}/${id}/state`,
      json({ state: 'closed', version }),
    );
    expect(stale.statusCode).toBe(409);
    expect((await open(id)).state).toBe('in_progress');
    expect((await lastAudit(t.app))?.action).toBe('submission.open');
    const bad = await service.visitor.post(
      `${INBOX_API}/${id}/state`,
      json({ state: 'archived', version: version + 1 }),
    );
    expect(bad.statusCode).toBe(400);
  });

  it('replies by mail in the submission’s language through the outbox', async () => {
    const id = await submitComplaint('lihakauppa.localhost');
    const res = await service.visitor.post(
      `${INBOX_API}/${id}/reply`,
      json({ text: 'Palautamme tuotteen hinnan tilillenne.' }),
    );
    expect(res.statusCode, res.body).toBe(200);
    // The reply, not the notice the submission itself sent to customer service.
    const [mail] = await t.app.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.submissionId, id), eq(mailOutbox.recipients, 'maija@example.fi')));
    expect(mail).toBeDefined();
    expect(mail?.subject).toMatch(/^Vastaus yhteydenottoosi – /);
    const body = openText(t.app.config.forms.encryptionKey, mail?.sealedBody ?? '');
    expect(body).toMatch(
      /^Hei,\n\nPalautamme tuotteen hinnan tilillenne\.\n\nYstävällisin terveisin\n/,
    );
    expect((await open(id)).events.at(-1)).toMatchObject({
      kind: 'reply',
      text: 'Palautamme tuotteen hinnan tilillenne.',
    });
  });

  it('keeps a submission on legal hold past its date, and deletes it once the hold is off', async () => {
    const id = await submitComplaint('lihakauppa.localhost');
    const { version } = await open(id);
    const held = await service.visitor.post(
      `${INBOX_API}/${id}/hold`,
      json({ legalHold: true, version }),
    );
    expect(held.statusCode, held.body).toBe(200);
    await t.app.db
      .update(formSubmissions)
      .set({ deleteAfter: new Date(Date.now() - 1000) })
      .where(eq(formSubmissions.id, id));
    await deleteExpiredSubmissions(t.app.db, t.app.files, new Date(), t.app.submissionRetention);
    expect((await open(id)).legalHold).toBe(true);
    const released = await service.visitor.post(
      `${INBOX_API}/${id}/hold`,
      json({ legalHold: false, version: version + 1 }),
    );
    expect(released.statusCode, released.body).toBe(200);
    await deleteExpiredSubmissions(t.app.db, t.app.files, new Date(), t.app.submissionRetention);
    expect((await service.visitor.get(`${INBOX_API}/${id}`)).statusCode).toBe(404);
  });
});

describe.runIf(onPostgres)('two staff changing one submission at once (PostgreSQL)', () => {
  it('let one change through and refuse the other with 409', async () => {
    const id = await submitComplaint('lihakauppa.localhost');
    const other = await enrolledStaff(t.app, [
      { role: 'customer-service', sites: ['lihakauppa'], langs: null },
    ]);
    const answers = await Promise.all(
      [service, other].map((person, i) =>
        person.visitor.post(
          `${INBOX_API}/${id}/state`,
          json({ state: i === 0 ? 'closed' : 'waiting', version: 0 }),
        ),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const events = await t.app.db.execute(
      sql`select count(*)::int as n from submission_events where submission_id = ${id}`,
    );
    expect(JSON.stringify(events)).toContain('"n":1');
  });
});
