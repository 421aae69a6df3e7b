import { useMutation } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import { endSessionLocally } from '@web/lib/session.ts';

/** POST /auth/logout-all: every token of the account stops working, this one included. */
export const logoutAll = () => http.post<{ message: string }>('/auth/logout-all');

export function useLogoutAll() {
  return useMutation({ mutationFn: logoutAll, onSuccess: endSessionLocally });
}
