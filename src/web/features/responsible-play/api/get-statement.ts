import type { Statement } from '@shared/schemas/responsible-play.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import { responsiblePlayKeys } from './keys.ts';

export const getStatement = () =>
  http.get<{ data: Statement }>('/responsible-play/statement').then((body) => body.data);

export const statementQueryOptions = () =>
  queryOptions({ queryKey: responsiblePlayKeys.statement(), queryFn: getStatement });

export function useStatement() {
  return useQuery(statementQueryOptions());
}
