import type { KycIdType } from '../../../shared/kyc.ts';
import { getOnceMore } from '../../lib/get-once-more.ts';
import { parseProviderDate } from './dates.ts';
import { type KycProvider, KycProviderError, type LookupResult } from './types.ts';

const TIMEOUT_MS = 15_000;

/**
 * Dojah's Nigeria KYC lookups (https://docs.dojah.io, "Nigeria KYC"; the paths and models are
 * those of Dojah's published API description, dojah-inc/dojah-sdks `NigeriaKycApi`):
 *
 * - NIN: `GET /api/v1/kyc/nin?nin=<11 digits>` → `{ entity: { first_name, last_name,
 *   middle_name, date_of_birth: "1993-05-06", nin, gender, phone_number, image } }`
 * - BVN: `GET /api/v1/kyc/bvn/full?bvn=<11 digits>` ("Lookup BVN Normal") → `{ entity: { bvn,
 *   first_name, middle_name, last_name, date_of_birth, phone_number1, gender, nin, reference… } }`
 *
 * Both authenticate with two headers: `AppId` (the app made in the dashboard) and
 * `Authorization: <secret key>` (the key itself, not "Bearer <key>"). An unknown number is a
 * 4xx answer `{ "error": "… not found" }`; Dojah's sandbox documents the test NIN 70123456789
 * and test BVN 22222222222.
 */
export function createDojahProvider(config: {
  appId: string;
  secretKey: string;
  baseUrl: string;
}): KycProvider {
  return {
    name: 'dojah',
    mode: 'live',
    async lookup(idType: KycIdType, idNumber: string): Promise<LookupResult> {
      const url =
        idType === 'NIN'
          ? `${config.baseUrl}/api/v1/kyc/nin?nin=${encodeURIComponent(idNumber)}`
          : `${config.baseUrl}/api/v1/kyc/bvn/full?bvn=${encodeURIComponent(idNumber)}`;
      let response: Response;
      let text: string;
      try {
        response = await getOnceMore(url, {
          headers: {
            Accept: 'application/json',
            AppId: config.appId,
            Authorization: config.secretKey,
          },
          timeoutMs: TIMEOUT_MS,
        });
        text = await response.text();
      } catch (error) {
        // Never the URL in the message: it carries the number.
        throw new KycProviderError(
          `Dojah unreachable: ${error instanceof Error ? error.name : 'error'}`,
        );
      }
      let body: { entity?: Record<string, unknown>; error?: unknown } | null = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        throw new KycProviderError(`Dojah answered ${response.status} with a non-JSON body`);
      }
      // Bad credentials are our fault, not the player's: the check decided nothing.
      if (response.status === 401 || response.status === 403)
        throw new KycProviderError(`Dojah refused our credentials (${response.status})`);
      if (response.status === 400 || response.status === 404) {
        const message = typeof body?.error === 'string' ? body.error : '';
        if (/not\s*found|invalid|no record/i.test(message) || response.status === 404)
          return { found: false };
        // Digits blanked: an error may echo the number, and this message is logged.
        throw new KycProviderError(
          `Dojah answered ${response.status}: ${message.slice(0, 100).replace(/\d{4,}/g, '…')}`,
        );
      }
      if (!response.ok) throw new KycProviderError(`Dojah answered ${response.status}`);
      const entity = body?.entity;
      const text1 = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
      const birthDate = parseProviderDate(entity?.date_of_birth);
      const firstName = text1(entity?.first_name);
      const lastName = text1(entity?.last_name);
      if (!entity || !firstName || !lastName || !birthDate)
        throw new KycProviderError('Dojah answered without a name or a readable date of birth');
      return {
        found: true,
        identity: {
          firstName,
          middleName: text1(entity.middle_name),
          lastName,
          birthDate,
          reference: text1(entity.reference) || null,
          linkedNin:
            idType === 'BVN' && /^\d{11}$/.test(text1(entity.nin)) ? text1(entity.nin) : null,
        },
      };
    },
  };
}
