import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '@web/lib/query-client.ts';
import { loginHref } from '@web/lib/return-path.ts';
import { useSession } from '@web/lib/session.ts';
import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import { AppLayout } from './layout/AppLayout.tsx';

/**
 * Protected routes: no user means /login; otherwise the shared layout. Loaded lazily together
 * with TanStack Query so the sign-in screens never download either.
 */
export function Protected({ children }: { children: ReactNode }) {
  const user = useSession((session) => session.user);
  // The page asked for rides along, to come back to after logging in.
  if (!user) return <Redirect to={loginHref()} replace />;
  return (
    <QueryClientProvider client={queryClient}>
      <AppLayout>{children}</AppLayout>
    </QueryClientProvider>
  );
}
