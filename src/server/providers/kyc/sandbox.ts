import { randomBytes } from 'node:crypto';
import type { KycIdType } from '../../../shared/kyc.ts';
import { type KycProvider, KycProviderError, type ProviderIdentity } from './types.ts';

/**
 * The built-in identity sandbox: no provider is called. Its test numbers (docs/kyc.md)
 * answer with fixed identities so every outcome can be tried by hand; any other number is
 * "not found". 70123456789 and 22222222222 are Dojah's own sandbox test NIN and BVN.
 */
export const SANDBOX_IDENTITY: Omit<ProviderIdentity, 'reference' | 'linkedNin'> = {
  firstName: 'ADA',
  middleName: 'NGOZI',
  lastName: 'OKAFOR',
  birthDate: '1990-05-14',
};
/** A second adult: the first one's NIN and BVN are one person, who verifies one account. */
export const SANDBOX_SECOND_ADULT: Omit<ProviderIdentity, 'reference' | 'linkedNin'> = {
  firstName: 'BOLA',
  middleName: 'FUNKE',
  lastName: 'ADEYEMI',
  birthDate: '1988-03-02',
};
export const SANDBOX_MINOR: Omit<ProviderIdentity, 'reference' | 'linkedNin'> = {
  firstName: 'CHIDI',
  middleName: '',
  lastName: 'OKAFOR',
  birthDate: '2015-06-01',
};

export const SANDBOX_NUMBERS = {
  /** Ada Ngozi Okafor, born 14 May 1990. */
  adult: { NIN: '70123456789', BVN: '22222222222' },
  /** Bola Funke Adeyemi, born 2 March 1988. */
  secondAdult: { NIN: '70000000026', BVN: '22000000026' },
  /** Chidi Okafor, born 1 June 2015: refused as under 18. */
  minor: { NIN: '70000000018', BVN: '22000000018' },
  /** The provider is down: nothing is decided, the player is asked to try later. */
  down: { NIN: '70000000000', BVN: '22000000000' },
} as const;

export function createSandboxKycProvider(): KycProvider {
  return {
    name: 'sandbox',
    mode: 'sandbox',
    async lookup(idType: KycIdType, idNumber: string) {
      if (idNumber === SANDBOX_NUMBERS.down[idType])
        throw new KycProviderError('sandbox: simulated outage');
      const identity =
        idNumber === SANDBOX_NUMBERS.adult[idType]
          ? SANDBOX_IDENTITY
          : idNumber === SANDBOX_NUMBERS.secondAdult[idType]
            ? SANDBOX_SECOND_ADULT
            : idNumber === SANDBOX_NUMBERS.minor[idType]
              ? SANDBOX_MINOR
              : null;
      if (!identity) return { found: false };
      return {
        found: true,
        identity: {
          ...identity,
          reference: `sandbox-${randomBytes(6).toString('hex')}`,
          linkedNin: null,
        },
      };
    },
  };
}
