import { onlineManager, QueryClient } from '@tanstack/react-query';
import type { ApiError } from './http.ts';
import { setOfflineRetry } from './offline.ts';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // Only a read that got no answer is worth repeating; the server's refusals stand.
      retry: (failureCount, error) =>
        failureCount < 2 && ((error as Partial<ApiError>).code ?? 'NO_ANSWER') === 'NO_ANSWER',
      refetchOnWindowFocus: false,
      // Offline, a read is still tried once so the service worker can answer from its saved
      // copy; only when that fails too does it wait for the connection.
      networkMode: 'offlineFirst',
    },
    mutations: {
      // In TanStack's default 'online' mode a mutation made offline is paused and sent by
      // itself when the connection returns, minutes later, with nobody watching: an answer and
      // its entry fee, a withdrawal. Every change is tried now and fails now instead (the
      // player sees the error and decides), and none is retried behind their back.
      networkMode: 'always',
      retry: false,
    },
  },
});

setOfflineRetry(() => {
  // The browser may have missed its 'online' event; reads paused for the connection resume
  // when TanStack is told it is back.
  onlineManager.setOnline(navigator.onLine);
  // Every read on screen, not only stale ones: one answered from the service worker's saved
  // copy counts as fresh, yet the player asked for the live figures.
  if (navigator.onLine) void queryClient.refetchQueries({ type: 'active' });
});
