import type { planBodySchema } from '@shared/schemas/admin.ts';
import type { Envelope } from '@shared/schemas/common.ts';
import type { Plan } from '@shared/schemas/plans.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';
import type { z } from 'zod';

export type PlanBody = z.output<typeof planBodySchema>;

/** POST /admin/plans or PUT /admin/plans/:id. */
export const savePlan = ({ id, body }: { id?: string; body: PlanBody }) =>
  id
    ? http.put<Envelope<Plan>>(`/admin/plans/${encodeURIComponent(id)}`, body)
    : http.post<Envelope<Plan>>('/admin/plans', body);

export function useSavePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: savePlan,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['admin', 'plans'] satisfies AppQueryKey });
      // The players' pricing page caches the plan list.
      void queryClient.invalidateQueries({ queryKey: ['plans'] satisfies AppQueryKey });
    },
  });
}
