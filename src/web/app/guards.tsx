import { QueryClientProvider } from '@tanstack/react-query';
import { PageSpinner } from '@web/components/ui/Spinner.tsx';
import { queryClient } from '@web/lib/query-client.ts';
import { loginHref } from '@web/lib/return-path.ts';
import { useSession } from '@web/lib/session.ts';
import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import { AppLayout } from './layout/AppLayout.tsx';
import { useSessionSettled } from './SessionGate.tsx';

/**
 * Protected routes: no user means /login; otherwise the shared layout. Loaded lazily together
 * with TanStack Query so the sign-in screens never download either. While a stored session is
 * being restored the layout already shows (the navigation without the player's figures), with
 * the screen itself when it can show without a player (`shell`: Home, whose prerendered HTML
 * this is) and a spinner in its place otherwise.
 */
export function Protected({ children, shell = false }: { children: ReactNode; shell?: boolean }) {
  const user = useSession((session) => session.user);
  const settled = useSessionSettled();
  // The page asked for rides along, to come back to after logging in.
  if (!user && settled) return <Redirect to={loginHref()} replace />;
  return (
    <QueryClientProvider client={queryClient}>
      <AppLayout>
        {user || shell ? children : <PageSpinner label="Loading your session" />}
      </AppLayout>
    </QueryClientProvider>
  );
}
