import type { Envelope } from '@shared/schemas/common.ts';
import type { ResolvedBankAccount } from '@shared/schemas/users.ts';
import { useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

export const resolveBankAccount = (body: { bankID: string; accountNumber: string }) =>
  http.post<Envelope<ResolvedBankAccount>>('/bank-account/resolve', body).then((res) => res.data);

/** The name on the account, looked up as soon as a bank and 10 digits are entered. */
export function useResolvedAccountName(bankID: string, accountNumber: string) {
  return useQuery({
    queryKey: ['bank-account-name', bankID, accountNumber] satisfies AppQueryKey,
    queryFn: () => resolveBankAccount({ bankID, accountNumber }),
    enabled: bankID !== '' && /^\d{10}$/.test(accountNumber),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}
