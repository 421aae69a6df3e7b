import type { User } from '@shared/schemas/users.ts';
import { useMutation } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import { setUser } from '@web/lib/session.ts';

interface EmailChangeResult {
  message: string;
  data: { user: User };
}

/** POST /user/email/confirm: the code sent to the new address switches the account's e-mail. */
export const confirmEmailChange = (code: string) =>
  http.post<EmailChangeResult>('/user/email/confirm', { code });

export function useConfirmEmailChange() {
  return useMutation({
    mutationFn: confirmEmailChange,
    onSuccess: (result) => setUser(result.data.user),
  });
}
