/** The part of s3rver (a fake S3 server from npm, no types of its own) that server/test/s3.ts uses. */
declare module 's3rver' {
  interface OpcoesS3rver {
    address?: string;
    port?: number;
    silent?: boolean;
    /** Where the buckets' objects are kept, as files. */
    directory: string;
    configureBuckets?: { name: string }[];
    resetOnClose?: boolean;
  }
  export default class S3rver {
    constructor(opcoes: OpcoesS3rver);
    run(): Promise<{ address: string; port: number }>;
    /** Set by `run`. */
    httpServer?: import('node:http').Server;
    close(): Promise<void>;
  }
}
