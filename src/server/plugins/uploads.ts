import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { AppError, badRequest } from '../errors.ts';
import { documentRoute } from './docs.ts';

/** Room for the form's boundaries and part headers around the file itself. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/**
 * Lets the routes of `scope` take one file of at most `maxBytes` as multipart/form-data.
 * Register it in a scope of the upload route's own, so no other route parses multipart.
 */
export async function acceptUploads(scope: FastifyInstance, maxBytes: number): Promise<void> {
  await scope.register(multipart, {
    limits: { fileSize: maxBytes, files: 1, fields: 5, parts: 6 },
  });
}

/**
 * Options of a route that takes one file. The file is read as a stream (`readUploadedFile`),
 * not a validated body: only the document states the form, or clients would not know what
 * to send (the route takes the first file, whatever its field).
 */
export function uploadRouteOptions(
  maxBytes: number,
  description: string,
): Pick<RouteShorthandOptions, 'bodyLimit' | 'config'> {
  const form = {
    type: 'object',
    required: ['file'],
    properties: {
      // For a binary string OpenAPI's maxLength counts bytes: the upload limit.
      file: { type: 'string', format: 'binary', maxLength: maxBytes, description },
    },
  };
  return {
    bodyLimit: maxBytes + FORM_OVERHEAD_BYTES,
    config: {
      swaggerTransform: (input) => {
        const documented = documentRoute(input);
        return { ...documented, schema: { ...documented.schema, body: form } };
      },
    },
  };
}

/**
 * The uploaded file's bytes; an empty or missing file is `invalid`, one over the limit
 * `tooLarge`. Failures while reading are the body's fault (cut short, no boundary, malformed
 * part headers: the multipart parser throws them without a status), so they are a 400, not a
 * 500.
 */
export async function readUploadedFile(
  request: FastifyRequest,
  messages: { invalid: string; tooLarge: string },
): Promise<Buffer> {
  try {
    const file = await request.file();
    if (!file) throw badRequest(messages.invalid);
    const bytes = await file.toBuffer();
    if (bytes.length === 0) throw badRequest(messages.invalid);
    return bytes;
  } catch (error) {
    if (error instanceof AppError) throw error;
    const { code, statusCode } = error as { code?: string; statusCode?: number };
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(messages.tooLarge);
    if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) throw error;
    throw badRequest(messages.invalid);
  }
}
