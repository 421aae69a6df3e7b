import type { Category } from '@shared/schemas/catalogue.ts';
import type { Envelope } from '@shared/schemas/common.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/** GET /category: game categories with their emoji, by title. */
export const getCategories = () =>
  http.get<Envelope<Category[]>>('/category').then((body) => body.data);

export const categoriesQueryOptions = queryOptions({
  queryKey: ['admin', 'categories'] satisfies AppQueryKey,
  queryFn: getCategories,
});

export function useCategories() {
  return useQuery(categoriesQueryOptions);
}
