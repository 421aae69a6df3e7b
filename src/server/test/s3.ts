import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
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

/**
 * A real S3-compatible HTTP server (s3rver, from npm) on a free loopback port with one empty
 * bucket, its objects in a temporary directory removed by `close()`.
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
