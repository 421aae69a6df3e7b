import type { AppConfig } from '../../config.ts';
import { createDojahProvider } from './dojah.ts';
import { createSandboxKycProvider } from './sandbox.ts';
import type { KycProvider } from './types.ts';

export type { KycProvider, LookupResult, ProviderIdentity } from './types.ts';
export { KycProviderError } from './types.ts';

/** Dojah with keys, the sandbox when it is on, else none (identity checks unavailable). */
export function createKycProvider(config: AppConfig['kyc']): KycProvider | null {
  if (config.mode === 'live') return createDojahProvider(config);
  if (config.mode === 'sandbox') return createSandboxKycProvider();
  return null;
}
