import { useMutation } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';

export const deleteUser = (password: string) =>
  http.delete<{ message: string }>('/user', { password });

export function useDeleteUser() {
  return useMutation({ mutationFn: deleteUser });
}
