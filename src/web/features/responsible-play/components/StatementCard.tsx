import { formatNaira } from '@shared/money.ts';
import type { StatementMonth } from '@shared/schemas/responsible-play.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Card } from '@web/components/ui/Card.tsx';
import { Spinner } from '@web/components/ui/Spinner.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { toast } from '@web/lib/toast.tsx';
import { type UIEvent, useCallback, useId, useRef, useState } from 'react';
import { useDownloadStatement } from '../api/download-statement.ts';
import { useStatement } from '../api/get-statement.ts';

const monthFormatter = new Intl.DateTimeFormat('en-GB', {
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});
const monthName = (month: string) => monthFormatter.format(new Date(`${month}-01T00:00:00Z`));

const th = 'px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-muted';
const thNumber = `${th} text-right`;
const td = 'px-3 py-2 whitespace-nowrap';
const tdNumber = `${td} text-right tabular-nums`;
/** The month's figures, left to right; the net, last, stands out. */
const FIGURES: Array<{ key: Exclude<keyof StatementMonth, 'month'>; label: string }> = [
  { key: 'deposits', label: 'Deposits' },
  { key: 'entryFees', label: 'Entry fees' },
  { key: 'winnings', label: 'Winnings' },
  { key: 'withdrawals', label: 'Withdrawals' },
  { key: 'other', label: 'Other' },
  { key: 'net', label: 'Net' },
];
// While the figures scroll, the month they belong to stays in view.
const stickyMonth = 'sticky left-0 z-10 bg-card';

/**
 * Whether the table is wider than its box, and whether columns are still hidden to the right:
 * on a phone the edge fade and the hint show there is more, until the last column is in view.
 */
function useSidewaysScroll() {
  const [state, setState] = useState({ overflowing: false, moreToTheRight: false });
  const observer = useRef<ResizeObserver | null>(null);
  const measure = useCallback((element: HTMLElement) => {
    const hidden = element.scrollWidth - element.clientWidth;
    // A pixel of rounding at the end is not a column left to see.
    const next = { overflowing: hidden > 1, moreToTheRight: hidden - element.scrollLeft > 1 };
    setState((previous) =>
      previous.overflowing === next.overflowing && previous.moreToTheRight === next.moreToTheRight
        ? previous
        : next,
    );
  }, []);
  // A callback ref: the table appears only once the statement has loaded, and is measured then.
  const ref = useCallback(
    (element: HTMLElement | null) => {
      observer.current?.disconnect();
      observer.current = null;
      if (!element) return;
      measure(element);
      if (typeof ResizeObserver === 'undefined') return;
      observer.current = new ResizeObserver(() => measure(element));
      observer.current.observe(element);
    },
    [measure],
  );
  const onScroll = (event: UIEvent<HTMLElement>) => measure(event.currentTarget);
  return { ...state, ref, onScroll };
}

/** Money in and out per month, from the wallet's ledger; downloadable as CSV. */
export function StatementCard() {
  const headingId = useId();
  const statement = useStatement();
  const download = useDownloadStatement();
  const hintId = useId();
  const sideways = useSidewaysScroll();

  function onDownload() {
    download.mutate(undefined, {
      onError: (failure) =>
        toast.error(errorMessage(failure, 'The statement could not be downloaded')),
    });
  }

  return (
    <Card role="region" aria-labelledby={headingId}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} className="text-lg font-bold">
          Activity statement
        </h2>
        <Button variant="outline" onClick={onDownload} loading={download.isPending}>
          Download CSV
        </Button>
      </div>
      <p className="mt-1 text-sm text-muted">
        Per calendar month (Lagos time), the last 24 months. Withdrawals include their fee.
      </p>
      {statement.isPending ? (
        <div className="grid place-items-center py-8">
          <Spinner label="Loading your statement" />
        </div>
      ) : statement.isError ? (
        <div role="alert" className="mt-4 flex flex-wrap items-center gap-3 text-sm text-danger">
          {errorMessage(statement.error, 'Your statement could not be loaded.')}
          <Button variant="outline" onClick={() => statement.refetch()}>
            Try again
          </Button>
        </div>
      ) : statement.data.months.length === 0 ? (
        <p className="mt-4 rounded-xl border border-line p-4 text-center text-sm text-muted">
          Nothing yet: your deposits, entry fees, winnings and withdrawals will show here.
        </p>
      ) : (
        // Scrolls sideways on a phone rather than squeezing seven columns; the month stays put.
        <>
          {sideways.overflowing ? (
            <p id={hintId} className="mt-4 text-xs text-muted">
              Swipe the table sideways, or focus it and use the arrow keys, to see every column.
            </p>
          ) : null}
          <div className="relative mt-2">
            <section
              ref={sideways.ref}
              aria-label="Statement by month"
              aria-describedby={sideways.overflowing ? hintId : undefined}
              onScroll={sideways.onScroll}
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
              tabIndex={0}
              className="overflow-x-auto rounded-lg focus-visible:outline-accent"
            >
              <table className="w-full min-w-[36rem] text-sm">
                <caption className="sr-only">Money in and out per month, in naira</caption>
                <thead>
                  <tr className="border-b border-line">
                    <th scope="col" className={`${th} ${stickyMonth}`}>
                      Month
                    </th>
                    {FIGURES.map(({ key, label }) => (
                      <th key={key} scope="col" className={thNumber}>
                        {label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className="divide-y divide-line">
                  {statement.data.months.map((month) => (
                    <tr key={month.month}>
                      <th scope="row" className={`${td} ${stickyMonth} text-left font-medium`}>
                        {monthName(month.month)}
                      </th>
                      {FIGURES.map(({ key }) => (
                        <td
                          key={key}
                          className={key === 'net' ? `${tdNumber} font-semibold` : tdNumber}
                        >
                          {formatNaira(month[key])}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
            {sideways.moreToTheRight ? (
              <div
                aria-hidden="true"
                className="pointer-events-none absolute inset-y-0 right-0 w-12 bg-gradient-to-l from-card to-transparent"
              />
            ) : null}
          </div>
        </>
      )}
    </Card>
  );
}
