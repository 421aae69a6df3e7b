import { ERROR_MESSAGES } from '@shared/messages.ts';
import { formatNaira } from '@shared/money.ts';
import type { LeaderboardEntry } from '@shared/schemas/games.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { EmptyState } from '@web/components/ui/EmptyState.tsx';
import { PageLoading } from '@web/components/ui/LoadingState.tsx';
import { PageHeader } from '@web/components/ui/PageHeader.tsx';
import { useErrorToast } from '@web/components/ui/useErrorToast.ts';
import { VerifiedTick } from '@web/components/ui/VerifiedTick.tsx';
import { useSession } from '@web/lib/session.ts';
import { type LeaderboardParams, useLeaderboard } from '../api/get-leaderboard.ts';
import { useMyRank } from '../api/get-my-rank.ts';
import { LevelPill, StatusBadge } from '../components/LevelPill.tsx';

const RANK_STYLES: Record<number, string> = {
  1: 'bg-wallet text-black',
  2: 'bg-zinc-300 text-black',
  3: 'bg-amber-600 text-black',
};

function Rank({ rank }: { rank: number }) {
  return (
    <span
      className={`grid size-8 shrink-0 place-items-center rounded-full text-sm font-bold ${
        RANK_STYLES[rank] ?? 'bg-card-raised text-white/80'
      }`}
    >
      {rank}
    </span>
  );
}

function Player({ entry, isYou }: { entry: LeaderboardEntry; isYou: boolean }) {
  return (
    <span className="flex min-w-0 items-center gap-1.5 font-semibold">
      <span className="truncate">{entry.username}</span>
      {entry.isVerified ? <VerifiedTick /> : null}
      {isYou ? (
        <span className="rounded-full bg-accent/15 px-2 py-0.5 text-[11px] font-bold text-accent">
          You
        </span>
      ) : null}
    </span>
  );
}

