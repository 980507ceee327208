import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where files live: uploads, images and their resized variants. Keys are relative paths of
 * lower-case letters, digits, '-', '_', '.' and '/'. A local folder by default; an S3-compatible
 * bucket can implement the same interface.
 */
export interface FileStore {
  put(key: string, data: Buffer): Promise<void>;
  /** The file's bytes, or undefined when there is none. */
  get(key: string): Promise<Buffer | undefined>;
  /** A stream of the file with its size, or undefined when there is none. */
  open(key: string): Promise<{ stream: Readable; size: number } | undefined>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
}

const KEY = /^(?!.*\.\.)[a-z0-9][a-z0-9/_.-]{0,254}$/;

export function assertKey(key: string): void {
  if (!KEY.test(key)) throw new Error(`Invalid file key "${key}"`);
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
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async open(key: string): Promise<{ stream: Readable; size: number } | undefined> {
    const file = this.file(key);
    try {
      const info = await stat(file);
      return { stream: createReadStream(file), size: info.size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await stat(this.file(key));
      return true;
    } catch {
      return false;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }
}
