import { lagosDate, lagosDaysAgo } from '@shared/date.ts';
import { formatNaira } from '@shared/money.ts';
import {
  type LedgerInvariant,
  type ReportTotals,
  reportQuerySchema,
} from '@shared/schemas/admin.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Card } from '@web/components/ui/Card.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { PageHeader } from '@web/components/ui/PageHeader.tsx';
import { useSchemaForm } from '@web/lib/schema-form.ts';
import { useState } from 'react';
import { useReport } from '../api/get-report.ts';
import { ColumnTable, type TableSpec } from '../components/DataTable.tsx';
import { HeldForReviewSection } from '../components/HoldReasons.tsx';
import { LineChart } from '../components/LineChart.tsx';
import { LoadError, Loading } from '../components/QueryStates.tsx';
import { Section } from '../components/Section.tsx';
import { Wrappable } from '../components/Wrappable.tsx';
import { compactJson, humanise } from '../lib/format.ts';

interface Figure {
  key: keyof ReportTotals;
  label: string;
  hint: string;
  tone?: string;
}

const FIGURES: Figure[] = [
  {
    key: 'deposits',
    label: 'Deposits',
    hint: 'Live top-ups credited to wallets',
    tone: 'text-accent',
  },
  {
    key: 'sandboxDeposits',
    label: 'Sandbox deposits',
    hint: 'Test money from the sandbox checkout, not real',
  },
  { key: 'entryFees', label: 'Entry fees', hint: 'Net of refunds' },
  { key: 'prizesPaid', label: 'Prizes paid', hint: 'Credited to winners', tone: 'text-wallet' },
  { key: 'refunds', label: 'Refunds', hint: 'Entry fees given back' },
  { key: 'planRevenue', label: 'Plan revenue', hint: 'VIP subscriptions' },
  { key: 'withdrawalFees', label: 'Withdrawal fees', hint: 'Fees on payouts' },
  { key: 'withdrawalsPaid', label: 'Withdrawals paid', hint: 'Sent to bank accounts' },
  { key: 'adjustments', label: 'Adjustments', hint: 'Manual credits minus debits' },
];

