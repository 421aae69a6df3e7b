import { formatDate } from '@shared/date.ts';
import { ERROR_MESSAGES } from '@shared/messages.ts';
import { formatNaira } from '@shared/money.ts';
import { BALANCE_HISTORY_POSTINGS, type BalancePoint } from '@shared/schemas/wallet.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { DateTime } from '@web/components/ui/DateTime.tsx';
import { Loading } from '@web/components/ui/LoadingState.tsx';
import { useSession } from '@web/lib/session.ts';
import type { ReactNode } from 'react';
import { useBalanceHistory } from '../api/get-balance-history.ts';
import { type ChartPoint, chartPoints } from '../lib/balance-history.ts';

const WIDTH = 400;
const HEIGHT = 140;
const PAD = { top: 12, right: 10, bottom: 10, left: 10 };

/**
 * Each movement's dot and legend swatch, from the app's palette: money in from outside green,
 * games cyan (a refund a paler cyan), prizes gold, money out red, the rest neutral.
 */
const MOVEMENT_LOOK: Record<ChartPoint['movement'], { label: string; colour: string }> = {
  top_up: { label: 'Top-up', colour: 'var(--color-vip)' },
  entry: { label: 'Game entry', colour: 'var(--color-accent)' },
  prize: { label: 'Prize', colour: 'var(--color-wallet)' },
  refund: { label: 'Refund', colour: 'color-mix(in srgb, var(--color-accent) 40%, white)' },
  withdrawal: { label: 'Withdrawal', colour: 'var(--color-danger)' },
  plan: {
    label: 'Plan',
    colour: 'color-mix(in srgb, var(--color-danger) 50%, var(--color-wallet))',
  },
  adjustment: { label: 'Adjustment', colour: '#ffffff' },
  start: { label: 'Balance before', colour: 'var(--color-muted)' },
};

const signed = (change: number) => `${change > 0 ? '+' : ''}${formatNaira(change)}`;

/**
 * Movements are spaced evenly rather than by date: a player's activity comes in bursts (three
 * top-ups in a minute, then nothing for weeks), and a time axis would squash each burst into a
 * single vertical line.
 */
