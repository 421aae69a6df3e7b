import { exclusionMessage } from '@shared/responsible-play.ts';
import type { PlayExclusion } from '@shared/schemas/responsible-play.ts';
import { Link } from 'wouter';

/**
 * The player's break where an action would take money in or play (a game, a top-up, a plan),
 * in the server's own words with its end date, and the way to Responsible play. `id` lets a
 * disabled control name it as its reason.
 */
export function BreakNotice({
  exclusion,
  id,
  className = '',
}: {
  exclusion: PlayExclusion;
  id?: string;
  className?: string;
}) {
  return (
    <div
      id={id}
      role="status"
      className={`flex flex-col gap-2 rounded-xl border border-accent/30 bg-accent/5 p-4 text-sm ${className}`}
    >
      <p className="text-white/90">
        {exclusionMessage(exclusion.kind, new Date(exclusion.endsAt))}
      </p>
      <Link href="/ResponsiblePlay" className="self-start font-semibold text-accent underline">
        Responsible play
      </Link>
    </div>
  );
}
