/** The part of s3rver's API (the maintained fork, @20minutes/s3rver) that the tests use. */
declare module '@20minutes/s3rver' {
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    /** 0: any free port. */
    port?: number;
    silent?: boolean;
    /** Where the buckets are kept. */
    directory: string;
    configureBuckets?: { name: string; configs: (string | Buffer)[] }[];
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
