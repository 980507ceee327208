import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeGeneratedImage } from '../../seed/pictures/store.ts';
import { createTestApp, type TestApp } from '../../tests/helpers/app.ts';
import { type S3StandIn, startS3StandIn } from '../../tests/helpers/s3.ts';
import { arrive } from '../../tests/helpers/visitor.ts';
import type { DevSubmission } from '../features/forms/dev-submissions.server.ts';
import {
  jpeg,
  png,
  sendComplaintWithImages,
  testFormsConfig,
} from '../features/forms/forms.test-support.ts';
import { deleteExpiredSubmissions } from '../features/forms/retention.server.ts';
import { formSubmissionFiles } from '../features/forms/tables.ts';
import { imageUrl } from '../images/presets.ts';
import { images } from '../images/tables.ts';
import { VariantCache, variantKey, variantStats } from '../images/variants.server.ts';
import { S3FileStore } from './s3-file-store.ts';

/**
 * The whole app with S3_BUCKET set, against s3rver: form attachments and images go to the
 * bucket and come back through the app's own routes, and the local data folder stays empty.
 */
const PREFIX = 'kattaus/';

let standIn: S3StandIn;
let t: TestApp;
let dataDir: string;
/** The bucket as a whole, to look past the app's prefix. */
let bucket: S3FileStore;
const extraStores: S3FileStore[] = [];

beforeAll(async () => {
  standIn = await startS3StandIn({ prefix: PREFIX });
  bucket = new S3FileStore({ ...standIn.config, prefix: '' });
  dataDir = await mkdtemp(path.join(tmpdir(), 'kattaus-s3-app-data-'));
  t = await createTestApp({
    config: {
      s3: standIn.config,
      dataDir,
      filesDir: path.join(dataDir, 'files'),
      forms: testFormsConfig({ DEV_SUBMISSIONS_API: 'true' }),
    },
  });
});

afterAll(async () => {
  await t?.close();
  bucket?.close();
  for (const store of extraStores) store.close();
  await standIn?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Another process's view of the same bucket: its own client, its own variant cache. */
function otherProcess() {
  const files = new S3FileStore(standIn.config);
  extraStores.push(files);
  return { files, variants: new VariantCache(t.app.db, files) };
}

it('opens the bucket named by the configuration', () => {
  expect(t.app.files).toBeInstanceOf(S3FileStore);
});

describe('a form attachment', () => {
  it('is stored in the bucket, sealed, read back through the app and deleted with its submission', async () => {
    const visitor = await arrive(t.app);
    const attachments: [Buffer, Buffer] = [await png(24, 16), await jpeg(16, 24)];
    const { response: sent } = await sendComplaintWithImages(t.app, visitor, attachments, [
      'pakkaus.png',
      'kuitti.jpg',
    ]);
    expect(sent.statusCode, sent.body).toBe(200);

    const rows = await t.app.db.select().from(formSubmissionFiles);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      const stored = await bucket.get(PREFIX + row.storageKey);
      expect(stored, row.storageKey).toBeDefined();
      // Sealed at rest: the bucket never holds the visitor's bytes as they are.
      expect(stored?.includes(attachments[row.position] as Buffer)).toBe(false);
    }

    const listed = await t.app.inject({ url: '/dev/submissions?form=complaint' });
    expect(listed.statusCode, listed.body).toBe(200);
    const [submission] = listed.json() as DevSubmission[];
    expect(submission?.files.map((f) => [f.name, f.storedBytes, f.sha256])).toEqual([
      ['pakkaus.png', attachments[0]?.length, sha256(attachments[0] as Buffer)],
      ['kuitti.jpg', attachments[1]?.length, sha256(attachments[1] as Buffer)],
    ]);

    // Another process reads the same file.
    const sealed = await otherProcess().files.get(rows[0]?.storageKey ?? '');
    expect(sealed).toEqual(await bucket.get(PREFIX + (rows[0]?.storageKey ?? '')));

    const later = new Date(Date.now() + 20 * 365 * 864e5);
    expect(await deleteExpiredSubmissions(t.app.db, t.app.files, later)).toBe(1);
    for (const row of rows) expect(await bucket.exists(PREFIX + row.storageKey)).toBe(false);
  });
});

describe('an image', () => {
  let id = 0;

  beforeAll(async () => {
    id = await storeGeneratedImage(
      { db: t.app.db, files: t.app.files },
      { kind: 'recipe', seed: 's3-recipe', alt: { fi: 'Ruokaa' } },
    );
  });

  it('keeps its original in the bucket', async () => {
    const [row] = await t.app.db.select().from(images).where(eq(images.id, id));
    expect(row).toBeDefined();
    expect(await bucket.exists(PREFIX + (row?.storageKey ?? ''))).toBe(true);
  });

  it('is resized into the bucket on a miss and served from it afterwards', async () => {
    const url = imageUrl({ id }, 'card-wide');
    const renders = variantStats.renders;
    const first = await t.app.inject({ url, headers: { accept: 'image/webp' } });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['x-image-cache']).toBe('miss');
    expect(variantStats.renders).toBe(renders + 1);
    const meta = await sharp(first.rawPayload).metadata();
    expect(meta.format).toBe('webp');

    const key = variantKey(id, 'card-wide', 'webp');
    expect(await bucket.get(PREFIX + key)).toEqual(first.rawPayload);

    const again = await t.app.inject({ url, headers: { accept: 'image/webp' } });
    expect(again.headers['x-image-cache']).toBe('hit');
    expect(again.rawPayload).toEqual(first.rawPayload);
    expect(variantStats.renders).toBe(renders + 1);

    // A second process finds the variant made by the first and does not resize it.
    const other = otherProcess();
    const seen = await other.variants.get(id, 'card-wide', 'webp');
    expect(seen).toEqual({ status: 'ok', data: first.rawPayload, cached: true, revision: 1 });
    expect(variantStats.renders).toBe(renders + 1);
  });

  it('missed by two processes at once is resized twice, harmlessly: one whole variant stays', async () => {
    const a = otherProcess();
    const b = otherProcess();
    const renders = variantStats.renders;
    const [fromA, fromB] = await Promise.all([
      a.variants.get(id, 'small', 'jpeg'),
      b.variants.get(id, 'small', 'jpeg'),
    ]);
    // Each process has its own in-flight map, so both resized.
    expect(variantStats.renders).toBe(renders + 2);
    if (fromA.status !== 'ok' || fromB.status !== 'ok') throw new Error('expected two variants');
    expect(fromA.cached || fromB.cached).toBe(false);
    // The same original, preset and encoder give the same bytes, so the second write is a no-op.
    expect(sha256(fromA.data)).toBe(sha256(fromB.data));
    const stored = await bucket.get(PREFIX + variantKey(id, 'small', 'jpeg'));
    expect(sha256(stored ?? Buffer.alloc(0))).toBe(sha256(fromA.data));

    const served = await t.app.inject({ url: imageUrl({ id }, 'small') });
    expect(served.headers['x-image-cache']).toBe('hit');
    expect(served.rawPayload).toEqual(fromA.data);
  });

  it('answers 404 for an id with no row, writing nothing', async () => {
    const res = await t.app.inject({ url: imageUrl({ id: 987_654 }, 'small') });
    expect(res.statusCode).toBe(404);
    expect(await bucket.exists(PREFIX + variantKey(987_654, 'small', 'jpeg'))).toBe(false);
  });
});

it('leaves the local data folder untouched', async () => {
  expect(await readdir(dataDir, { recursive: true })).toEqual([]);
});
