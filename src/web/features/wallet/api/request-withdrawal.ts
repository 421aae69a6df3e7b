import type { Withdrawal } from '@shared/schemas/wallet.ts';
import { useMutation } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';

export interface WithdrawalInput {
  amount: number;
  /** One key per attempt: a retry of the same attempt sends the same key (docs/product.md#money). */
  idempotencyKey: string;
}

export const requestWithdrawal = ({ amount, idempotencyKey }: WithdrawalInput) =>
  http.post<{ message: string; data: Withdrawal }>(
    '/withdrawal',
    { amount },
    { headers: { 'Idempotency-Key': idempotencyKey } },
  );

export function useRequestWithdrawal() {
  return useMutation({ mutationFn: requestWithdrawal });
}
