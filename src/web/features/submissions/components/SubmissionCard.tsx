import { pendingDrawText } from '@shared/games.ts';
import { formatNaira } from '@shared/money.ts';
import type { PlayedGame } from '@shared/schemas/games.ts';
import { DateTime } from '@web/components/ui/DateTime.tsx';
import {
  gameDetailsHref,
  gameProofHref,
  quoted,
  Tag,
  type TagTone,
  TournamentMarker,
} from '@web/components/ui/GameCard.tsx';
import { useId } from 'react';
import { Link } from 'wouter';
import { type SubmissionOutcome, submissionStatus } from '../lib/submission-status.ts';

const OUTCOME_TONES: Record<SubmissionOutcome, TagTone> = {
  pending: 'wallet',
  won: 'live',
  lost: 'danger',
  refunded: 'muted',
};

export function SubmissionCard({ played }: { played: PlayedGame }) {
  const titleId = useId();
  const status = submissionStatus(played);
  const won = status.outcome === 'won';
  const refunded = status.outcome === 'refunded';
  const drawn = won || status.outcome === 'lost';
  return (
    <article
      aria-labelledby={titleId}
      className={`flex flex-col gap-4 rounded-2xl border bg-card p-5 ${
        won ? 'border-vip/50 shadow-[0_0_32px_rgb(0_255_133/0.08)]' : 'border-line'
      }`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <Tag tone={OUTCOME_TONES[status.outcome]}>
          <span className="sr-only">Status: </span>
          {status.label}
        </Tag>
        {played.game.isTournament ? <TournamentMarker /> : null}
        <DateTime value={played.createdAt} className="ml-auto text-xs text-muted" />
      </div>
      <h3 id={titleId} className="text-lg leading-snug font-bold break-words">
        {quoted(played.game.title)}
      </h3>
      <div className="rounded-xl border-l-4 border-accent bg-page px-4 py-3">
        <p className="text-xs text-muted">Your answer</p>
        <p className="mt-1 break-words text-white/90">{played.submittedAnswer}</p>
      </div>
      <dl className="mt-auto grid grid-cols-2 gap-3">
        <div className="rounded-xl bg-card-raised px-3 py-2.5">
          <dt className="text-xs text-muted">
            {refunded && played.amountPaid > 0 ? 'Entry fee refunded' : 'Amount paid'}
          </dt>
          <dd className="mt-0.5 font-bold">
            {played.amountPaid > 0 ? formatNaira(played.amountPaid) : 'Free'}
          </dd>
        </div>
        <div className="rounded-xl bg-card-raised px-3 py-2.5">
          <dt className="text-xs text-muted">{won ? 'Amount won' : 'Amount to win'}</dt>
          {/* A cancelled game has no draw: its reward is nobody's to win. */}
          {refunded ? (
            <dd className="mt-0.5 font-bold text-muted">Nothing, no draw</dd>
          ) : (
            <dd className="mt-0.5 font-bold text-wallet">{formatNaira(played.amountToWin)}</dd>
          )}
        </div>
      </dl>
      <div className="flex items-center justify-between gap-3 text-sm">
        <p className="text-muted">
          {status.outcome === 'pending' ? pendingDrawText(played.game) : status.description}
        </p>
        <Link
          href={drawn ? gameProofHref(played.game.id) : gameDetailsHref(played.game.id)}
          aria-describedby={titleId}
          className="inline-flex min-h-11 shrink-0 items-center font-semibold text-accent hover:underline"
        >
          {drawn ? 'Check the draw' : 'View game'}
        </Link>
      </div>
    </article>
  );
}
