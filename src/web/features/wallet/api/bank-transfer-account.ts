import type { Envelope } from '@shared/schemas/common.ts';
import type { BankTransferAccount } from '@shared/schemas/wallet.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

const ACCOUNT_KEY = ['payments', 'bank-transfer-account'] satisfies AppQueryKey;

/** GET /payment/bank-transfer/account: the player's account number, or what stands before one. */
export const getBankTransferAccount = () =>
  http
    .get<Envelope<BankTransferAccount>>('/payment/bank-transfer/account')
    .then((body) => body.data);

export function useBankTransferAccount() {
  return useQuery({ queryKey: ACCOUNT_KEY, queryFn: getBankTransferAccount });
}

/** POST /payment/bank-transfer/account: makes the account number (once; again: the same one). */
export function useCreateBankTransferAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { bvn?: string }) =>
      http
        .post<Envelope<BankTransferAccount>>('/payment/bank-transfer/account', body)
        .then((answer) => answer.data),
    onSuccess: (account) => queryClient.setQueryData(ACCOUNT_KEY, account),
  });
}
