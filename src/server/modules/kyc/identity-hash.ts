import { createHmac } from 'node:crypto';
import type { KycIdType } from '../../../shared/kyc.ts';

/**
 * What is kept of a BVN or NIN: an HMAC-SHA256 under the server's KYC key (never the number),
 * enough to see one identity verifying a second account, useless without the key (a plain hash
 * of an 11-digit number is reversed by trying them all).
 */
export function identityHash(key: Uint8Array, idType: KycIdType, idNumber: string): string {
  return createHmac('sha256', key).update(`${idType}:${idNumber}`).digest('hex');
}
