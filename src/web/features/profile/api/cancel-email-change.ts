import type { User } from '@shared/schemas/users.ts';
import { useMutation } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import { setUser } from '@web/lib/session.ts';

/** DELETE /user/email/pending: drops a pending e-mail change; the current e-mail stays. */
export const cancelEmailChange = () =>
  http.delete<{ message: string; data: { user: User } }>('/user/email/pending');

export function useCancelEmailChange() {
  return useMutation({
    mutationFn: cancelEmailChange,
    onSuccess: (result) => setUser(result.data.user),
  });
}
