import type { User } from '@shared/schemas/users.ts';
import { useMutation } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';

export const subscribe = (planId: string) =>
  http.post<{ message: string; data: User }>(`/plan/subscribe/${encodeURIComponent(planId)}`);

export function useSubscribe() {
  return useMutation({ mutationFn: subscribe });
}
