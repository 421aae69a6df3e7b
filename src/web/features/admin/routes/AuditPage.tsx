import type { AuditEntry } from '@shared/schemas/admin.ts';
import { DateTime } from '@web/components/ui/DateTime.tsx';
import { EmptyState } from '@web/components/ui/EmptyState.tsx';
import { PageHeader } from '@web/components/ui/PageHeader.tsx';
import { Pagination } from '@web/components/ui/Pagination.tsx';
import { Link } from 'wouter';
import { useAudit } from '../api/get-audit.ts';
import { ColumnTable, type TableSpec } from '../components/DataTable.tsx';
import { LoadError, Loading } from '../components/QueryStates.tsx';
import { compactJson, shortId } from '../lib/format.ts';
import { useUrlState } from '../lib/url-state.ts';

/** Where a target lives in the console, when it has a page. */
function targetHref(entry: AuditEntry): string | null {
  if (entry.targetType === 'game') return `/games/${entry.targetId}`;
  if (entry.targetType === 'user') return `/users/${entry.targetId}`;
  if (entry.targetType === 'plan') return '/plans';
  if (entry.targetType === 'category') return '/categories';
  if (entry.targetType === 'settings') return '/settings';
  if (entry.targetType === 'withdrawal') return '/withdrawals';
  return null;
}

/** A before/after snapshot on one line; long ones fold open. */
function Snapshot({ value }: { value: unknown }) {
  const text = compactJson(value);
  if (text.length <= 80) {
    return <code className="font-mono text-xs break-all text-white/80">{text}</code>;
  }
  return (
    <details className="group">
      <summary className="cursor-pointer font-mono text-xs break-all text-white/80 marker:text-accent">
        <span className="group-open:hidden">{text.slice(0, 72)}…</span>
        <span className="hidden text-muted group-open:inline">Hide</span>
      </summary>
      <code className="mt-1 block rounded-lg bg-page p-2 font-mono text-xs break-all text-white/85">
        {text}
      </code>
    </details>
  );
}

/** The action and its target, linked to the target's page where it has one. */
function ActionCell({ entry }: { entry: AuditEntry }) {
  const href = targetHref(entry);
  const label = `${entry.targetType} ${shortId(entry.targetId)}`;
  return (
    <>
      <span className="rounded-md bg-accent/10 px-2 py-0.5 font-mono text-xs whitespace-nowrap text-accent">
        {entry.action}
      </span>
      <span className="mt-1.5 block text-xs whitespace-nowrap">
        {href ? (
          <Link href={href} className="text-accent hover:underline" title={entry.targetId}>
            {label}
          </Link>
        ) : (
          <span title={entry.targetId}>{label}</span>
        )}
      </span>
    </>
  );
}

const AUDIT_TABLE: TableSpec<AuditEntry> = {
  label: 'Audit log',
  minWidth: 'sm:min-w-[44rem]',
  rowKey: (entry) => entry.id,
  columns: [
    {
      header: 'When',
      className: 'w-40 min-w-36',
      cell: (entry) => (
        <>
          <DateTime value={entry.createdAt} className="block" />
          <span className="block text-xs break-all text-muted">
            {entry.admin ?? 'Pluckers (automatic)'}
          </span>
        </>
      ),
    },
    { header: 'Action', className: 'w-44 min-w-40', cell: (entry) => <ActionCell entry={entry} /> },
    {
      header: 'Before',
      className: 'min-w-48',
      wide: true,
      cell: (entry) => <Snapshot value={entry.before} />,
    },
    {
      header: 'After',
      className: 'min-w-48',
      wide: true,
      cell: (entry) => <Snapshot value={entry.after} />,
    },
  ],
};

export function AuditPage() {
  const { page, update } = useUrlState();
  const audit = useAudit(page);
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title="Audit log" eyebrow="Every operator action" />
      {audit.isPending ? (
        <Loading label="Loading the audit log" />
      ) : audit.isError ? (
        <LoadError
          error={audit.error}
          what="the audit log"
          onRetry={() => void audit.refetch()}
          retrying={audit.isFetching}
        />
      ) : audit.data.entries.length === 0 ? (
        <EmptyState icon="📜" title="Nothing logged yet">
          <p>Every change an operator makes is recorded here, with before and after.</p>
        </EmptyState>
      ) : (
        <>
          <ColumnTable spec={AUDIT_TABLE} rows={audit.data.entries} />
          <Pagination
            label="Audit log pages"
            page={audit.data.pagination.page}
            totalPages={audit.data.pagination.totalPages}
            busy={audit.isPlaceholderData}
            onChange={(next) => update({ page: next })}
          />
        </>
      )}
    </div>
  );
}
