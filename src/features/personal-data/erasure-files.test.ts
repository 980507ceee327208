import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { type Enrolled, enrolledStaff, json } from '../../../tests/helpers/staff.ts';
import { sendComplaint, testFormsConfig } from '../forms/forms.test-support.ts';
import { formSubmissionFiles, formSubmissions } from '../forms/tables.ts';
import { submissionHandling } from '../inbox/tables.ts';
import { auditLog } from '../staff/tables.ts';
import { deleteQueuedFiles } from './file-deletions.server.ts';
import { type Erased, PERSONAL_DATA_API, type PersonFound } from './schemas.ts';
import { personalDataFileDeletions } from './tables.ts';

/**
 * What an erasure leaves for later (decision 159): files the store could not delete wait in the
 * queue and the job deletes them afterwards; a submission on legal hold is kept, with its mails.
 * The complaints here are the test payload's (maija@example.fi).
 */
let t: TestApp;
let dpo: Enrolled;
const EMAIL = 'maija@example.fi';

beforeAll(async () => {
  t = await createTestApp({ config: { forms: testFormsConfig() } });
  dpo = await enrolledStaff(t.app, [{ role: 'dpo', sites: null, langs: null }]);
});
afterAll(async () => {
  await t?.close();
});

const search = async () =>
  (
    await dpo.visitor.post(`${PERSONAL_DATA_API}/search`, json({ email: EMAIL }))
  ).json() as PersonFound;

const erase = async (found: PersonFound) => {
  const res = await dpo.visitor.post(
    `${PERSONAL_DATA_API}/erase`,
    json({ email: EMAIL, counts: found.erasable }),
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Erased;
};

describe('an erasure', () => {
  it('keeps a submission on legal hold, and its mail, and says so', async () => {
    const id = await sendComplaint(t.app, 'sibylla.localhost');
    await t.app.db.insert(submissionHandling).values({ submissionId: id, legalHold: true });
    const found = await search();
    expect(found.counts).toMatchObject({ submissions: 1, outbox: 1 });
    expect(found.erasable).toMatchObject({ submissions: 0, outbox: 0 });
    expect(
      found.records
        .filter((r) => r.held)
        .map((r) => r.store)
        .sort(),
    ).toEqual(['outbox', 'submissions']);
    const erased = await erase(found);
    expect(erased).toMatchObject({ kept: 1, filesDeleted: 0 });
    const [kept] = await t.app.db.select().from(formSubmissions).where(eq(formSubmissions.id, id));
    expect(kept).toBeDefined();
    // Off hold, the next erasure takes it.
    await t.app.db
      .update(submissionHandling)
      .set({ legalHold: false })
      .where(eq(submissionHandling.submissionId, id));
    const again = await erase(await search());
    expect(again.erased).toMatchObject({ submissions: 1, outbox: 1 });
    expect(again.filesDeleted).toBe(2);
  });

  it('leaves the files the store could not delete in the queue, and the job deletes them', async () => {
    const id = await sendComplaint(t.app, 'sibylla.localhost');
    const keys = (
      await t.app.db
        .select({ key: formSubmissionFiles.storageKey })
        .from(formSubmissionFiles)
        .where(eq(formSubmissionFiles.submissionId, id))
    ).map((r) => r.key);
    expect(keys).toHaveLength(2);
    // The store is out of reach while the erasure commits.
    const store = t.app.files;
    const remove = store.delete.bind(store);
    store.delete = async () => {
      throw new Error('the bucket cannot be reached');
    };
    let erased: Erased;
    try {
      erased = await erase(await search());
    } finally {
      store.delete = remove;
    }
    expect(erased).toMatchObject({ filesDeleted: 0, filesPending: 2 });
    expect(erased.erased.submissions).toBe(1);
    for (const key of keys) expect(await store.exists(key)).toBe(true);
    const queued = await t.app.db.select().from(personalDataFileDeletions);
    expect(queued.map((q) => q.storageKey).sort()).toEqual([...keys].sort());
    expect(queued.every((q) => q.attempts === 1 && q.lastError?.includes('bucket'))).toBe(true);

    // The job's run: the files go, then their rows, and one audit row says so.
    expect(await deleteQueuedFiles(t.app.db, store)).toEqual({ deleted: 2, pending: 0 });
    for (const key of keys) expect(await store.exists(key)).toBe(false);
    expect(await t.app.db.$count(personalDataFileDeletions)).toBe(0);
    const rows = await t.app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'personal-data.erase.files'));
    expect(rows.at(-1)).toMatchObject({
      actor: 'personal-data file deletion',
      subjectId: erased.subject,
      changes: { files: { after: { requestId: erased.requestId, count: 2 } } },
    });
    // Nothing left, a second run does nothing.
    expect(await deleteQueuedFiles(t.app.db, store)).toEqual({ deleted: 0, pending: 0 });
  });
});
