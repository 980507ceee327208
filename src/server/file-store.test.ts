import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type S3StandIn, startS3StandIn } from '../../tests/helpers/s3.ts';
import { loadConfig } from './config.ts';
import { type FileStore, LocalFileStore, openFileStore } from './file-store.ts';
import { S3FileStore } from './s3-file-store.ts';

/** One store under test: made before its suite, cleaned up after it. */
interface Subject {
  name: string;
  open(): Promise<FileStore>;
  close(): Promise<void>;
}

function localSubject(): Subject {
  let root = '';
  return {
    name: 'LocalFileStore',
    async open() {
      root = await mkdtemp(path.join(tmpdir(), 'kattaus-file-store-'));
      return new LocalFileStore(root);
    },
    async close() {
      if (root) await rm(root, { recursive: true, force: true });
    },
  };
}

function s3Subject(): Subject {
  let standIn: S3StandIn | undefined;
  let store: S3FileStore | undefined;
  return {
    name: 'S3FileStore',
    async open() {
      standIn = await startS3StandIn();
      store = new S3FileStore(standIn.config);
      return store;
    },
    async close() {
      store?.close();
      await standIn?.stop();
    },
  };
}

async function readAll(stream: Readable): Promise<{ bytes: Buffer; chunks: number }> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return { bytes: Buffer.concat(chunks), chunks: chunks.length };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe.each([localSubject(), s3Subject()])('$name (the FileStore contract)', (subject) => {
  let store: FileStore;

  beforeAll(async () => {
    store = await subject.open();
  });
  afterAll(() => subject.close());

  it('gives back what was put, by get, open and exists', async () => {
    const data = Buffer.from('kinkkukiusaus\n');
    await store.put('forms/complaint/abc/1.txt', data);
    expect(await store.exists('forms/complaint/abc/1.txt')).toBe(true);
    expect(await store.get('forms/complaint/abc/1.txt')).toEqual(data);
    const opened = await store.open('forms/complaint/abc/1.txt');
    expect(opened?.size).toBe(data.length);
    expect((await readAll(opened?.stream as Readable)).bytes).toEqual(data);
  });

  it('keeps an empty file', async () => {
    await store.put('empty.bin', Buffer.alloc(0));
    expect(await store.exists('empty.bin')).toBe(true);
    expect(await store.get('empty.bin')).toEqual(Buffer.alloc(0));
    expect((await store.open('empty.bin'))?.size).toBe(0);
  });

  it('answers a missing key with undefined and false, and deletes it without an error', async () => {
    expect(await store.get('images/cache/999/none.jpg')).toBeUndefined();
    expect(await store.open('images/cache/999/none.jpg')).toBeUndefined();
    expect(await store.exists('images/cache/999/none.jpg')).toBe(false);
    await expect(store.delete('images/cache/999/none.jpg')).resolves.toBeUndefined();
    // A key below an existing file's name is missing too, not an error.
    await store.put('plain', Buffer.from('x'));
    expect(await store.get('plain/below')).toBeUndefined();
    expect(await store.exists('plain/below')).toBe(false);
  });

  it('replaces a file that is put again, size and all', async () => {
    await store.put('over/write.txt', Buffer.from('the first, longer version'));
    await store.put('over/write.txt', Buffer.from('second'));
    expect(await store.get('over/write.txt')).toEqual(Buffer.from('second'));
    const opened = await store.open('over/write.txt');
    expect(opened?.size).toBe(6);
    expect((await readAll(opened?.stream as Readable)).bytes.toString()).toBe('second');
  });

  it('forgets a deleted file', async () => {
    await store.put('gone/soon.txt', Buffer.from('x'));
    await store.delete('gone/soon.txt');
    expect(await store.get('gone/soon.txt')).toBeUndefined();
    expect(await store.open('gone/soon.txt')).toBeUndefined();
    expect(await store.exists('gone/soon.txt')).toBe(false);
  });

  it('takes the same file from two writers at once (an image variant made twice)', async () => {
    // Two processes that miss one variant both resize it and put the same bytes. (Different
    // bytes from two writers would end as one whole file in S3 and in the local store; s3rver
    // writes an object in place, so that case is not tested against it.)
    const variant = randomBytes(512 * 1024);
    await Promise.all([
      store.put('images/cache/1/card.jpg', variant),
      store.put('images/cache/1/card.jpg', Buffer.from(variant)),
    ]);
    expect(sha256((await store.get('images/cache/1/card.jpg')) ?? Buffer.alloc(0))).toBe(
      sha256(variant),
    );
  });

  it.each([
    '',
    '../escape',
    'a/../../escape',
    '/absolute',
    'Upper/Case.jpg',
    'space in.jpg',
    'double//slash',
    'trailing/',
    '.hidden',
    `${'x'.repeat(256)}`,
  ])('refuses the key %j in every method', async (key) => {
    await expect(store.put(key, Buffer.from('x'))).rejects.toThrow(/Invalid file key/);
    await expect(store.get(key)).rejects.toThrow(/Invalid file key/);
    await expect(store.open(key)).rejects.toThrow(/Invalid file key/);
    await expect(store.exists(key)).rejects.toThrow(/Invalid file key/);
    await expect(store.delete(key)).rejects.toThrow(/Invalid file key/);
  });

  it('streams a 5 MB file in pieces, with its size', async () => {
    const big = randomBytes(5 * 1024 * 1024);
    await store.put('forms/sponsorship/big/1.pdf', big);
    const opened = await store.open('forms/sponsorship/big/1.pdf');
    expect(opened?.size).toBe(big.length);
    const { bytes, chunks } = await readAll(opened?.stream as Readable);
    expect(bytes.length).toBe(big.length);
    expect(sha256(bytes)).toBe(sha256(big));
    // Read as it arrives, not handed over as one buffer.
    expect(chunks).toBeGreaterThan(1);
  });
});

