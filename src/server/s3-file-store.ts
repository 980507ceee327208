import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { S3Config } from './config.ts';
import { assertKey, type FileStore } from './file-store.ts';

/** Wait this long for a connection to the bucket's server. */
const CONNECT_TIMEOUT_MS = 5_000;
/** Give up on a connection that has been silent this long (a hung server, a stalled read). */
const SOCKET_IDLE_TIMEOUT_MS = 30_000;

/**
 * Files as objects in an S3-compatible bucket (decision 031): the key, after the configured
 * prefix, is the object's key. A PUT replaces an object whole, so writes are atomic without the
 * local store's temporary file; reading a key that is not there answers undefined.
 */
export class S3FileStore implements FileStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(config: S3Config) {
    this.bucket = config.bucket;
    this.prefix = config.prefix;
    this.client = new S3Client({
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      ...(config.credentials ? { credentials: config.credentials } : {}),
      forcePathStyle: config.forcePathStyle,
      // A bucket in another region than S3_REGION still works against AWS (one extra request).
      followRegionRedirects: true,
      requestHandler: {
        connectionTimeout: CONNECT_TIMEOUT_MS,
        socketTimeout: SOCKET_IDLE_TIMEOUT_MS,
      },
    });
  }

  private object(key: string): { Bucket: string; Key: string } {
    assertKey(key);
    return { Bucket: this.bucket, Key: this.prefix + key };
  }

  async put(key: string, data: Buffer): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        ...this.object(key),
        Body: data,
        ContentLength: data.length,
        ContentType: 'application/octet-stream',
      }),
    );
  }

  async get(key: string): Promise<Buffer | undefined> {
    const opened = await this.getObject(key);
    if (!opened) return undefined;
    const bytes = await opened.body.transformToByteArray();
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** The object's body as it arrives; the caller reads it to the end or destroys it. */
  async open(key: string): Promise<{ stream: Readable; size: number } | undefined> {
    const opened = await this.getObject(key);
    if (!opened) return undefined;
    const { body, size } = opened;
    if (!(body instanceof Readable)) {
      throw new Error(`file ${key}: the S3 client gave no Node stream`);
    }
    return { stream: body, size };
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand(this.object(key)));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    // S3 answers 204 whether or not the object was there.
    await this.client.send(new DeleteObjectCommand(this.object(key)));
  }

  close(): void {
    this.client.destroy();
  }

  private async getObject(key: string) {
    const request = this.object(key);
    try {
      const response = await this.client.send(new GetObjectCommand(request));
      if (!response.Body || response.ContentLength === undefined) {
        throw new Error(`file ${key}: the bucket answered without a body or its length`);
      }
      return { body: response.Body, size: response.ContentLength };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }
}

/**
 * The object is not there: NoSuchKey from GET, a bare 404 ("NotFound") from HEAD. A missing
 * bucket is a configuration error and stays one.
 */
function isMissing(error: unknown): boolean {
  if (!(error instanceof Error) || error.name === 'NoSuchBucket') return false;
  if (error.name === 'NoSuchKey' || error.name === 'NotFound') return true;
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;
}
