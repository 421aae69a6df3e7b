import sharp from 'sharp';
import { PROFILE_PHOTO_MESSAGE } from '../../../shared/schemas/users.ts';
import { badRequest } from '../../errors.ts';

export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;
export const PHOTO_SIZE_PX = 256;

type ImageKind = 'jpeg' | 'png' | 'webp';

/** The file's real type from its first bytes; the name and declared type are not trusted. */
export function sniffImage(bytes: Buffer): ImageKind | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return 'jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'webp';
  return null;
}

/**
 * Decodes the upload and draws a fresh 256 px WebP from its pixels: metadata, trailing bytes
 * and anything smuggled beside the image (polyglots) do not survive. Files that don't decode
 * as the type their bytes claim are refused.
 */
export async function reencodeProfilePhoto(bytes: Buffer): Promise<Buffer> {
  const kind = sniffImage(bytes);
  if (!kind) throw badRequest(`${PROFILE_PHOTO_MESSAGE}: use a JPEG, PNG or WebP image`);
  try {
    const image = sharp(bytes, { failOn: 'warning', limitInputPixels: 40_000_000 });
    const metadata = await image.metadata();
    if (metadata.format !== kind) throw new Error(`declared ${kind}, decoded ${metadata.format}`);
    return await image
      .rotate()
      .resize(PHOTO_SIZE_PX, PHOTO_SIZE_PX, { fit: 'cover', position: 'attention' })
      .webp({ quality: 80 })
      .toBuffer();
  } catch {
    throw badRequest(`${PROFILE_PHOTO_MESSAGE}: the image could not be read`);
  }
}
