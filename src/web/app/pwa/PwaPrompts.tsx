import { formatDate } from '@shared/date.ts';
import { Button } from '@web/components/ui/Button.tsx';
import {
  ANSWERED_KEY,
  dropInstallOffer,
  INSTALL_DISMISSED_KEY,
  installOffer,
  noDialogOpen,
  onInstallMomentChange,
} from '@web/lib/install-moment.ts';
import { retryOffline, useOnline, useSavedCopyAt } from '@web/lib/offline.ts';
import { storedFlag } from '@web/lib/storage.ts';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useUpdate } from './update-state.ts';

export const UPDATE_TEXT = 'Update available — reload';
export const INSTALL_TITLE = 'Install Pluckers';

const card =
  'pointer-events-auto w-full max-w-md rounded-2xl border border-line bg-card-raised p-4 shadow-lg shadow-black/50';

/** The prompts of the installable app, at the bottom of every screen. */
export function PwaPrompts() {
  const ref = useRef<HTMLElement>(null);
  // The page's end stays reachable above whatever notice is showing.
  useEffect(() => {
    const aside = ref.current;
    if (!aside) return;
    const observer = new ResizeObserver(() => {
      document.body.style.paddingBottom =
        aside.childElementCount > 0 ? `${aside.offsetHeight}px` : '';
    });
    observer.observe(aside);
    return () => observer.disconnect();
  }, []);
  return (
    <aside
      ref={ref}
      aria-label="App notices"
      className="pointer-events-none fixed inset-x-0 bottom-0 z-[90] flex flex-col items-center gap-2 p-3 pb-[max(0.75rem,env(safe-area-inset-bottom))]"
    >
      <UpdateNotice />
      <InstallPrompt />
      <SavedCopyNotice />
    </aside>
  );
}

/** A new version is waiting: reloading switches every tab at once, never a mix of versions. */
function UpdateNotice() {
  const update = useUpdate();
  if (!update) return null;
  return (
    <div role="status" className={`${card} flex items-center justify-between gap-3`}>
      <p className="font-semibold">{UPDATE_TEXT}</p>
      <Button onClick={update}>Reload</Button>
    </div>
  );
}

/**
 * Installing is offered once the player has answered, never on a first visit, and after the
 * answer's dialog has closed (never dimmed under it); "Not now" is kept.
 */
function useInstallMoment(): boolean {
  return useSyncExternalStore(
    onInstallMomentChange,
    () =>
      installOffer() !== null &&
      storedFlag.get(ANSWERED_KEY) &&
      !storedFlag.get(INSTALL_DISMISSED_KEY) &&
      noDialogOpen(),
    () => false,
  );
}

function InstallPrompt() {
  const show = useInstallMoment();
  if (!show) return null;
  const dismiss = () => {
    storedFlag.set(INSTALL_DISMISSED_KEY, true);
    dropInstallOffer();
  };
  const install = async () => {
    const offer = installOffer();
    if (!offer) return;
    dropInstallOffer();
    await offer.prompt();
    const { outcome } = await offer.userChoice;
    if (outcome === 'dismissed') storedFlag.set(INSTALL_DISMISSED_KEY, true);
  };
  return (
    <section aria-labelledby="install-title" className={card}>
      <h2 id="install-title" className="font-semibold">
        {INSTALL_TITLE}
      </h2>
      <p className="mt-1 text-sm text-muted">
        Open it from your home screen like an app. It starts faster and uses less data.
      </p>
      <div className="mt-3 flex justify-end gap-2">
        <Button variant="ghost" onClick={dismiss}>
          Not now
        </Button>
        <Button onClick={() => void install()}>Install</Button>
      </div>
    </section>
  );
}

/** Reads answered from the saved copy: say so, and since when, with a way to try again. */
function SavedCopyNotice() {
  const savedAt = useSavedCopyAt();
  const online = useOnline();
  const [tried, setTried] = useState(false);
  const showing = savedAt !== null;
  // Back online: the live figures replace the saved ones without waiting for a tap.
  useEffect(() => {
    if (online && showing) retryOffline();
  }, [online, showing]);
  if (savedAt === null) return null;
  const since = savedAt > 0 ? `last updated ${formatDate(savedAt)}` : 'showing what was saved';
  return (
    <div role="status" className={`${card} flex items-center justify-between gap-3 py-3`}>
      <p className="text-sm">
        <span className="font-semibold">{online ? 'No connection' : 'Offline'}</span>, {since}
        {tried && !navigator.onLine ? '. Still offline.' : ''}
      </p>
      <Button
        variant="outline"
        className="shrink-0"
        onClick={() => {
          retryOffline();
          setTried(true);
        }}
      >
        Retry
      </Button>
    </div>
  );
}
