import type { Category } from '@shared/schemas/catalogue.ts';
import type { Envelope } from '@shared/schemas/common.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/** POST /admin/categories or PUT /admin/categories/:id {title, emoji}. */
export const saveCategory = ({
  id,
  body,
}: {
  id?: string;
  body: { title: string; emoji: string };
}) =>
  id
    ? http.put<Envelope<Category>>(`/admin/categories/${encodeURIComponent(id)}`, body)
    : http.post<Envelope<Category>>('/admin/categories', body);

export function useSaveCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCategory,
    onSuccess: () => {
      void queryClient.invalidateQueries({
        queryKey: ['admin', 'categories'] satisfies AppQueryKey,
      });
    },
  });
}
