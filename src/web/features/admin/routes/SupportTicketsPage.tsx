import type { SupportTicket } from '@shared/schemas/support.ts';
import { DateTime } from '@web/components/ui/DateTime.tsx';
import { EmptyState } from '@web/components/ui/EmptyState.tsx';
import { PageHeader } from '@web/components/ui/PageHeader.tsx';
import { useSupportTickets } from '../api/get-support-tickets.ts';
import { ColumnTable, type TableSpec } from '../components/DataTable.tsx';
import { LoadError, Loading } from '../components/QueryStates.tsx';

const TICKETS_TABLE: TableSpec<SupportTicket> = {
  label: 'Support messages',
  minWidth: 'sm:min-w-[48rem]',
  rowKey: (ticket) => ticket.id,
  columns: [
    {
      header: 'Received',
      className: 'whitespace-nowrap text-muted',
      cell: (ticket) => <DateTime value={ticket.createdAt} />,
    },
    {
      header: 'Reference',
      className: 'font-mono text-xs whitespace-nowrap',
      cell: (ticket) => ticket.reference,
    },
    {
      header: 'From',
      className: 'min-w-0',
      wide: true,
      cell: (ticket) => (
        <>
          <span className="block font-medium">{ticket.name}</span>
          <a
            href={`mailto:${ticket.email}?subject=${encodeURIComponent(`Re: ${ticket.subject} (${ticket.reference})`)}`}
            className="text-xs break-all text-accent underline"
          >
            {ticket.email}
          </a>
        </>
      ),
    },
    {
      header: 'Message',
      className: 'sm:max-w-[28rem]',
      wide: true,
      cell: (ticket) => (
        <>
          <span className="block font-medium break-words">{ticket.subject}</span>
          <span className="block text-xs text-muted">{ticket.category}</span>
          <p className="mt-1 break-words whitespace-pre-wrap text-white/85">{ticket.message}</p>
        </>
      ),
    },
  ],
};

/**
 * Messages sent from the support page, newest first. The server answers with
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
          <ColumnTable spec={TICKETS_TABLE} rows={list.data} />
        </>
      )}
    </div>
  );
}