function LeaderboardTable({ entries, me }: { entries: LeaderboardEntry[]; me: string | null }) {
  return (
    <div className="hidden overflow-hidden rounded-2xl border border-line bg-card sm:block">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Top players, ranked by total winnings</caption>
        <thead className="border-b border-line bg-card-raised text-xs tracking-wider text-muted uppercase">
          <tr>
            <th scope="col" className="w-16 px-4 py-3">
              #
            </th>
            <th scope="col" className="px-4 py-3">
              Player
            </th>
            <th scope="col" className="px-4 py-3">
              Level
            </th>
            <th scope="col" className="px-4 py-3 text-right">
              Total Winnings
            </th>
            <th scope="col" className="px-4 py-3 text-right">
              Points
            </th>
            <th scope="col" className="px-4 py-3">
              Status Badge
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry, index) => (
            <tr
              key={entry.username}
              className={`border-b border-line last:border-0 ${entry.username === me ? 'bg-accent/5' : ''}`}
            >
              <td className="px-4 py-3">
                <Rank rank={index + 1} />
              </td>
              <td className="max-w-56 px-4 py-3">
                <Player entry={entry} isYou={entry.username === me} />
              </td>
              <td className="px-4 py-3">
                <LevelPill level={entry.level} />
              </td>
              <td className="px-4 py-3 text-right font-bold text-wallet tabular-nums">
                {formatNaira(entry.totalAmountWon)}
              </td>
              <td className="px-4 py-3 text-right tabular-nums">
                {entry.totalPoints.toLocaleString('en-NG')}
              </td>
              <td className="px-4 py-3">
                <StatusBadge level={entry.level} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Phones: the same rows as cards, since six columns cannot fit 360 px. */
function LeaderboardList({ entries, me }: { entries: LeaderboardEntry[]; me: string | null }) {
  return (
    <ol className="flex flex-col gap-2 sm:hidden" aria-label="Top players">
      {entries.map((entry, index) => (
        <li
          key={entry.username}
          className={`flex items-center gap-3 rounded-2xl border p-3 ${
            entry.username === me ? 'border-accent/50 bg-accent/5' : 'border-line bg-card'
          }`}
        >
          <Rank rank={index + 1} />
          <div className="flex min-w-0 flex-1 flex-col gap-1.5">
            <Player entry={entry} isYou={entry.username === me} />
            <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <LevelPill level={entry.level} />
              <StatusBadge level={entry.level} />
            </span>
          </div>
          <dl className="shrink-0 text-right">
            <dt className="sr-only">Total Winnings</dt>
            <dd className="font-bold text-wallet tabular-nums">
              {formatNaira(entry.totalAmountWon)}
            </dd>
            <dt className="sr-only">Points</dt>
            <dd className="text-xs text-muted tabular-nums">
              {entry.totalPoints.toLocaleString('en-NG')} pts
            </dd>
          </dl>
        </li>
      ))}
    </ol>
  );
}

/**
 * The player's own place, always: the top 10 alone tells most players
 * nothing about themselves. Quiet when it cannot be loaded: the board is what the page is for.
 */
function YourRank({ params }: { params: LeaderboardParams }) {
  const { pageSize: _, ...window } = params;
  const { data } = useMyRank(window);
  if (!data) return null;
  return (
    <section
      aria-labelledby="your-rank-title"
      className="mb-5 flex items-center gap-4 rounded-2xl border border-accent/40 bg-accent/5 p-4"
    >
      {data.rank !== null && data.entry ? (
        <>
          <Rank rank={data.rank} />
          <div className="min-w-0 flex-1">
            <h2 id="your-rank-title" className="font-bold">
              Your rank: #{data.rank.toLocaleString('en-NG')}
            </h2>
            <p className="text-sm text-white/80">
              {formatNaira(data.entry.totalAmountWon)} won ·{' '}
              {data.entry.totalPoints.toLocaleString('en-NG')} pts
            </p>
          </div>
        </>
      ) : (
        <div>
          <h2 id="your-rank-title" className="font-bold">
            Your rank: not on the board yet
          </h2>
          <p className="text-sm text-white/80">
            Play a game: you join the board once its draw has run.
          </p>
        </div>
      )}
    </section>
  );
}

/**
 * /LeaderBoard: the top players for all games (the single 'All games' pill of docs/product.md#screens). The
 * weekly, monthly and quarterly windows exist (lib/date-presets.ts) but are not shown.
 */
export function LeaderboardPage({ params = {} }: { params?: LeaderboardParams }) {
  const me = useSession((session) => session.user?.username ?? null);
  const { data, isPending, error, refetch, isFetching } = useLeaderboard(params);
  useErrorToast(error, ERROR_MESSAGES.leaderboard, 'leaderboard-error');

  return (
    <section aria-labelledby="leaderboard-title">
      <PageHeader title="Leaderboard" eyebrow="Top Pluckers" />
      <h2 id="leaderboard-title" className="sr-only">
        Rankings
      </h2>
      <ul aria-label="Categories" className="mb-5 flex flex-wrap gap-2">
        <li>
          <button
            type="button"
            aria-pressed="true"
            className="min-h-11 rounded-full border border-accent bg-accent px-5 text-sm font-semibold text-black"
          >
            All games
          </button>
        </li>
      </ul>
      <YourRank params={params} />
      {isPending ? (
        <PageLoading label="Loading the leaderboard" />
      ) : error && !data ? (
        <EmptyState icon="📡" title="We could not load the leaderboard">
          <p>Check your connection and try again.</p>
          <Button variant="outline" className="mt-4" loading={isFetching} onClick={() => refetch()}>
            Try again
          </Button>
        </EmptyState>
      ) : !data || data.length === 0 ? (
        <EmptyState icon="🏆" title="No winners yet">
          <p>
            The leaderboard fills up as draws complete. Play a game and your name could be first.
          </p>
        </EmptyState>
      ) : (
        <>
          <LeaderboardTable entries={data} me={me} />
          <LeaderboardList entries={data} me={me} />
        </>
      )}
    </section>
  );
}
