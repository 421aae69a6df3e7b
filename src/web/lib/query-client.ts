import { onlineManager, QueryClient } from '@tanstack/react-query';
import { setOfflineRetry } from './offline.ts';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      retry: (failureCount, error) =>
        failureCount < 2 &&
        !(error instanceof Error && 'statusCode' in error && Number(error.statusCode) >= 400),
      refetchOnWindowFocus: false,
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
  if (navigator.onLine) void queryClient.refetchQueries({ type: 'active', stale: true });
});
