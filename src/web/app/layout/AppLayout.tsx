import { lazy, type ReactNode, Suspense } from 'react';
import { Footer } from './Footer.tsx';
import { Navbar } from './Navbar.tsx';

/**
 * The reality check opens minutes into a session at the earliest, so its code is not part of the
 * first screen's download. A file that does not arrive leaves it out for this visit rather than
 * taking the page down with it.
 */
const RealityCheck = lazy(() =>
  import('@web/features/responsible-play/components/RealityCheck.tsx').then(
    (module) => ({ default: module.RealityCheck }),
    () => ({ default: () => null }),
  ),
);

/** Shared layout of every signed-in page: navigation, content, footer. */
export function AppLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex flex-1 flex-col">
      <Navbar />
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 sm:py-10">
        {children}
      </main>
      <Footer />
      <Suspense fallback={null}>
        <RealityCheck />
      </Suspense>
    </div>
  );
}
