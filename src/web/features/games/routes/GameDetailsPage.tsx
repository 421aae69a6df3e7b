import { formatDate } from '@shared/date.ts';
import { isFreeGame, pendingDrawText, placesLeft, placesLeftText } from '@shared/games.ts';
import { ERROR_MESSAGES } from '@shared/messages.ts';
import { formatNaira } from '@shared/money.ts';
import type { Game } from '@shared/schemas/games.ts';
import { useAgeGate } from '@web/components/ui/AgeGate.tsx';
import { BreakNotice } from '@web/components/ui/BreakNotice.tsx';
import { Button, buttonBase, buttonStyles } from '@web/components/ui/Button.tsx';
import { EmptyState } from '@web/components/ui/EmptyState.tsx';
import {
  FreeBadge,
  GameStatusBadge,
  PlayedMarker,
  PROOF_ANCHOR,
  quoted,
  Tag,
  TournamentMarker,
} from '@web/components/ui/GameCard.tsx';
import { PageLoading } from '@web/components/ui/LoadingState.tsx';
import { useErrorToast } from '@web/components/ui/useErrorToast.ts';
import { useDrawProof } from '@web/lib/draw-proof.ts';
import { usePlayBreak } from '@web/lib/play-break.ts';
import { useSession } from '@web/lib/session.ts';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { Link, Redirect, useSearch } from 'wouter';
import { useGame } from '../api/get-game.ts';
import { AnswerDialog } from '../components/AnswerDialog.tsx';
import { FairnessPanel } from '../components/FairnessPanel.tsx';

/** Why a game that the player has not played cannot take an answer now (null: it can). */
export function closedReason(game: Game): string | null {
  if (game.status === 'UPCOMING') {
    return game.startsAt
      ? `This game opens on ${formatDate(game.startsAt)}.`
      : 'This game has not started yet.';
  }
  if (game.status === 'CANCELLED') return 'This game was cancelled.';
  if (game.status !== 'ONGOING' || placesLeft(game) === 0)
    return 'This game is closed to new answers.';
  return null;
}

function filledPercent(game: Game): number {
  if (game.maximumPlayers <= 0) return 100;
  return Math.min(100, (game.playerCount / game.maximumPlayers) * 100);
}

/**
 * The player's entry: played (free), paid or, once the game is cancelled, refunded: a
 * cancelled game's "✓ Paid" would read as money still in play.
 */
function EntryMarker({ game }: { game: Game }) {
  if (isFreeGame(game)) return <PlayedMarker />;
  if (game.status !== 'CANCELLED') return <PlayedMarker label="Paid" />;
  return (
    <Tag tone="muted">
      <span aria-hidden="true">↩</span>
      Refunded
    </Tag>
  );
}

function Stat({
  label,
  children,
  className = '',
}: {
  label: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={`rounded-xl bg-card-raised px-4 py-3 ${className}`}>
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="mt-1 flex flex-wrap items-center gap-2 text-lg font-bold">{children}</dd>
    </div>
  );
}

/** The spec's "N+", with the game's places beside it so the count reads against them. */
function PlayerCount({ game }: { game: Game }) {
  return (
    <>
      <span>{game.playerCount.toLocaleString('en-NG')}+</span>{' '}
      <span className="text-sm font-normal text-muted">
        of {game.maximumPlayers.toLocaleString('en-NG')}
      </span>
    </>
  );
}

function BackLink() {
  return (
    <Link
      href="/Home"
      className="mb-4 inline-flex min-h-11 items-center gap-1 text-sm font-medium text-muted hover:text-accent"
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="size-4"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      >
        <path d="M15 18l-6-6 6-6" />
      </svg>
      Back to games
    </Link>
  );
}

/**
 * What the wallet lacks for a paid game (docs/product.md#games-and-draws: balance >= max(entryFee, minimum payment)),
 * in naira; 0 when it can pay.
 */
export function missingForGame(game: Game, balance: number, minimumPayment: number): number {
  if (game.entryFee <= 0) return 0;
  return Math.max(0, Math.max(game.entryFee, minimumPayment) - balance);
}

/** The top-up that covers what is missing, never under the minimum top-up. */
export function topUpFor(missing: number, minimumPayment: number): number {
  return Math.max(Math.ceil(missing), minimumPayment);
}

/**
 * A finished game the player was in: the page is about how it ended and the proof that the
 * draw was fair, not a way back to the list of submissions, which stays as
 * the spec's second link.
 */
