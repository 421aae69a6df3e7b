import { ERROR_MESSAGES, PAGE_TEXTS } from '@shared/messages.ts';
import type { Game } from '@shared/schemas/games.ts';
import { buttonBase, buttonStyles } from '@web/components/ui/Button.tsx';
import { GameGrid } from '@web/components/ui/GameCard.tsx';
import { useErrorToast } from '@web/components/ui/useErrorToast.ts';
import { useSession } from '@web/lib/session.ts';
import { useState } from 'react';
import { Link } from 'wouter';
import { useTournaments } from '../api/get-tournaments.ts';
import { Countdown, useTimeLeft } from '../components/Countdown.tsx';
import { launchTime } from '../lib/countdown.ts';

const STEPS = [
  { icon: '🧠', title: 'Five rounds', text: 'Answer five short prompts in a row, 20 words each.' },
  {
    icon: '📈',
    title: 'Climb the ranks',
    text: 'Every round earns points towards the leaderboard.',
  },
  {
    icon: '💰',
    title: 'Bigger prizes',
    text: 'Tournament prize pools are larger than daily games.',
  },
] as const;

function LiveTournaments() {
  const { data, isPending, error, refetch, isFetching } = useTournaments();
  useErrorToast(error, ERROR_MESSAGES.gameList, 'tournaments-error');
  // The list holds upcoming and ongoing tournaments (docs/product.md#games-and-draws): only ongoing ones are live.
  const live = data?.filter((game) => game.status === 'ONGOING');
  const upcoming = data?.filter((game) => game.status === 'UPCOMING') ?? [];
  return (
    <>
      <section aria-labelledby="live-title" className="mt-10">
        <h2 id="live-title" className="mb-5 text-2xl font-bold">
          Live tournaments
        </h2>
        <GameGrid
          games={live}
          loading={isPending}
          loadingLabel="Loading tournaments"
          failed={Boolean(error) && !data}
          retrying={isFetching}
          onRetry={() => void refetch()}
          emptyTitle="No tournaments right now"
          emptyText="The next tournament is being prepared. Check back soon."
        />
      </section>
      {upcoming.length > 0 ? <UpcomingTournaments games={upcoming} /> : null}
    </>
  );
}

function UpcomingTournaments({ games }: { games: Game[] }) {
  return (
    <section aria-labelledby="upcoming-title" className="mt-10">
      <h2 id="upcoming-title" className="mb-5 text-2xl font-bold">
        Starting soon
      </h2>
      <GameGrid
        games={games}
        loading={false}
        loadingLabel="Loading tournaments"
        emptyTitle="No tournaments starting soon"
        emptyText=""
      />
    </section>
  );
}

function HowItWorks() {
  return (
    <section aria-labelledby="how-title" className="mt-10">
      <h2 id="how-title" className="mb-5 text-2xl font-bold">
        How tournaments work
      </h2>
      <ul className="grid gap-4 md:grid-cols-3">
        {STEPS.map((step) => (
          <li key={step.title} className="rounded-2xl border border-line bg-card p-5">
            <span aria-hidden="true" className="text-2xl">
              {step.icon}
            </span>
            <h3 className="mt-2 font-bold">{step.title}</h3>
            <p className="mt-1 text-sm text-white/75">{step.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** /Tournament: the countdown to the launch, then the live tournaments (docs/product.md#screens, #constants). */
export function TournamentPage() {
  const settings = useSession((session) => session.settings);
  // "10 days from now" is measured once, when the page opens, so it does not run away.
  const [openedAt] = useState(() => Date.now());
  const left = useTimeLeft(launchTime(settings, openedAt));

  return (
    <>
      <section
        aria-labelledby="hub-title"
        className="relative isolate overflow-hidden rounded-3xl border border-line bg-card px-5 py-8 text-center sm:px-10 sm:py-12"
      >
        <div
          aria-hidden="true"
          className="absolute inset-0 -z-10 bg-[radial-gradient(circle_at_50%_0%,rgb(192_132_252/0.2),transparent_55%),radial-gradient(circle_at_50%_120%,rgb(0_218_228/0.15),transparent_50%)]"
        />
        <p className="text-xs font-semibold tracking-[0.2em] text-purple-300 uppercase">
          {left.done ? 'Now live' : 'Launching soon'}
        </p>
        <h1 id="hub-title" className="mt-2 text-3xl font-bold sm:text-5xl">
          Tournament Hub
        </h1>
        <p className="mx-auto mt-3 max-w-xl text-white/80 sm:text-lg">
          {PAGE_TEXTS.tournamentTeaser}
        </p>
        <div className="mx-auto mt-7 max-w-xl">
          {left.done ? (
            <p className="inline-flex items-center gap-2 rounded-full border border-vip/40 bg-vip/10 px-4 py-2 font-semibold text-vip">
              <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-vip" />
              Tournaments are live
            </p>
          ) : (
            <Countdown left={left} />
          )}
        </div>
        <Link href="/SelectedTournament" className={`${buttonBase} ${buttonStyles.outline} mt-7`}>
          Try a sample round
        </Link>
      </section>
      {left.done ? <LiveTournaments /> : <HowItWorks />}
    </>
  );
}
