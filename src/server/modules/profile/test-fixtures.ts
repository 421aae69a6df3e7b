/** Helpers for the profile-photo tests: real images through the real multipart route. */
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { expect } from 'vitest';

/** A small PNG of one colour; different colours make different photos. */
export function pngOf(red: number): Promise<Buffer> {
  return sharp({
    create: { width: 64, height: 64, channels: 3, background: { r: red, g: 218, b: 228 } },
  })
    .png()
    .toBuffer();
}

/** The same as a WebP, as the server stores photos. */
export async function webpOf(red: number): Promise<Buffer> {
  return sharp(await pngOf(red))
    .webp()
    .toBuffer();
}

/**
 * POST /api/v1/upload/profile-photo as a browser's FormData sends it (the web app's field name
 * and encoding), and the URL it answers with.
 */
export async function uploadPhoto(
  app: FastifyInstance,
  headers: Record<string, string>,
  png: Buffer,
): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'me.png');
  const encoded = new Request('http://pluckers.test/', { method: 'POST', body: form });
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/upload/profile-photo',
    headers: { ...headers, 'content-type': encoded.headers.get('content-type') ?? '' },
    payload: Buffer.from(await encoded.arrayBuffer()),
  });
  expect(response.statusCode, response.body).toBe(200);
  const url: unknown = response.json().data.profilePhoto;
  expect(url).toMatch(/^\/uploads\/avatars\/[a-f0-9]{32}\.webp$/);
  return String(url);
}

/** GET of a photo URL, checked to be served as the app always served photos; its bytes. */
export async function servedPhoto(app: FastifyInstance, url: string): Promise<Buffer> {
  const response = await app.inject({ method: 'GET', url });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('image/webp');
  expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
  // A real WebP, re-encoded by the server: RIFF....WEBP.
  expect(response.rawPayload.subarray(0, 4).toString('latin1')).toBe('RIFF');
  expect(response.rawPayload.subarray(8, 12).toString('latin1')).toBe('WEBP');
  return response.rawPayload;
}

export async function photoStatus(app: FastifyInstance, url: string): Promise<number> {
  return (await app.inject({ method: 'GET', url })).statusCode;
}
