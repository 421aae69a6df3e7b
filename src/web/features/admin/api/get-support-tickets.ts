import type { Envelope } from '@shared/schemas/common.ts';
import type { SupportTicket } from '@shared/schemas/support.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/** GET /admin/support-tickets: the newest 100 messages from the support page, newest first. */
export const getSupportTickets = () =>
  http.get<Envelope<SupportTicket[]>>('/admin/support-tickets').then((body) => body.data);

export const supportTicketsQueryOptions = queryOptions({
  queryKey: ['admin', 'support-tickets'] satisfies AppQueryKey,
  queryFn: getSupportTickets,
  staleTime: 0,
});

export function useSupportTickets() {
  return useQuery(supportTicketsQueryOptions);
}