function FinishedGameResult({ game }: { game: Game }) {
  const username = useSession((session) => session.user?.username);
  const { data: proof } = useDrawProof(game.id, game.status === 'COMPLETED');
  let title: string;
  let text: string;
  let tone: string;
  if (game.status === 'CANCELLED') {
    title = 'This game was cancelled';
    // Too few players, or an operator's decision: either way no draw and fees refunded.
    text = isFreeGame(game)
      ? 'There was no draw.'
      : `There was no draw, and your ${formatNaira(game.entryFee)} entry fee went back to your wallet.`;
    tone = 'border-line bg-white/5';
  } else if (!proof) {
    title = 'The draw has run';
    text = 'Loading your result…';
    tone = 'border-line bg-white/5';
  } else if (username && proof.winnerUsernames.includes(username)) {
    title = `You won ${formatNaira(game.reward)}`;
    text = 'The prize is in your wallet. The proof shows how you were picked.';
    tone = 'border-vip/50 bg-vip/10';
  } else {
    const winners = proof.winnerUsernames.length;
    title = 'Not picked this time';
    text = `${winners} ${winners === 1 ? 'winner was' : 'winners were'} picked from ${game.playerCount} players; the proof shows that nobody chose them.`;
    tone = 'border-line bg-white/5';
  }
  return (
    <div className="flex flex-col gap-3">
      <div role="status" className={`rounded-xl border p-4 ${tone}`}>
        <p className="text-lg font-bold">{title}</p>
        <p className="mt-1 text-sm text-white/80">{text}</p>
      </div>
      <div className="flex flex-col gap-2 sm:flex-row">
        {game.status === 'COMPLETED' ? (
          <a href={`#${PROOF_ANCHOR}`} className={`${buttonBase} ${buttonStyles.primary} flex-1`}>
            Check the proof
          </a>
        ) : null}
        <Link href="/mysubmissions" className={`${buttonBase} ${buttonStyles.outline} flex-1`}>
          View game status
        </Link>
      </div>
    </div>
  );
}

function GameAction({ game, onAnswer }: { game: Game; onAnswer: () => void }) {
  const balance = useSession((session) => session.user?.accountBalance ?? 0);
  const hasPlan = useSession((session) => Boolean(session.user?.planID));
  const minimumPayment = useSession((session) => session.settings?.minimumPaymentAmount ?? 0);
  const onBreak = usePlayBreak();
  const hintId = useId();
  if (game.hasPlayedGame) {
    if (game.status === 'COMPLETED' || game.status === 'CANCELLED')
      return <FinishedGameResult game={game} />;
    return (
      <div className="flex flex-col gap-3">
        <p role="status" className="rounded-xl border border-wallet/30 bg-wallet/5 p-3 text-sm">
          {pendingDrawText(game)}
        </p>
        <Link href="/mysubmissions" className={`${buttonBase} ${buttonStyles.outline} w-full`}>
          View game status
        </Link>
      </div>
    );
  }
  const reason = closedReason(game);
  // On a break the page says so, with its end, in place of an answer or a top-up it would refuse.
  if (onBreak && !reason) return <BreakNotice exclusion={onBreak} />;
  // Said before the player types: the dialog would only take an answer the
  // server then refuses. The spec's label stays; the fix sits beside it.
  const needsVip = !reason && game.isTournament && !hasPlan;
  const missing = reason || needsVip ? 0 : missingForGame(game, balance, minimumPayment);
  const blocked = Boolean(reason) || needsVip || missing > 0;
  const topUp = topUpFor(missing, minimumPayment);
  return (
    <div className="flex flex-col gap-3">
      <Button
        onClick={onAnswer}
        disabled={blocked}
        aria-describedby={blocked ? hintId : undefined}
        className="w-full text-base"
      >
        Submit Your Answer
      </Button>
      {reason ? (
        <p id={hintId} className="text-center text-sm text-muted">
          {reason}
        </p>
      ) : null}
      {needsVip ? (
        <div className="flex flex-col gap-2 rounded-xl border border-vip/30 bg-vip/5 p-3 text-center">
          <p id={hintId} className="text-sm text-white/85">
            Tournaments are part of VIP.
          </p>
          <Link href="/Pricing" className={`${buttonBase} ${buttonStyles.vip}`}>
            Go VIP
          </Link>
        </div>
      ) : null}
      {missing > 0 ? (
        <div className="flex flex-col gap-2 rounded-xl border border-wallet/30 bg-wallet/5 p-3 text-center">
          <p id={hintId} className="text-sm text-white/85">
            This game needs {formatNaira(Math.max(game.entryFee, minimumPayment))} and your wallet
            has {formatNaira(balance)}.
          </p>
          <Link href={`/TopUp?amount=${topUp}`} className={`${buttonBase} ${buttonStyles.wallet}`}>
            Top up {formatNaira(topUp)}
          </Link>
        </div>
      ) : null}
    </div>
  );
}

/**
 * Opened at the proof (#fair-draw, "Check the draw"): once the game and, for a drawn game, its
 * proof have rendered (nothing above it moves after that), the proof is scrolled into view and
 * focused, so a screen reader goes on reading there instead of at the top of the page.
 */
