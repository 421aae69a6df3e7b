import type { Settings } from '@shared/schemas/settings.ts';
import { useQuery } from '@tanstack/react-query';
import type { AppQueryKey } from '@web/lib/query-keys.ts';
import { fetchSettings, fetchUser, setSettings, setUser, useSession } from '@web/lib/session.ts';
import { useEffect } from 'react';

/** Reloads the player from the server (balance, bank account); a failure keeps what we had. */
export async function refreshUser(): Promise<void> {
  try {
    setUser(await fetchUser());
  } catch {
    // docs/product.md#states: a failed user load is silent; the last known user stays on screen.
  }
}

const RETURN_DEBOUNCE_MS = 1000;

/**
 * The wallet's balance must be the server's, not a copy from when the app started: a checkout
 * settles in another tab and a webhook can land any time. Reload on arrival and whenever the
 * player comes back to this tab.
 */
export function useFreshUser(): void {
  useEffect(() => {
    void refreshUser();
    // Coming back fires both visibilitychange and focus: one reload is enough. The first
    // return reloads however soon it comes after arriving: a checkout can be paid in a second.
    let last = Number.NEGATIVE_INFINITY;
    const onReturn = () => {
      if (document.visibilityState !== 'visible' || Date.now() - last < RETURN_DEBOUNCE_MS) return;
      last = Date.now();
      void refreshUser();
    };
    document.addEventListener('visibilitychange', onReturn);
    window.addEventListener('focus', onReturn);
    return () => {
      document.removeEventListener('visibilitychange', onReturn);
      window.removeEventListener('focus', onReturn);
    };
  }, []);
}

/**
 * Settings normally arrive with the session; when that load failed (it is silent), the wallet
 * asks again, because fee and minimum must be shown before money moves.
 */
export function useWalletSettings(): { settings: Settings | null; isError: boolean } {
  const fromSession = useSession((session) => session.settings);
  const query = useQuery({
    queryKey: ['settings'] satisfies AppQueryKey,
    queryFn: async () => {
      const settings = await fetchSettings();
      setSettings(settings);
      return settings;
    },
    enabled: fromSession === null,
  });
  return { settings: fromSession ?? query.data ?? null, isError: query.isError };
}
