import type { BankAccount } from '@shared/schemas/users.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';
import { getSession, setUser } from '@web/lib/session.ts';
import type { StepUpProof } from '@web/lib/step-up.ts';

/** Replacing a saved account also carries the owner's proof (password or e-mailed code). */
export interface BankAccountInput extends StepUpProof {
  bankID: string;
  accountNumber: string;
}

/** docs/product.md#the-api POST bank-account: the server resolves the account name with the bank. */
export const saveBankAccount = (body: BankAccountInput) =>
  http.post<{ message: string; data: BankAccount }>('/bank-account', body);

export function useSaveBankAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveBankAccount,
    onSuccess: (result) => {
      const user = getSession().user;
      if (user) setUser({ ...user, bankAccount: result.data });
      // A verified player's new account may lift the "not in your verified name" pause.
      void queryClient.invalidateQueries({ queryKey: ['kyc'] satisfies AppQueryKey });
    },
  });
}
