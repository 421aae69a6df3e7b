import { QueryClientProvider } from '@tanstack/react-query';
import { Logo } from '@web/components/ui/Logo.tsx';
import { queryClient } from '@web/lib/query-client.ts';
import { useSession } from '@web/lib/session.ts';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { Footer } from './Footer.tsx';
import { Navbar } from './Navbar.tsx';

/** Static pages: the full navigation for a signed-in player, a slim header for visitors. */
export function PublicLayout({ children }: { children: ReactNode }) {
  const signedIn = useSession((session) => session.user !== null);
  return (
    <div className="flex flex-1 flex-col">
      {signedIn ? (
        <QueryClientProvider client={queryClient}>
          <Navbar />
        </QueryClientProvider>
      ) : (
        <header className="border-b border-line">
          <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4">
            <Logo href="/login" />
            <nav aria-label="Account" className="flex items-center gap-2">
              <Link
                href="/login"
                className="inline-flex min-h-11 items-center rounded-xl px-3 text-sm font-medium hover:text-accent"
              >
                Log in
              </Link>
              <Link
                href="/Signup"
                className="inline-flex min-h-11 items-center rounded-xl bg-accent px-4 text-sm font-semibold text-black hover:bg-accent/85"
              >
                Sign up
              </Link>
            </nav>
          </div>
        </header>
      )}
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:py-12">
        {children}
      </main>
      <Footer />
    </div>
  );
}
