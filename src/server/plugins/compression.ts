import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { COMPRESSION_THRESHOLD_BYTES } from '../lib/compression.ts';

/**
 * Compresses the JSON answers of the routes registered after it in its scope (the API), for
 * players on slow mobile data: a page of games or transactions shrinks five- to tenfold. The
 * web app's files are compressed once at build time instead (plugins/spa.ts), and requests
 * are never accepted compressed (nothing sends them, and inflating them costs us, not them).
 */
export default fp(
  async function compression(app: FastifyInstance) {
    await app.register(compress, {
      globalCompression: true,
      globalDecompression: false,
      encodings: ['br', 'gzip'],
      threshold: COMPRESSION_THRESHOLD_BYTES,
    });
  },
  { name: 'compression' },
);
