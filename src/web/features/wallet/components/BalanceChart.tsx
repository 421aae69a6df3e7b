import { formatDate } from '@shared/date.ts';
import { formatNaira } from '@shared/money.ts';
import { useQuery } from '@tanstack/react-query';
import { Loading } from '@web/components/ui/LoadingState.tsx';
import { useSession } from '@web/lib/session.ts';
import { type ReactNode, useMemo } from 'react';
import { paymentsQueryOptions } from '../api/get-payments.ts';
import { withdrawalsQueryOptions } from '../api/get-withdrawals.ts';
import { type BalancePoint, balanceHistory } from '../lib/balance-history.ts';

const WIDTH = 400;
const HEIGHT = 140;
const PAD = { top: 12, right: 10, bottom: 10, left: 10 };

const DOT_COLOURS: Record<BalancePoint['kind'], string> = {
  topup: 'var(--color-vip)',
  withdrawal: 'var(--color-danger)',
  start: 'var(--color-muted)',
  now: 'var(--color-wallet)',
};

const POINT_LABELS: Record<BalancePoint['kind'], string> = {
  topup: 'Balance after a top-up',
  withdrawal: 'Balance after a withdrawal',
  start: 'Balance before',
  now: 'Balance now',
};

/**
 * Movements are spaced evenly rather than by date: a player's activity comes in bursts (three
 * top-ups in a minute, then nothing for weeks), and a time axis would squash each burst into a
 * single vertical line.
 */
function geometry(points: BalancePoint[]) {
  const first = points[0] as BalancePoint;
  const steps = Math.max(1, points.length - 1);
  const top = Math.max(1, ...points.map((point) => point.balance)) * 1.1;
  const x = (index: number) => PAD.left + (index / steps) * (WIDTH - PAD.left - PAD.right);
  const y = (balance: number) => PAD.top + (1 - balance / top) * (HEIGHT - PAD.top - PAD.bottom);
  // A step line: the balance holds until the next movement, then jumps.
  let line = `M${x(0).toFixed(1)},${y(first.balance).toFixed(1)}`;
  points.forEach((point, index) => {
    if (index > 0) line += `H${x(index).toFixed(1)}V${y(point.balance).toFixed(1)}`;
  });
  const bottom = (HEIGHT - PAD.bottom).toFixed(1);
  const area = `${line}V${bottom}H${x(0).toFixed(1)}Z`;
  return { line, area, x, y, top };
}

/**
 * Balance over time, drawn by hand in SVG from the two histories (no chart library). Loaded
 * lazily after the rest of the wallet page, so it never delays the first paint.
 */
export function BalanceChart() {
  const balance = useSession((session) => session.user?.accountBalance ?? 0);
  const payments = useQuery(paymentsQueryOptions(1));
  const withdrawals = useQuery(withdrawalsQueryOptions(1));
  const loading = payments.isPending || withdrawals.isPending;
  const failed = payments.isError || withdrawals.isError;

  const points = useMemo(
    () =>
      balanceHistory(balance, payments.data?.payments ?? [], withdrawals.data?.withdrawals ?? []),
    [balance, payments.data, withdrawals.data],
  );

  let body: ReactNode;
  if (loading) {
    body = (
      <div className="grid aspect-[400/140] place-items-center">
        <Loading label="Loading balance chart" />
      </div>
    );
  } else if (failed && points.length === 0) {
    body = (
      <p className="grid aspect-[400/140] place-items-center text-sm text-muted">
        The chart is not available right now.
      </p>
    );
  } else if (points.length === 0) {
    body = (
      <p className="grid aspect-[400/140] place-items-center px-6 text-center text-sm text-muted">
        Your balance chart starts with your first top-up.
      </p>
    );
  } else {
    const first = points[0] as BalancePoint;
    const { line, area, x, y, top } = geometry(points);
    const summary = `Balance went from ${formatNaira(first.balance)} on ${formatDate(first.at)} to ${formatNaira(balance)} now.`;
    body = (
      <>
        <div className="relative">
          <svg
            viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
            className="block h-auto w-full"
            role="img"
            aria-label={summary}
          >
            <defs>
              <linearGradient id="balance-fill" x1="0" x2="0" y1="0" y2="1">
                <stop offset="0%" stopColor="var(--color-wallet)" stopOpacity="0.35" />
                <stop offset="100%" stopColor="var(--color-wallet)" stopOpacity="0" />
              </linearGradient>
            </defs>
            {[0.25, 0.5, 0.75].map((fraction) => (
              <line
                key={fraction}
                x1={PAD.left}
                x2={WIDTH - PAD.right}
                y1={y(top * fraction)}
                y2={y(top * fraction)}
                stroke="var(--color-line)"
                strokeDasharray="3 4"
              />
            ))}
            <path d={area} fill="url(#balance-fill)" />
            <path
              d={line}
              fill="none"
              stroke="var(--color-wallet)"
              strokeWidth="2.5"
              strokeLinejoin="round"
            />
            {points.map((point, index) => (
              <circle
                // biome-ignore lint/suspicious/noArrayIndexKey: points are positional and never reorder.
                key={index}
                cx={x(index)}
                cy={y(point.balance)}
                r={point.kind === 'now' ? 4.5 : 3.5}
                fill={DOT_COLOURS[point.kind]}
                stroke="var(--color-card)"
                strokeWidth="1.5"
              >
                <title>{`${POINT_LABELS[point.kind]}: ${formatNaira(point.balance)}`}</title>
              </circle>
            ))}
          </svg>
          <span className="pointer-events-none absolute top-0 left-1 text-[11px] text-muted">
            {formatNaira(top / 1.1)}
          </span>
        </div>
        <div className="mt-2 flex justify-between gap-3 text-[11px] text-muted">
          <span>{formatDate(first.at)}</span>
          <span>Now</span>
        </div>
        <p className="mt-3 text-xs text-muted">
          Each top-up is drawn at the amount credited to your wallet (no fee is taken). Games and
          prizes are not listed here: they make up the last step, to your balance now.
        </p>
        <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-white/80">
          <li className="flex items-center gap-1.5">
            <span aria-hidden="true" className="size-2.5 rounded-full bg-vip" /> Top-up
          </li>
          <li className="flex items-center gap-1.5">
            <span aria-hidden="true" className="size-2.5 rounded-full bg-danger" /> Withdrawal
          </li>
          <li className="flex items-center gap-1.5">
            <span aria-hidden="true" className="size-2.5 rounded-full bg-wallet" /> Now
          </li>
        </ul>
      </>
    );
  }

  return (
    <figure
      className="m-0 rounded-2xl border border-line bg-card p-5"
      aria-labelledby="chart-title"
    >
      <h2 id="chart-title" className="text-lg font-bold">
        Balance over time
      </h2>
      <figcaption className="mt-1 mb-4 text-xs text-muted">
        From your latest top-ups and withdrawals; game entries and prizes also move your balance.
      </figcaption>
      {body}
    </figure>
  );
}
