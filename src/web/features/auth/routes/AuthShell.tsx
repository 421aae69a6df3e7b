import { PAGE_TEXTS } from '@shared/messages.ts';
import { Logo } from '@web/components/ui/Logo.tsx';
import type { ReactNode } from 'react';
import { Link } from 'wouter';

const HIGHLIGHTS = [
  { icon: '🎯', title: '1 in 5 wins', detail: 'Winners drawn by software' },
  { icon: '✍️', title: '20 words', detail: 'One answer per game' },
  { icon: '💸', title: 'Naira prizes', detail: 'Paid to your wallet' },
];

/** Two-panel frame of the auth pages: brand story beside the form, stacked on phones. */
export function AuthShell({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="grid flex-1 lg:grid-cols-2">
      <aside className="relative hidden overflow-hidden bg-card lg:flex lg:flex-col lg:justify-between lg:p-12">
        <Logo href="/login" />
        <div>
          <p className="text-sm font-semibold uppercase tracking-[0.3em] text-accent">
            {PAGE_TEXTS.tagline}
          </p>
          <p className="mt-3 text-5xl font-bold leading-tight">{PAGE_TEXTS.headline}</p>
          <p className="mt-2 text-xl font-semibold tracking-[0.2em] text-vip">
            {PAGE_TEXTS.subHeadline}
          </p>
          <ul className="mt-10 grid max-w-lg gap-3 xl:grid-cols-3">
            {HIGHLIGHTS.map((highlight) => (
              <li
                key={highlight.title}
                className="rounded-2xl border border-line bg-page/60 p-4 backdrop-blur"
              >
                <span aria-hidden="true" className="text-2xl">
                  {highlight.icon}
                </span>
                <p className="mt-2 font-semibold">{highlight.title}</p>
                <p className="text-sm text-muted">{highlight.detail}</p>
              </li>
            ))}
          </ul>
        </div>
        <p className="max-w-md text-sm text-muted">
          Winners are picked by software with no human involvement. Players must be 18 or over. Play
          responsibly.
        </p>
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -right-24 -bottom-24 size-96 rounded-full bg-accent/10 blur-3xl"
        />
      </aside>
      <main id="main" className="flex flex-col px-5 py-8 sm:px-10">
        <div className="lg:hidden">
          <Logo href="/login" />
        </div>
        <div className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center py-8">
          <p className="mb-2 text-xs font-semibold uppercase tracking-[0.3em] text-accent lg:hidden">
            {PAGE_TEXTS.tagline}
          </p>
          <h1 className="mb-6 text-3xl font-bold">{title}</h1>
          {children}
        </div>
        <nav
          aria-label="Legal"
          className="flex flex-wrap justify-center gap-x-4 text-xs text-muted"
        >
          <Link href="/Terms" className="inline-flex min-h-11 items-center hover:text-accent">
            Terms
          </Link>
          <Link href="/Privacy" className="inline-flex min-h-11 items-center hover:text-accent">
            Privacy
          </Link>
          <Link href="/GameRules" className="inline-flex min-h-11 items-center hover:text-accent">
            Game rules
          </Link>
          <Link
            href="/SupportCenter"
            className="inline-flex min-h-11 items-center hover:text-accent"
          >
            Contact
          </Link>
        </nav>
      </main>
    </div>
  );
}
