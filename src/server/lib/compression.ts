import { gzipSync } from 'node:zlib';

/** Below this a compressed body saves less than the round trip it rides on. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Whether an Accept-Encoding header allows gzip: named, or covered by `*`, with a non-zero
 * quality (`gzip;q=0` refuses it explicitly, even when `*` is accepted).
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let wildcard = false;
  for (const part of header.split(',')) {
    const [rawName = '', ...parameters] = part.split(';');
    const name = rawName.trim().toLowerCase();
    const quality = parameters
      .map((parameter) => parameter.trim().toLowerCase())
      .find((parameter) => parameter.startsWith('q='));
    const accepted = quality === undefined || Number(quality.slice(2)) > 0;
    if (name === 'gzip' || name === 'x-gzip') return accepted;
    if (name === '*') wildcard = accepted;
  }
  return wildcard;
}

const gzipped = new WeakMap<Buffer, Buffer>();

/**
 * The gzip of a body that is itself kept and reused (a cached response), compressed the first
 * time it is asked for and then as long as that body lives.
 */
export function gzipOnce(body: Buffer): Buffer {
  let compressed = gzipped.get(body);
  if (!compressed) {
    compressed = gzipSync(body);
    gzipped.set(body, compressed);
  }
  return compressed;
}