describe('LocalFileStore', () => {
  it('ends two writers of different bytes at one whole file (write, then rename)', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'kattaus-file-store-'));
    try {
      const store = new LocalFileStore(root);
      const a = Buffer.alloc(1024 * 1024, 'a');
      const b = Buffer.alloc(700 * 1024, 'b');
      await Promise.all([
        store.put('images/cache/2/x.jpg', a),
        store.put('images/cache/2/x.jpg', b),
      ]);
      const stored = await store.get('images/cache/2/x.jpg');
      expect([sha256(a), sha256(b)]).toContain(sha256(stored ?? Buffer.alloc(0)));
      // No temporary file is left beside it.
      expect(await readdir(path.join(root, 'images/cache/2'))).toEqual(['x.jpg']);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('S3FileStore', () => {
  let standIn: S3StandIn;
  const stores: S3FileStore[] = [];
  const storeOf = (config: S3StandIn['config']) => {
    const store = new S3FileStore(config);
    stores.push(store);
    return store;
  };

  beforeAll(async () => {
    standIn = await startS3StandIn({ bucket: 'kattaus-prefix-test' });
  });
  afterAll(async () => {
    for (const store of stores) store.close();
    await standIn?.stop();
  });

  it('keeps an installation’s files under S3_PREFIX, apart from another’s', async () => {
    const a = storeOf({ ...standIn.config, prefix: 'site-a/' });
    const b = storeOf({ ...standIn.config, prefix: 'site-b/' });
    const whole = storeOf({ ...standIn.config, prefix: '' });
    await a.put('images/originals/x.jpg', Buffer.from('from a'));
    expect(await b.exists('images/originals/x.jpg')).toBe(false);
    expect(await b.get('images/originals/x.jpg')).toBeUndefined();
    expect(await a.get('images/originals/x.jpg')).toEqual(Buffer.from('from a'));
    expect(await whole.get('site-a/images/originals/x.jpg')).toEqual(Buffer.from('from a'));
    expect(await whole.exists('images/originals/x.jpg')).toBe(false);
    await a.delete('images/originals/x.jpg');
    expect(await whole.exists('site-a/images/originals/x.jpg')).toBe(false);
  });

  it('reports a missing bucket as an error, not as a missing file', async () => {
    const store = storeOf({ ...standIn.config, bucket: 'no-such-bucket' });
    await expect(store.get('a.txt')).rejects.toThrow();
    await expect(store.open('a.txt')).rejects.toThrow();
    await expect(store.put('a.txt', Buffer.from('x'))).rejects.toThrow();
  });

  it('is what openFileStore gives when S3_BUCKET is set, the local folder otherwise', async () => {
    const withBucket = loadConfig({
      ...standIn.env,
      SESSION_SECRET: 'test-secret-that-is-long-enough-0123456789',
      FORMS_ENCRYPTION_KEY: '22'.repeat(32),
    });
    const s3 = await openFileStore(withBucket);
    expect(s3).toBeInstanceOf(S3FileStore);
    await s3.put('opened.txt', Buffer.from('y'));
    s3.close?.();
    expect(await storeOf(standIn.config).get('opened.txt')).toEqual(Buffer.from('y'));

    const dir = await mkdtemp(path.join(tmpdir(), 'kattaus-file-store-'));
    try {
      const local = await openFileStore(
        loadConfig({
          SESSION_SECRET: 'test-secret-that-is-long-enough-0123456789',
          FILES_DIR: dir,
        }),
      );
      expect(local).toBeInstanceOf(LocalFileStore);
      await local.put('opened.txt', Buffer.from('z'));
      expect(await readdir(dir)).toEqual(['opened.txt']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
