import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import S3rver from 's3rver';
import { loadConfig, type S3Config } from '../config.ts';

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  /** The S3_* variables that point the server at this one. */
  env: Record<string, string>;
  config: S3Config;
  close(): Promise<void>;
}

/** s3rver's built-in account: the only key pair it accepts. */
const ACCESS_KEY = 'S3RVER';

/** The part of s3rver's FilesystemStore (s3rver 3.7) that stores an object's bytes. */
interface FilesystemStore {
  getResourcePath(bucket: string, key: string, resource: 'object'): string;
  putMetadata(bucket: string, key: string, metadata: unknown, md5: string): Promise<void>;
  putObject(object: {
    bucket: string;
    key: string;
    content: Buffer | NodeJS.ReadableStream;
    metadata: unknown;
  }): Promise<{ size: number; md5: string }>;
}

/**
 * s3rver answers a PUT once it has read the body, not once the file holding it is written: its
 * FilesystemStore resolves on its own transform's end (or at once for a buffer) while the file
 * stream may still be opening or writing, so a GET right after can read a short file when the
 * machine is busy. S3 reads back what was written; the same files are written here, and the PUT
 * is answered once they are complete.
 */
function answerOnceWritten(store: FilesystemStore): void {
  store.putObject = async (object) => {
    const objectPath = store.getResourcePath(object.bucket, object.key, 'object');
    await mkdir(path.dirname(objectPath), { recursive: true });
    const md5 = createHash('md5');
    let size = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        md5.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    const content = Buffer.isBuffer(object.content)
      ? Readable.from([object.content])
      : object.content;
    await pipeline(content, counted, createWriteStream(objectPath));
    const digest = md5.digest('hex');
    await store.putMetadata(object.bucket, object.key, object.metadata, digest);
    return { size, md5: digest };
  };
}

/**
 * A real S3-compatible HTTP server (s3rver, from npm) on a free loopback port with one empty
 * bucket, its objects in a temporary directory removed by `close()`, reading back what it was
 * just given (answerOnceWritten).
 */
export async function startLocalS3(bucket = 'pluckers-test'): Promise<LocalS3> {
  const directory = await mkdtemp(path.join(tmpdir(), 'pluckers-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  answerOnceWritten((server as unknown as { store: FilesystemStore }).store);
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const env = {
    S3_BUCKET: bucket,
    S3_ENDPOINT: endpoint,
    S3_ACCESS_KEY_ID: ACCESS_KEY,
    S3_SECRET_ACCESS_KEY: ACCESS_KEY,
  };
  // Through loadConfig, so the tests use what the server makes of these variables.
  const config = loadConfig(env).s3;
  if (!config) throw new Error('startLocalS3: loadConfig made no S3 configuration');
  return {
    endpoint,
    bucket,
    env,
    config,
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