/** 2026-03-12 → '12 Mar 2026'. */
function dayLabel(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  if (!year || !month || !date) return day;
  return new Date(Date.UTC(year, month - 1, date)).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

const PRESETS = [
  { label: '7 days', days: 7 },
  { label: '30 days', days: 30 },
  { label: '90 days', days: 90 },
];

type OffendingRow = LedgerInvariant['offending'][number];

/** The rows breaking an invariant, one column per field of the first of them. */
function offendingTable(invariant: LedgerInvariant): TableSpec<OffendingRow> {
  return {
    label: `Rows breaking ${invariant.name}`,
    minWidth: 'sm:min-w-[28rem]',
    // Offending rows have no id of their own.
    rowKey: (_row, index) => index,
    columns: Object.keys(invariant.offending[0] ?? {}).map((column) => ({
      header: humanise(column),
      className: 'font-mono text-xs break-all',
      cell: (row: OffendingRow) =>
        typeof row[column] === 'object' ? compactJson(row[column]) : String(row[column]),
    })),
  };
}

/** The report's range: the server's rule for each date, and the dashboard's rule for the pair. */
const rangeSchema = reportQuerySchema.refine(
  (range) => !range.from || !range.to || range.from <= range.to,
  { message: 'From must be before To', path: ['from'] },
);

function Invariant({ invariant }: { invariant: LedgerInvariant }) {
  return (
    <li className="flex flex-col gap-2 border-t border-line py-3 first:border-t-0">
      <div className="flex items-start gap-3">
        <span
          aria-hidden="true"
          className={`mt-0.5 grid size-6 shrink-0 place-items-center rounded-full text-xs font-bold ${
            invariant.ok ? 'bg-vip/15 text-vip' : 'bg-danger/15 text-danger'
          }`}
        >
          {invariant.ok ? '✓' : '!'}
        </span>
        <div className="min-w-0">
          <p className="font-medium">{invariant.description}</p>
          <p className="text-xs text-muted">
            <span className="font-mono break-words">
              <Wrappable text={invariant.name} after="_" />
            </span>{' '}
            · {invariant.ok ? 'holds' : `${invariant.offending.length} offending row(s)`}
          </p>
        </div>
      </div>
      {invariant.ok ? null : (
        <ColumnTable spec={offendingTable(invariant)} rows={invariant.offending} />
      )}
    </li>
  );
}

/** The last `days` whole Lagos days, today's included: the days the report counts. */
function lastDays(days: number, now = new Date()) {
  return { from: lagosDaysAgo(days - 1, now), to: lagosDate(now) };
}

/** The quick range the report shows, if it shows one (dates typed by hand may match one too). */
function quickRangeShown(range: { from: string; to: string }): number | undefined {
  return PRESETS.find((item) => {
    const days = lastDays(item.days);
    return days.from === range.from && days.to === range.to;
  })?.days;
}

export function DashboardPage() {
  const [range, setRange] = useState(() => lastDays(30));
  const report = useReport(range);
  const form = useSchemaForm({
    schema: rangeSchema,
    initial: range,
    // A cleared date is no range yet: nothing to refuse, and nothing to show.
    toInput: (values) => ({ from: values.from || undefined, to: values.to || undefined }),
    report: 'live',
  });

  function preset(days: number) {
    const next = lastDays(days);
    form.reset(next);
    setRange(next);
  }

  const data = report.data;
  const selectedDays = quickRangeShown(range);
  return (
    <div className="flex flex-col gap-8">
      <PageHeader title="Dashboard" eyebrow="Money in, money out" />

      <Section title="Totals" id="totals-title">
        <Card className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
          <form
            ref={form.formRef}
            onSubmit={form.handleSubmit(({ from, to }) => {
              if (from && to) setRange({ from, to });
            })}
            aria-label="Report range"
            noValidate
            className="grid grid-cols-2 items-end gap-3 sm:flex sm:flex-wrap"
          >
            <Field
              type="date"
              label="From"
              max={form.values.to || undefined}
              {...form.field('from')}
            />
            <Field
              type="date"
              label="To"
              min={form.values.from || undefined}
              {...form.field('to')}
            />
            <Button
              type="submit"
              variant="outline"
              className="col-span-2 sm:col-span-1"
              loading={report.isFetching && !report.isPending}
            >
              Show
            </Button>
          </form>
          <fieldset className="flex gap-2">
            <legend className="sr-only">Quick ranges</legend>
            {PRESETS.map((item) => (
              <Button
                key={item.days}
                variant="outline"
                aria-pressed={item.days === selectedDays}
                className="px-3 aria-pressed:border-accent aria-pressed:bg-accent/10 aria-pressed:text-accent"
                onClick={() => preset(item.days)}
              >
                {item.label}
              </Button>
            ))}
          </fieldset>
        </Card>

        {report.isPending ? (
          <Loading label="Loading the report" />
        ) : report.isError || !data ? (
          <LoadError
            error={report.error}
            what="the report"
            onRetry={() => void report.refetch()}
            retrying={report.isFetching}
          />
        ) : (
          <>
            <p className="text-sm text-muted" aria-live="polite">
              {dayLabel(range.from)} to {dayLabel(range.to)}, whole days in Lagos time
            </p>
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-4">
              <div className="col-span-2 flex flex-col justify-between rounded-2xl border border-vip/40 bg-vip/5 p-4 sm:col-span-3 xl:col-span-4">
                <dt className="text-sm font-semibold text-vip">House margin</dt>
                <dd
                  className={`mt-1 text-3xl font-bold tabular-nums ${
                    data.totals.houseMargin < 0 ? 'text-danger' : 'text-white'
                  }`}
                >
                  {formatNaira(data.totals.houseMargin)}
                </dd>
                <dd className="mt-1 text-xs text-muted">
                  Entry fees + plan revenue + withdrawal fees − prizes − adjustments
                </dd>
              </div>
              {FIGURES.map((figure) => (
                <div key={figure.key} className="rounded-2xl border border-line bg-card p-4">
                  <dt className="text-sm text-muted">{figure.label}</dt>
                  <dd
                    className={`mt-1 text-xl font-bold tabular-nums sm:text-2xl ${figure.tone ?? ''}`}
                  >
                    {formatNaira(data.totals[figure.key])}
                  </dd>
                  <dd className="mt-0.5 text-xs text-muted">{figure.hint}</dd>
                </div>
              ))}
            </dl>
          </>
        )}
      </Section>

      {data ? (
        <>
          <HeldForReviewSection holds={data.holds} />

          <Section title="Last 30 days" id="chart-title">
            <Card>
              <LineChart
                title="Deposits, prizes and house margin per day, last 30 days"
                days={data.daily.map((point) => point.day)}
                series={[
                  {
                    key: 'deposits',
                    label: 'Deposits',
                    color: '#00DAE4',
                    values: data.daily.map((point) => point.deposits),
                  },
                  {
                    key: 'prizes',
                    label: 'Prizes',
                    color: '#FFD95A',
                    values: data.daily.map((point) => point.prizes),
                  },
                  {
                    key: 'margin',
                    label: 'Margin',
                    color: '#00FF85',
                    values: data.daily.map((point) => point.margin),
                  },
                ]}
              />
            </Card>
          </Section>

          <Section
            title="Ledger check"
            id="ledger-title"
            actions={
              <span
                className={`rounded-full px-3 py-1 text-sm font-bold ${
                  data.ledger.ok ? 'bg-vip/15 text-vip' : 'bg-danger/15 text-danger'
                }`}
              >
                {data.ledger.ok ? 'The books balance' : 'Ledger invariants are broken'}
              </span>
            }
          >
            <Card>
              <ul>
                {data.ledger.invariants.map((invariant) => (
                  <Invariant key={invariant.name} invariant={invariant} />
                ))}
              </ul>
            </Card>
          </Section>
        </>
      ) : null}
    </div>
  );
}
