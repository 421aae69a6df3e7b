import { ErrorCode, forbidden } from '../../errors.ts';

export const AGE_MESSAGES = {
  required:
    'Please confirm you are 18 or older before you play, top up or subscribe. Pluckers is for adults only.',
  confirmed: 'Thank you for confirming you are 18 or older',
} as const;

/**
 * Players must be 18 or over (docs/product.md#who-it-is-for). Sign-up asks; an account made another way (Google)
 * has no confirmation yet and may not play or pay until it gives one.
 */
export function assertAgeConfirmed(account: { ageConfirmedAt: Date | null }): void {
  if (!account.ageConfirmedAt) throw forbidden(AGE_MESSAGES.required, ErrorCode.AgeUnconfirmed);
}
