import type { Statement } from '@shared/schemas/responsible-play.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

export const getStatement = () =>
  http.get<{ data: Statement }>('/responsible-play/statement').then((body) => body.data);

export const statementQueryOptions = () =>
  queryOptions({
    queryKey: ['responsible-play', 'statement'] satisfies AppQueryKey,
    queryFn: getStatement,
  });

export function useStatement() {
  return useQuery(statementQueryOptions());
}
