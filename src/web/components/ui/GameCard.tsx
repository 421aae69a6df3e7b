import { GAME_STATUS_LABELS, type GameStatus } from '@shared/constants.ts';
import { isFreeGame, placesLeft, placesLeftText } from '@shared/games.ts';
import { formatNaira } from '@shared/money.ts';
import type { Game } from '@shared/schemas/games.ts';
import { setCurrentGame } from '@web/lib/session.ts';
import { type ReactNode, useId } from 'react';
import { useLocation } from 'wouter';
import { Button, buttonBase, buttonStyles } from './Button.tsx';
import { EmptyState } from './EmptyState.tsx';
import { Loading } from './LoadingState.tsx';

/*
 * Games as every screen shows them: badges, the card of docs/product.md#screens and the grid of cards. One
 * module on purpose: Home, the Tournament Hub, game details and submissions all need them,
 * and one small shared chunk costs players less than three.
 */

/** Small rounded label; the tone picks colours that keep AA contrast on the dark cards. */
export type TagTone = 'live' | 'accent' | 'wallet' | 'vip' | 'danger' | 'muted' | 'purple';

const TAG_TONES: Record<TagTone, string> = {
  live: 'border-vip/40 bg-vip/10 text-vip',
  accent: 'border-accent/40 bg-accent/10 text-accent',
  wallet: 'border-wallet/40 bg-wallet/10 text-wallet',
  vip: 'border-vip bg-vip text-black',
  danger: 'border-danger/40 bg-danger/10 text-danger',
  muted: 'border-line bg-white/5 text-white/80',
  purple: 'border-fuchsia-400/40 bg-fuchsia-400/10 text-fuchsia-300',
};

export function Tag({
  tone,
  children,
  className = '',
}: {
  tone: TagTone;
  children: ReactNode;
  className?: string;
}) {
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full border px-2.5 py-0.5 text-[11px] font-bold tracking-wider uppercase ${TAG_TONES[tone]} ${className}`}
    >
      {children}
    </span>
  );
}

const STATUS_TONES: Record<GameStatus, TagTone> = {
  UPCOMING: 'wallet',
  ONGOING: 'live',
  CLOSED: 'muted',
  COMPLETED: 'accent',
  CANCELLED: 'danger',
};

/** Badge texts of docs/product.md#games-and-draws: Upcoming, Live, Closed, Completed, Cancelled. */
export function GameStatusBadge({ status }: { status: GameStatus }) {
  return (
    <Tag tone={STATUS_TONES[status]}>
      {status === 'ONGOING' ? (
        <span aria-hidden="true" className="size-1.5 animate-pulse rounded-full bg-vip" />
      ) : null}
      {GAME_STATUS_LABELS[status]}
    </Tag>
  );
}

export function TournamentMarker() {
  return (
    <Tag tone="purple">
      <span aria-hidden="true">🏆</span>
      Tournament
    </Tag>
  );
}

/** The green FREE badge of docs/product.md#screens (no entry fee). */
export function FreeBadge() {
  return <Tag tone="vip">FREE</Tag>;
}

export function PlayedMarker({ label = 'Played' }: { label?: string }) {
  return (
    <Tag tone="accent">
      <span aria-hidden="true">✓</span>
      {label}
    </Tag>
  );
}

/** The title as the cards show it: in quotes. */
export function quoted(title: string): string {
  return `“${title}”`;
}

/** Where a game opens; the id makes the page survive a refresh and lets players share it. */
export function gameDetailsHref(gameId: string): string {
  return `/GameDetails?id=${encodeURIComponent(gameId)}`;
}

/** The id of the game page's draw proof, the target of links that go straight to it. */
export const PROOF_ANCHOR = 'fair-draw';

/** A game's page opened at its draw proof ("Check the draw"), which a phone shows far below the top. */
export function gameProofHref(gameId: string): string {
  return `${gameDetailsHref(gameId)}#${PROOF_ANCHOR}`;
}

/**
 * docs/product.md#screens 'Pluck in': remember the game, open /GameDetails in place of the current history
 * entry, and start at the top of the page.
 */
export function usePluckIn(): (game: Game) => void {
  const [, navigate] = useLocation();
  return (game) => {
    setCurrentGame(game);
    navigate(gameDetailsHref(game.id), { replace: true });
    window.scrollTo(0, 0);
  };
}

