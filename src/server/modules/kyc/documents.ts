import sharp from 'sharp';
import { KYC_MESSAGES } from '../../../shared/kyc.ts';
import { badRequest } from '../../errors.ts';
import { sniffImage } from '../users/photo.ts';

export const MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;
/** Long side of a stored document: enough to read an ID card's print, far below a camera's. */
const DOCUMENT_MAX_PX = 1600;

/** Documents live under this prefix of the file store, never under the public avatars/ one. */
export const DOCUMENT_KEY_PREFIX = 'kyc-documents/';

/**
 * Like profile photos (users/photo.ts): the real type from the bytes, decoded and redrawn as a
 * fresh WebP, so metadata (GPS, camera serials), trailing bytes and polyglots do not survive;
 * larger than an avatar and never cropped, since an operator must read it.
 */
export async function reencodeDocument(bytes: Buffer): Promise<Buffer> {
  const kind = sniffImage(bytes);
  if (!kind) throw badRequest(KYC_MESSAGES.documentImage);
  try {
    const image = sharp(bytes, { failOn: 'warning', limitInputPixels: 40_000_000 });
    const metadata = await image.metadata();
    if (metadata.format !== kind) throw new Error(`declared ${kind}, decoded ${metadata.format}`);
    return await image
      .rotate()
      .resize(DOCUMENT_MAX_PX, DOCUMENT_MAX_PX, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    throw badRequest(KYC_MESSAGES.documentImage);
  }
}
