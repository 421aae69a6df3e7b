import { formatDate } from '@shared/date.ts';
import { EmptyState } from '@web/components/ui/EmptyState.tsx';
import { PageHeader } from '@web/components/ui/PageHeader.tsx';
import { useSupportTickets } from '../api/get-support-tickets.ts';
import { DataTable, Row, td, th } from '../components/DataTable.tsx';
import { LoadError, Loading } from '../components/QueryStates.tsx';

/**
 * Messages sent from the support page (issue 20 point 12), newest first. The server answers with
 * the newest 100 and no pages, so neither does this. An operator replies by e-mail quoting the
 * reference the sender was mailed.
 */
export function SupportTicketsPage() {
  const list = useSupportTickets();

  return (
    <div className="flex flex-col gap-5">
      <PageHeader title="Support" eyebrow="Messages from players" />
      {list.isPending ? (
        <Loading label="Loading support messages" />
      ) : list.isError ? (
        <LoadError
          error={list.error}
          what="support messages"
          onRetry={() => void list.refetch()}
          retrying={list.isFetching}
        />
      ) : list.data.length === 0 ? (
        <EmptyState icon="💬" title="No support messages">
          <p>Messages sent from the support page will be listed here.</p>
        </EmptyState>
      ) : (
        <>
          <p className="text-sm text-muted">
            The newest {list.data.length === 100 ? '100 ' : ''}messages first. Reply by e-mail,
            quoting the reference the sender was given.
          </p>
          <DataTable label="Support messages" minWidth="sm:min-w-[48rem]" cards>
            <thead>
              <tr>
                <th scope="col" className={th}>
                  Received
                </th>
                <th scope="col" className={th}>
                  Reference
                </th>
                <th scope="col" className={th}>
                  From
                </th>
                <th scope="col" className={th}>
                  Message
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((ticket) => (
                <Row key={ticket.id}>
                  <td className={`${td} whitespace-nowrap text-muted`}>
                    {formatDate(ticket.createdAt)}
                  </td>
                  <td className={`${td} font-mono text-xs whitespace-nowrap`}>
                    {ticket.reference}
                  </td>
                  <td className={`${td} min-w-0`} data-wide>
                    <span className="block font-medium">{ticket.name}</span>
                    <a
                      href={`mailto:${ticket.email}?subject=${encodeURIComponent(`Re: ${ticket.subject} (${ticket.reference})`)}`}
                      className="text-xs break-all text-accent underline"
                    >
                      {ticket.email}
                    </a>
                  </td>
                  <td className={`${td} sm:max-w-[28rem]`} data-wide>
                    <span className="block font-medium break-words">{ticket.subject}</span>
                    <span className="block text-xs text-muted">{ticket.category}</span>
                    <p className="mt-1 break-words whitespace-pre-wrap text-white/85">
                      {ticket.message}
                    </p>
                  </td>
                </Row>
              ))}
            </tbody>
          </DataTable>
        </>
      )}
    </div>
  );
}
