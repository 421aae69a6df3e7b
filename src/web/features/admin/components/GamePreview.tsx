import type { GameStatus } from '@shared/constants.ts';
import { isFreeGame, placesLeft, placesLeftText } from '@shared/games.ts';
import { formatNaira } from '@shared/money.ts';
import {
  FreeBadge,
  GameStatusBadge,
  quoted,
  TournamentMarker,
} from '@web/components/ui/GameCard.tsx';

export interface PreviewGame {
  title: string;
  description: string;
  entryFee: number;
  reward: number;
  maximumPlayers: number;
  playerCount: number;
  status: GameStatus;
  isTournament: boolean;
}

const FINISHED = new Set<GameStatus>(['CLOSED', 'COMPLETED', 'CANCELLED']);

/**
 * A game that takes no more answers: what happened to it, in place of places left and the
 * Pluck in button (which would read "0 Plucker Left" and invite a play that cannot happen).
 */
function FinishedResult({ game }: { game: PreviewGame }) {
  const players = `${game.playerCount} player${game.playerCount === 1 ? '' : 's'}`;
  let headline: string;
  let detail: string;
  if (game.status === 'COMPLETED') {
    // docs/product.md#games-and-draws: one winner per five players.
    const winners = Math.floor(game.playerCount / 5);
    headline = `Drawn: ${winners} winner${winners === 1 ? '' : 's'} of ${players}`;
    detail = `Each winner got ${formatNaira(game.reward)}; the proof is below.`;
  } else if (game.status === 'CANCELLED') {
    headline = `Cancelled with ${players}`;
    detail = 'Every entry fee was refunded.';
  } else {
    headline = `Closed with ${players}`;
    detail = 'No more answers: the draw runs as soon as its beacon round is out.';
  }
  return (
    <div className="rounded-xl border border-line bg-card-raised px-3 py-2.5">
      <p className="text-sm font-semibold">{headline}</p>
      <p className="mt-0.5 text-xs text-muted">{detail}</p>
    </div>
  );
}

/**
 * The player's game card as it will look (docs/product.md#screens): status badge, Tournament marker, FREE
 * badge, quoted title, description with its line breaks, fee, reward and places left.
 * Nothing in it can be pressed: it is a picture of the card. A finished game shows its result.
 */
export function GamePreview({ game }: { game: PreviewGame }) {
  const left = placesLeft(game);
  const finished = FINISHED.has(game.status);
  const filled =
    game.maximumPlayers > 0 ? Math.min(100, (game.playerCount / game.maximumPlayers) * 100) : 0;
  return (
    <figure className="flex flex-col gap-2">
      <figcaption className="text-xs font-semibold tracking-[0.2em] text-muted uppercase">
        Player card preview
      </figcaption>
      <div
        data-testid="game-preview"
        className="flex flex-col gap-4 rounded-2xl border border-accent/40 bg-card p-5 shadow-[0_0_40px_-12px] shadow-accent/40"
      >
        <div className="flex flex-wrap items-center gap-2">
          <GameStatusBadge status={game.status} />
          {game.isTournament ? <TournamentMarker /> : null}
          {isFreeGame(game) ? <FreeBadge /> : null}
        </div>
        <div className="flex flex-col gap-2">
          <p className="text-lg leading-snug font-bold break-words">
            {game.title.trim() ? (
              quoted(game.title.trim())
            ) : (
              <span className="text-white/40">“Your question appears here”</span>
            )}
          </p>
          {game.description.trim() ? (
            <p className="line-clamp-5 text-sm whitespace-pre-line break-words text-white/75">
              {game.description.trim()}
            </p>
          ) : null}
        </div>
        <dl className="grid grid-cols-2 gap-3">
          <div className="rounded-xl bg-card-raised px-3 py-2.5">
            <dt className="text-xs text-muted">Entry fee</dt>
            <dd className="mt-0.5 font-bold">
              {isFreeGame(game) ? 'Free' : formatNaira(game.entryFee)}
            </dd>
          </div>
          <div className="rounded-xl bg-card-raised px-3 py-2.5">
            <dt className="text-xs text-muted">Reward</dt>
            <dd className="mt-0.5 font-bold text-wallet">{formatNaira(game.reward)}</dd>
          </div>
        </dl>
        {finished ? (
          <FinishedResult game={game} />
        ) : (
          <div className="flex items-center gap-4">
            <div className="min-w-0 flex-1">
              <p className="text-sm font-semibold">{placesLeftText(left)}</p>
              <div
                aria-hidden="true"
                className="mt-1.5 h-1.5 overflow-hidden rounded-full bg-white/10"
              >
                <div className="h-full rounded-full bg-accent" style={{ width: `${filled}%` }} />
              </div>
            </div>
            <span
              aria-hidden="true"
              className="inline-flex min-h-11 shrink-0 items-center rounded-xl bg-accent px-5 text-sm font-semibold text-black"
            >
              Pluck in
            </span>
          </div>
        )}
      </div>
    </figure>
  );
}
