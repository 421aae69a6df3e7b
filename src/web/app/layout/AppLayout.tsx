import { RealityCheck } from '@web/features/responsible-play/components/RealityCheck.tsx';
import type { ReactNode } from 'react';
import { Footer } from './Footer.tsx';
import { Navbar } from './Navbar.tsx';

/** Shared layout of every signed-in page: navigation, content, footer. */
export function AppLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex flex-1 flex-col">
      <Navbar />
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 sm:py-10">
        {children}
      </main>
      <Footer />
      <RealityCheck />
    </div>
  );
}
