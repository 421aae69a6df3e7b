import { AML_MESSAGES, type HoldReason, holdReasonLabel } from '@shared/aml.ts';
import { formatNaira } from '@shared/money.ts';
import type { Report } from '@shared/schemas/admin.ts';
import { Card } from '@web/components/ui/Card.tsx';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { type Column, ColumnTable, type TableSpec } from './DataTable.tsx';
import { Section } from './Section.tsx';

/**
 * Anti-money-laundering holds as the console shows them: a marker with a few words per reason
 * in the queue, the full reasons where the operator decides. Players never see either.
 */
export function HeldMarker({
  reasons,
  detailed = false,
}: {
  reasons: HoldReason[];
  /** The full reasons rather than a few words each (a player's own page has the room). */
  detailed?: boolean;
}) {
  if (reasons.length === 0) return null;
  return (
    <div className="mt-1.5 flex flex-col items-start gap-1">
      <span className="inline-flex items-center gap-1 whitespace-nowrap rounded-full border border-danger/60 bg-danger/15 px-2 py-0.5 text-xs font-semibold text-danger">
        <span aria-hidden="true">⚑</span>
        {AML_MESSAGES.held}
      </span>
      {detailed ? (
        <ul className="flex max-w-80 list-disc flex-col gap-0.5 pl-4 text-xs text-white/80">
          {reasons.map((reason) => (
            <li key={reason.code}>{reason.text}</li>
          ))}
        </ul>
      ) : (
        <span className="text-xs text-white/80">
          {reasons.map((reason) => holdReasonLabel(reason.code)).join(' · ')}
        </span>
      )}
    </div>
  );
}

/** The full reasons, for the approve and reject dialogs. */
export function HoldReasonList({ reasons }: { reasons: HoldReason[] }) {
  if (reasons.length === 0) return null;
  return (
    <section
      aria-label={AML_MESSAGES.held}
      className="rounded-xl border border-danger/50 bg-danger/10 p-3 text-sm"
    >
      <p className="font-semibold text-danger">{AML_MESSAGES.held}</p>
      <ul className="mt-1 flex list-disc flex-col gap-1 pl-5 text-white/85">
        {reasons.map((reason) => (
          <li key={reason.code}>{reason.text}</li>
        ))}
      </ul>
    </section>
  );
}

type Hold = Report['holds'][number];

/** A number column; on a phone, where the header row is hidden, each cell carries its own caption. */
function figureColumn(header: string, figure: (hold: Hold) => ReactNode): Column<Hold> {
  return {
    header,
    numeric: true,
    className: 'max-sm:block max-sm:p-0 max-sm:text-left',
    cell: (hold) => (
      <>
        <span aria-hidden="true" className="block text-xs text-muted sm:hidden">
          {header}
        </span>
        {figure(hold)}
      </>
    ),
  };
}

const HOLDS_TABLE: TableSpec<Hold> = {
  label: 'Withdrawals held for review, per reason',
  minWidth: 'sm:min-w-[34rem]',
  rowKey: (hold) => hold.code,
  phone: { row: 'max-sm:grid max-sm:grid-cols-3 max-sm:gap-2 max-sm:p-4' },
  columns: [
    {
      header: 'Reason',
      className: 'max-sm:col-span-3 max-sm:block max-sm:p-0',
      cell: (hold) => (
        <>
          <span className="block font-medium">{holdReasonLabel(hold.code)}</span>
          <span className="block max-w-md text-xs text-muted">{hold.text}</span>
        </>
      ),
    },
    figureColumn('Withdrawals', (hold) => hold.withdrawals),
    figureColumn('Amount', (hold) => formatNaira(hold.amount)),
    figureColumn('Still pending', (hold) => hold.pending),
  ],
};

/** The dashboard's count of held withdrawals in its range, per reason. */
export function HeldForReviewSection({ holds }: { holds: Report['holds'] }) {
  return (
    <Section
      title={AML_MESSAGES.held}
      id="holds-title"
      actions={
        <Link
          href="/withdrawals?status=PENDING&held=1"
          className="text-sm font-semibold text-accent hover:underline"
        >
          Review held withdrawals
        </Link>
      }
    >
      {holds.length === 0 ? (
        <Card>
          <p className="text-sm text-muted">No withdrawal in this period was held for review.</p>
        </Card>
      ) : (
        <ColumnTable spec={HOLDS_TABLE} rows={holds} />
      )}
    </Section>
  );
}
