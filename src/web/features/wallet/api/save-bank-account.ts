import type { BankAccount } from '@shared/schemas/users.ts';
import { useMutation } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import { getSession, setUser } from '@web/lib/session.ts';

export interface BankAccountInput {
  bankID: string;
  accountNumber: string;
}

/** Spec §7 POST bank-account: the server resolves the account name with the bank. */
export const saveBankAccount = (body: BankAccountInput) =>
  http.post<{ message: string; data: BankAccount }>('/bank-account', body);

export function useSaveBankAccount() {
  return useMutation({
    mutationFn: saveBankAccount,
    onSuccess: (result) => {
      const user = getSession().user;
      if (user) setUser({ ...user, bankAccount: result.data });
    },
  });
}
