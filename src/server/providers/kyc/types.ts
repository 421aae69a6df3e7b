import type { KycIdType } from '../../../shared/kyc.ts';

/** The identity a BVN or NIN is registered to, as the provider returned it. */
export interface ProviderIdentity {
  firstName: string;
  middleName: string;
  lastName: string;
  /** YYYY-MM-DD, whatever format the provider used. */
  birthDate: string;
  /** The provider's reference for this lookup, if it gives one. */
  reference: string | null;
  /**
   * The holder's NIN when a BVN lookup returns it (Dojah's BVN record carries one): the same
   * person then cannot verify a second account with the NIN instead.
   */
  linkedNin: string | null;
}

export type LookupResult = { found: true; identity: ProviderIdentity } | { found: false };

export interface KycProvider {
  readonly name: string;
  readonly mode: 'live' | 'sandbox';
  /**
   * Looks the number up. `{ found: false }` when the provider answered that it has no such
   * number; throws KycProviderError when it could not answer (down, timeout, bad credentials,
   * a garbled answer): the check then decided nothing.
   */
  lookup(idType: KycIdType, idNumber: string): Promise<LookupResult>;
}

export class KycProviderError extends Error {
  override name = 'KycProviderError';
}
