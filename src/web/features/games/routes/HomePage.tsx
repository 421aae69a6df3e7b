import type { GameType } from '@shared/constants.ts';
import { ERROR_MESSAGES } from '@shared/messages.ts';
import { GameGrid } from '@web/components/ui/GameCard.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { toast } from '@web/lib/toast.tsx';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useGames } from '../api/get-games.ts';
import { Hero } from '../components/Hero.tsx';
import { panelId, Tabs, tabId } from '../components/Tabs.tsx';

type HomeTab = Exclude<GameType, 'TOURNAMENT'>;

/**
 * Know More sits below the fold on every screen size, so it loads in parallel with the game
 * list instead of before the first paint (DESIGN §6 budget for Home). Its box keeps its
 * height meanwhile, so nothing moves when it arrives.
 */
const KnowMore = lazy(() =>
  import('../components/KnowMore.tsx').then((module) => ({ default: module.KnowMore })),
);

export const HOME_TABS: ReadonlyArray<{ key: HomeTab; label: string }> = [
  { key: 'TRENDING', label: 'Trending Games' },
  { key: 'NEW_CHALLANGES', label: 'New Challenges' },
  { key: 'HIGHEST_PAYOUTS', label: 'Highest Payouts' },
];

function GamesPanel({ tab }: { tab: (typeof HOME_TABS)[number] }) {
  const { data, isPending, error, refetch, isFetching } = useGames(tab.key);
  // Spec §8: the server's message, or 'An error occurred.' (inlined: Home's bytes are budgeted).
  useEffect(() => {
    if (error) toast.error(errorMessage(error, ERROR_MESSAGES.gameList), { id: 'games-error' });
  }, [error]);
  return (
    <GameGrid
      games={data}
      loading={isPending}
      loadingLabel={`Loading ${tab.label}`}
      failed={Boolean(error) && !data}
      retrying={isFetching}
      onRetry={() => void refetch()}
      emptyTitle="No games here yet"
      emptyText="New games drop every day. Check back soon."
    />
  );
}

/** / and /Home: hero, the three game lists as tabs, and Know More (spec §2). */
export function HomePage() {
  const [selected, setSelected] = useState<HomeTab>('TRENDING');
  const tab = HOME_TABS.find((item) => item.key === selected) ?? HOME_TABS[0];
  if (!tab) return null;

  return (
    <>
      <Hero />
      <section aria-labelledby="games-title" className="mt-10">
        <div className="mb-5 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <p className="text-xs font-semibold tracking-[0.2em] text-accent uppercase">
              Pick a question
            </p>
            <h2 id="games-title" className="text-2xl font-bold sm:text-3xl">
              Today's games
            </h2>
          </div>
          <Tabs label="Game lists" tabs={HOME_TABS} selected={selected} onSelect={setSelected} />
        </div>
        <div role="tabpanel" id={panelId(tab.key)} aria-labelledby={tabId(tab.key)}>
          <GamesPanel key={tab.key} tab={tab} />
        </div>
      </section>
      <Suspense fallback={<div aria-hidden="true" className="mt-14 min-h-96" />}>
        <KnowMore />
      </Suspense>
    </>
  );
}