/** One game of a list (docs/product.md#screens "Game list and card"). */
export function GameCard({ game }: { game: Game }) {
  const titleId = useId();
  const pluckIn = usePluckIn();
  const left = placesLeft(game);
  const filled =
    game.maximumPlayers > 0 ? Math.min(100, (game.playerCount / game.maximumPlayers) * 100) : 100;

  return (
    <article
      aria-labelledby={titleId}
      className="flex flex-col gap-4 rounded-2xl border border-line bg-card p-5 transition-colors hover:border-accent/50"
    >
      <div className="flex flex-wrap items-center gap-2">
        <GameStatusBadge status={game.status} />
        {game.isTournament ? <TournamentMarker /> : null}
        {isFreeGame(game) ? <FreeBadge /> : null}
      </div>
      <div className="flex flex-col gap-2">
        <h3 id={titleId} className="text-lg leading-snug font-bold break-words">
          {quoted(game.title)}
        </h3>
        {game.description ? (
          <p className="line-clamp-5 text-sm whitespace-pre-line break-words text-white/75">
            {game.description}
          </p>
        ) : null}
      </div>
      <dl className="mt-auto grid grid-cols-2 gap-3">
        <div className="rounded-xl bg-card-raised px-3 py-2.5">
          <dt className="text-xs text-muted">Entry fee</dt>
          <dd className="mt-0.5 flex flex-wrap items-center gap-2 font-bold">
            {/* As the game page: "₦0" would read as a price. */}
            {isFreeGame(game) ? 'Free' : formatNaira(game.entryFee)}
            {game.hasPlayedGame ? <PlayedMarker /> : null}
          </dd>
        </div>
        <div className="rounded-xl bg-card-raised px-3 py-2.5">
          <dt className="text-xs text-muted">Reward</dt>
          <dd className="mt-0.5 font-bold text-wallet">{formatNaira(game.reward)}</dd>
        </div>
      </dl>
      <div className="flex items-center gap-4">
        <div className="min-w-0 flex-1">
          <p className="text-sm font-semibold">{placesLeftText(left)}</p>
          <div aria-hidden="true" className="mt-1.5 h-1.5 overflow-hidden rounded-full bg-white/10">
            <div className="h-full rounded-full bg-accent" style={{ width: `${filled}%` }} />
          </div>
        </div>
        <button
          type="button"
          onClick={() => pluckIn(game)}
          aria-describedby={titleId}
          className={`${buttonBase} ${buttonStyles.primary} shrink-0`}
        >
          Pluck in
        </button>
      </div>
    </article>
  );
}

interface GameGridProps {
  games: Game[] | undefined;
  loading: boolean;
  /** What the spinner says to screen readers, e.g. 'Loading Trending Games'. */
  loadingLabel: string;
  emptyTitle: string;
  emptyText: ReactNode;
  /** The list could not be loaded (the page shows its toast); offers a retry. */
  failed?: boolean;
  retrying?: boolean;
  onRetry?: () => void;
}

/**
 * The game list of docs/product.md#screens: 1 column on phones, 3 on large screens. While loading it keeps
 * the height of a row of cards so the page below does not jump when the games arrive.
 */
export function GameGrid({
  games,
  loading,
  loadingLabel,
  emptyTitle,
  emptyText,
  failed,
  retrying,
  onRetry,
}: GameGridProps) {
  if (loading) {
    return (
      <div className="grid min-h-80 place-items-center rounded-2xl border border-dashed border-line">
        <Loading label={loadingLabel} className="size-8" />
      </div>
    );
  }
  if (failed) {
    return (
      <EmptyState icon="📡" title="We could not load these games">
        <p>Check your connection and try again.</p>
        {onRetry ? (
          <Button variant="outline" className="mt-4" loading={retrying} onClick={onRetry}>
            Try again
          </Button>
        ) : null}
      </EmptyState>
    );
  }
  if (!games || games.length === 0) {
    return (
      <EmptyState icon="🎯" title={emptyTitle}>
        {emptyText}
      </EmptyState>
    );
  }
  return (
    <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 lg:gap-5">
      {games.map((game) => (
        // Cards off screen skip layout and paint until they come near (a long list costs a
        // slow phone tens of milliseconds at first render); their box keeps an estimated card
        // height, so an offset does not find a card again: Back returns to the card itself
        // (app/scroll-restoration.ts).
        <li
          key={game.id}
          data-scroll-anchor={game.id}
          className="grid [contain-intrinsic-size:auto_18rem] [content-visibility:auto]"
        >
          <GameCard game={game} />
        </li>
      ))}
    </ul>
  );
}
