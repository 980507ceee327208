import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from '@20minutes/s3rver';
import { loadConfig, type S3Config } from '../../src/server/config.ts';

/** s3rver's built-in key pair: it checks every request's signature against it. */
const ACCESS_KEY = 'S3RVER';

export interface S3StandIn {
  /** The variables that point the app at the stand-in. */
  env: Record<string, string>;
  /** The same, as the configuration reads them. */
  config: S3Config;
  /** The folder s3rver keeps its buckets in (`<bucket>/<key>._S3rver_object`), to look at whole. */
  directory: string;
  stop(): Promise<void>;
}

/**
 * A local S3-compatible server (s3rver) on 127.0.0.1 and a free port, keeping its bucket in a
 * temporary folder; `stop` shuts it down and removes the folder.
 */
export async function startS3StandIn(
  options: { bucket?: string; prefix?: string } = {},
): Promise<S3StandIn> {
  const bucket = options.bucket ?? 'kattaus-test';
  const directory = await mkdtemp(path.join(tmpdir(), 'kattaus-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  let address: { port: number };
  try {
    address = await server.run();
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  const env: Record<string, string> = {
    S3_BUCKET: bucket,
    S3_ENDPOINT: `http://127.0.0.1:${address.port}`,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: ACCESS_KEY,
    S3_SECRET_ACCESS_KEY: ACCESS_KEY,
    S3_FORCE_PATH_STYLE: 'true',
    ...(options.prefix ? { S3_PREFIX: options.prefix } : {}),
  };
  const config = loadConfig({
    ...env,
    SESSION_SECRET: 'test-secret-that-is-long-enough-0123456789',
    FORMS_ENCRYPTION_KEY: '11'.repeat(32),
  }).s3;
  if (!config) throw new Error('the stand-in’s variables gave no S3 configuration');
  return {
    env,
    config,
    directory,
    async stop() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