function useOpenAtProof(game: Game | undefined) {
  const drawn = game?.status === 'COMPLETED';
  const { data: proof } = useDrawProof(game?.id ?? '', drawn);
  const ready = game !== undefined && (!drawn || proof !== undefined);
  useEffect(() => {
    if (!ready || window.location.hash !== `#${PROOF_ANCHOR}`) return;
    const target = document.getElementById(PROOF_ANCHOR);
    target?.scrollIntoView();
    target?.focus({ preventScroll: true });
  }, [ready]);
}

/**
 * /GameDetails: the game a player pressed Pluck in on, or the one named by ?id= (shared links,
 * reloads). Without either there is nothing to show, so back to /.
 */
export function GameDetailsPage() {
  const idFromUrl = new URLSearchParams(useSearch()).get('id');
  const currentGame = useSession((session) => session.currentGame);
  const id = idFromUrl || currentGame?.id || null;
  const { data: game, isPending, error } = useGame(id, currentGame);
  const [answering, setAnswering] = useState(false);
  const { ensureAge, dialog: ageDialog } = useAgeGate();
  useErrorToast(error, ERROR_MESSAGES.gameList, 'game-details-error');
  useOpenAtProof(game);

  if (!id) return <Redirect to="/" replace />;
  if (isPending) return <PageLoading label="Loading the game" />;
  if (!game) {
    return (
      <section>
        <BackLink />
        <EmptyState icon="🧐" title="We could not open this game">
          <p>It may have been removed, or the link is incomplete.</p>
          <Link href="/Home" className="mt-4 inline-block font-semibold text-accent underline">
            See today's games
          </Link>
        </EmptyState>
      </section>
    );
  }

  return (
    <>
      <BackLink />
      <div className="grid items-start gap-5 lg:grid-cols-5">
        <article
          aria-labelledby="game-title"
          className="relative flex flex-col gap-5 overflow-hidden rounded-3xl border border-line bg-card p-5 sm:p-8 lg:col-span-3"
        >
          <div
            aria-hidden="true"
            className="pointer-events-none absolute -top-24 -right-24 size-72 rounded-full bg-accent/10 blur-3xl"
          />
          <div className="relative flex flex-wrap items-center gap-2">
            <GameStatusBadge status={game.status} />
            {game.isTournament ? <TournamentMarker /> : null}
            {isFreeGame(game) ? <FreeBadge /> : null}
          </div>
          <div className="relative flex flex-col gap-3">
            <h1
              id="game-title"
              className="text-2xl leading-tight font-bold break-words sm:text-3xl"
            >
              {quoted(game.title)}
            </h1>
            {game.description ? (
              <p className="whitespace-pre-line break-words text-white/80">{game.description}</p>
            ) : null}
          </div>
          <dl className="relative grid grid-cols-2 gap-3 sm:grid-cols-3">
            <Stat label="Entry fee">
              {/* A free game says Free: "₦0 ✓ Paid" reads as if something was charged. */}
              {isFreeGame(game) ? 'Free' : formatNaira(game.entryFee)}
              {game.hasPlayedGame ? <EntryMarker game={game} /> : null}
            </Stat>
            <Stat label="Players">
              <PlayerCount game={game} />
            </Stat>
            <Stat label="Reward" className="col-span-2 sm:col-span-1">
              {game.status === 'CANCELLED' ? (
                // Nobody wins it: not in the wallet's colour of money to come.
                <>
                  <span className="text-muted">{formatNaira(game.reward)}</span>
                  <Tag tone="muted">No draw</Tag>
                </>
              ) : (
                <span className="text-wallet">{formatNaira(game.reward)}</span>
              )}
            </Stat>
          </dl>
          {game.status === 'ONGOING' || game.status === 'UPCOMING' ? (
            <div className="relative">
              <p className="text-sm font-semibold">{placesLeftText(placesLeft(game))}</p>
              <div
                aria-hidden="true"
                className="mt-1.5 h-1.5 overflow-hidden rounded-full bg-white/10"
              >
                <div
                  className="h-full rounded-full bg-accent"
                  style={{ width: `${filledPercent(game)}%` }}
                />
              </div>
            </div>
          ) : null}
          <div className="relative">
            <GameAction game={game} onAnswer={() => ensureAge(() => setAnswering(true))} />
          </div>
        </article>
        {/* Focusable by script only: where "Check the draw" and "Check the proof" land, its
            heading clear of the sticky navigation (4 rem) above it. */}
        <div id={PROOF_ANCHOR} tabIndex={-1} className="scroll-mt-24 outline-none lg:col-span-2">
          <FairnessPanel game={game} />
        </div>
      </div>
      <AnswerDialog
        key={game.id}
        game={game}
        open={answering}
        onClose={() => setAnswering(false)}
      />
      {ageDialog}
    </>
  );
}
