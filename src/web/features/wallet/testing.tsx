/**
 * Wallet-only test data: the seeded banks, a valid NUBAN for one, and the sample player with a
 * bank account, for tests on a fake or unreachable server. The signed-in player and sandbox top-ups
 * are in src/web/test/player.tsx. Imported by tests only.
 */
import type { Bank } from '@shared/schemas/catalogue.ts';
import type { User } from '@shared/schemas/users.ts';
import { samplePlayer as playerWithoutBank } from '@web/test/sample-data.ts';

export async function banks(): Promise<Bank[]> {
  const body = (await (await fetch('/api/v1/bank')).json()) as { data: Bank[] };
  return body.data;
}

/** CBN NUBAN: weights 3,7,3 over 000 + bank code + 9-digit serial; check = (10 − sum mod 10) mod 10. */
export function validNuban(bankCode: string, serial = '012345678'): string {
  const weights = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3];
  const digits = `000${bankCode}${serial}`;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    sum += Number(digits[index]) * (weights[index] ?? 0);
  }
  return `${serial}${(10 - (sum % 10)) % 10}`;
}

/** A player with a saved bank account, for tests on a fake or unreachable server. */
export const samplePlayer: User = {
  ...playerWithoutBank,
  bankAccount: { bankID: 'b1', accountNumber: '0123456789', accountName: 'ADA OBI' },
};
