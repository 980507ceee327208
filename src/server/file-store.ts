import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from './config.ts';

/**
 * Where files live: uploads, images and their resized variants. Keys are relative paths of
 * lower-case letters, digits, '-', '_', '.' and '/'. A local folder by default; an S3-compatible
 * bucket when configured (`S3FileStore`, decision 031). Nothing else reads or writes such files.
 */
export interface FileStore {
  /** Writes the whole file at once: a reader sees the old file or the new one, never part. */
  put(key: string, data: Buffer): Promise<void>;
  /** The file's bytes, or undefined when there is none. */
  get(key: string): Promise<Buffer | undefined>;
  /** A stream of the file with its size, or undefined when there is none. */
  open(key: string): Promise<{ stream: Readable; size: number } | undefined>;
  exists(key: string): Promise<boolean>;
  /** Deletes the file; deleting one that is not there is no error. */
  delete(key: string): Promise<void>;
  /** Lets go of connections (the S3 client's sockets); the store is not used afterwards. */
  close?(): void;
}

/**
 * The configured store: the bucket when `S3_BUCKET` is set, the local folder otherwise. The S3
 * client is loaded only when it is used.
 */
export async function openFileStore(config: Pick<Config, 'filesDir' | 's3'>): Promise<FileStore> {
  if (!config.s3) return new LocalFileStore(config.filesDir);
  const { S3FileStore } = await import('./s3-file-store.ts');
  return new S3FileStore(config.s3);
}

/**
 * No '..', no empty segment ('a//b', a trailing '/'): a folder and a bucket would read those
 * differently ('a//b' is 'a/b' on disk but another object in a bucket).
 */
const KEY = /^(?!.*\.\.)(?!.*\/\/)(?!.*\/$)[a-z0-9][a-z0-9/_.-]{0,254}$/;

export function assertKey(key: string): void {
  if (!KEY.test(key)) throw new Error(`Invalid file key "${key}"`);
}

/** No such file: none by that name, or a file where the key has a folder ('a' for 'a/b'). */
function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

export class LocalFileStore implements FileStore {
  constructor(private readonly root: string) {}

  private file(key: string): string {
    assertKey(key);
    return path.join(this.root, key);
  }

  async put(key: string, data: Buffer): Promise<void> {
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true });
    // Write then rename, so a reader never sees half a file.
    const temp = `${file}.${randomUUID()}.tmp`;
    await writeFile(temp, data);
    await rename(temp, file);
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.file(key));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async open(key: string): Promise<{ stream: Readable; size: number } | undefined> {
    const file = this.file(key);
    try {
      const info = await stat(file);
      return { stream: createReadStream(file), size: info.size };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    const file = this.file(key);
    try {
      await stat(file);
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }
}