function geometry(points: ChartPoint[]) {
  const first = points[0] as ChartPoint;
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

/** The chart's figures as a table, newest first as the wallet's histories are: its text alternative. */
function MovementTable({ points }: { points: BalancePoint[] }) {
  return (
    <details className="mt-3 text-sm">
      <summary className="cursor-pointer text-muted hover:text-white">Show every movement</summary>
      <div className="relative mt-2 max-h-72 overflow-auto rounded-xl border border-line">
        <table className="w-full text-xs">
          <caption className="sr-only">Wallet movements, newest first</caption>
          <thead className="sticky top-0 bg-card-raised">
            <tr>
              <th scope="col" className="px-3 py-2 text-left">
                Movement
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Change
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Balance
              </th>
            </tr>
          </thead>
          <tbody>
            {points
              .map((point, index) => ({ point, index }))
              .reverse()
              .map(({ point, index }) => (
                <tr key={index} className="border-t border-line">
                  <th scope="row" className="px-3 py-1.5 text-left font-normal">
                    <span className="block">{MOVEMENT_LOOK[point.movement].label}</span>
                    <DateTime value={point.at} className="block text-[11px] text-muted" />
                  </th>
                  <td className="px-3 py-1.5 text-right whitespace-nowrap tabular-nums">
                    {signed(point.change)}
                  </td>
                  <td className="px-3 py-1.5 text-right whitespace-nowrap tabular-nums">
                    {formatNaira(point.balance)}
                  </td>
                </tr>
              ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

function Legend({ points }: { points: ChartPoint[] }) {
  const shown = new Set(points.map((point) => point.movement));
  const movements = (Object.keys(MOVEMENT_LOOK) as ChartPoint['movement'][]).filter(
    (movement) => movement !== 'start' && shown.has(movement),
  );
  return (
    <ul aria-label="Legend" className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-white/80">
      {movements.map((movement) => (
        <li key={movement} className="flex items-center gap-1.5">
          <span
            aria-hidden="true"
            className="size-2.5 rounded-full"
            style={{ backgroundColor: MOVEMENT_LOOK[movement].colour }}
          />
          {MOVEMENT_LOOK[movement].label}
        </li>
      ))}
    </ul>
  );
}

function Chart({ points, hasEarlier }: { points: BalancePoint[]; hasEarlier: boolean }) {
  const line = chartPoints({ points, hasEarlier });
  const first = line[0] as ChartPoint;
  const last = line.at(-1) as ChartPoint;
  const drawn = geometry(line);
  const movements = points.length === 1 ? '1 movement' : `${points.length} movements`;
  const summary = `Balance went from ${formatNaira(first.balance)} on ${formatDate(first.at)} to ${formatNaira(last.balance)} now, over ${movements}.`;
  return (
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
              y1={drawn.y(drawn.top * fraction)}
              y2={drawn.y(drawn.top * fraction)}
              stroke="var(--color-line)"
              strokeDasharray="3 4"
            />
          ))}
          <path d={drawn.area} fill="url(#balance-fill)" />
          <path
            d={drawn.line}
            fill="none"
            stroke="var(--color-wallet)"
            strokeWidth="2.5"
            strokeLinejoin="round"
          />
          {line.map((point, index) => (
            <circle
              // biome-ignore lint/suspicious/noArrayIndexKey: points are positional and never reorder.
              key={index}
              cx={drawn.x(index)}
              cy={drawn.y(point.balance)}
              r={index === line.length - 1 ? 4.5 : 3.5}
              fill={MOVEMENT_LOOK[point.movement].colour}
              stroke="var(--color-card)"
              strokeWidth="1.5"
            >
              <title>
                {point.movement === 'start'
                  ? `Balance before: ${formatNaira(point.balance)}`
                  : `${MOVEMENT_LOOK[point.movement].label} ${signed(point.change)}, balance ${formatNaira(point.balance)}, ${formatDate(point.at)}`}
              </title>
            </circle>
          ))}
        </svg>
        <span className="pointer-events-none absolute top-0 left-1 text-[11px] text-muted">
          {formatNaira(drawn.top / 1.1)}
        </span>
      </div>
      <div className="mt-2 flex justify-between gap-3 text-[11px] text-muted">
        <DateTime value={first.at} />
        <DateTime value={last.at} className="text-right" />
      </div>
      <Legend points={line} />
      <p className="mt-3 text-xs text-muted">
        {hasEarlier
          ? `Your latest ${BALANCE_HISTORY_POSTINGS} movements, starting from the balance the earlier ones left. `
          : 'Every movement since your wallet opened. '}
        Each step is one movement as your wallet recorded it: a withdrawal with its fee, a game
        entry, a prize, a refund or a change by our support team. The line ends at your balance now.
      </p>
      <MovementTable points={points} />
    </>
  );
}

/**
 * Balance over time, drawn by hand in SVG from the wallet's ledger (no chart library). Loaded
 * lazily after the rest of the wallet page, so it never delays the first paint.
 */
export function BalanceChart() {
  const balance = useSession((session) => session.user?.accountBalance ?? 0);
  const history = useBalanceHistory(balance);
  const refreshing = history.isFetching && history.isPlaceholderData;

  let body: ReactNode;
  if (history.isPending) {
    body = (
      <div className="grid aspect-[400/140] place-items-center">
        <Loading label="Loading balance chart" />
      </div>
    );
  } else if (!history.data) {
    body = (
      <div className="flex aspect-[400/140] flex-col items-center justify-center gap-3 text-center">
        <p className="font-semibold">{ERROR_MESSAGES.genericOops}</p>
        <p className="text-sm text-muted">We could not load your balance chart.</p>
        <Button variant="outline" onClick={() => void history.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else if (history.data.points.length === 0) {
    body = (
      <div className="flex aspect-[400/140] flex-col items-center justify-center gap-2 rounded-xl border border-dashed border-line px-4 text-center">
        <p className="font-semibold">No movements yet</p>
        <p className="max-w-xs text-sm text-muted">
          Your chart starts with your first top-up; games, prizes and withdrawals follow.
        </p>
      </div>
    );
  } else {
    body = (
      <div
        aria-busy={refreshing || undefined}
        className={`transition-opacity ${refreshing ? 'opacity-60' : ''}`}
      >
        <Chart points={history.data.points} hasEarlier={history.data.hasEarlier} />
      </div>
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
        Everything that moved your wallet: top-ups, games, prizes and withdrawals.
      </figcaption>
      {body}
    </figure>
  );
}
