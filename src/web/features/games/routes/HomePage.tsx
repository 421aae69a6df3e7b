import { ERROR_MESSAGES } from '@shared/messages.ts';
import { GameGrid } from '@web/components/ui/GameCard.tsx';
import { panelId, Tabs, tabId } from '@web/components/ui/Tabs.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { toast } from '@web/lib/toast.tsx';
import { lazy, Suspense, useDeferredValue, useEffect, useState } from 'react';
import { useGames } from '../api/get-games.ts';
import { Hero } from '../components/Hero.tsx';
import { KnowMore } from '../components/KnowMore.tsx';
import { HOME_FIRST_TAB, HOME_TABS, type HomeTab } from '../lib/home-tabs.ts';
import { markHomeSeen } from '../lib/returning.ts';

/**
 * Fetched after the first screen, whose bytes are budgeted: a break is rare, and the banner
 * needs the player's responsible-play settings first anyway. A file that does not arrive
 * leaves the banner out; the game page still shows the break.
 */
const BreakBanner = lazy(() =>
  import('../components/BreakBanner.tsx').then(
    (module) => ({ default: module.BreakBanner }),
    () => ({ default: () => null }),
  ),
);

function GamesPanel({ tab }: { tab: (typeof HOME_TABS)[number] }) {
  const { data, isPending, error, refetch, isFetching } = useGames(tab.key);
  // The cards render as deferred work, which React splits into slices the browser can answer
  // input between; rendered at once when the list arrived, they were Home's longest task after
  // hydration (Lighthouse's blocking time). The loading state stays up until they are drawn.
  const games = useDeferredValue(data);
  // docs/product.md#errors: the server's message, or 'An error occurred.' (inlined: Home's bytes are budgeted).
  useEffect(() => {
    if (error) toast.error(errorMessage(error, ERROR_MESSAGES.gameList), { id: 'games-error' });
  }, [error]);
  return (
    <GameGrid
      games={games}
      loading={isPending || (data !== undefined && games === undefined)}
      loadingLabel={`Loading ${tab.label}`}
      failed={Boolean(error) && !data}
      retrying={isFetching}
      onRetry={() => void refetch()}
      emptyTitle="No games here yet"
      emptyText="New games drop every day. Check back soon."
    />
  );
}

/** / and /Home: hero, the three game lists as tabs, and Know More (docs/product.md#screens). */
export function HomePage() {
  const [selected, setSelected] = useState<HomeTab>(HOME_FIRST_TAB);
  useEffect(markHomeSeen, []);
  const tab = HOME_TABS.find((item) => item.key === selected) ?? HOME_TABS[0];
  if (!tab) return null;

  return (
    <>
      <Suspense fallback={null}>
        <BreakBanner />
      </Suspense>
      <Hero />
      <section aria-labelledby="games-title" className="mt-10 returning:max-sm:mt-6">
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
      <KnowMore />
    </>
  );
}
