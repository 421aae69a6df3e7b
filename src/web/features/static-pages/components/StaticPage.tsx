import type { ReactNode } from 'react';

/**
 * Long-form text styles for the static pages (Tailwind has no typography plugin here): a
 * comfortable measure and rhythm, accent links, and lists that read well on a phone.
 */
export const proseClass =
  'space-y-4 text-base leading-7 text-white/85 [&_a]:font-medium [&_a]:text-accent [&_a]:underline [&_a]:underline-offset-4 [&_a:hover]:text-white [&_h3]:pt-2 [&_h3]:text-base [&_h3]:font-semibold [&_h3]:text-white [&_li]:pl-1 [&_li]:marker:text-accent [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-5 [&_strong]:font-semibold [&_strong]:text-white [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-5';

export interface TocEntry {
  id: string;
  title: string;
}

function TocLinks({ entries }: { entries: TocEntry[] }) {
  return (
    <ol className="space-y-1 text-sm">
      {entries.map((entry, index) => (
        <li key={entry.id}>
          <a
            href={`#${entry.id}`}
            className="flex min-h-10 items-center gap-3 rounded-lg px-2 text-muted hover:bg-white/5 hover:text-white"
          >
            <span aria-hidden="true" className="w-5 shrink-0 text-right text-xs text-accent">
              {index + 1}
            </span>
            {entry.title}
          </a>
        </li>
      ))}
    </ol>
  );
}

/** "On this page": a fold-out list on phones, a sticky column beside the text on desktops. */
function TableOfContents({ entries }: { entries: TocEntry[] }) {
  return (
    <nav aria-label="On this page" className="mb-8 lg:sticky lg:top-24 lg:mb-0 lg:self-start">
      <details className="group rounded-2xl border border-line bg-card lg:hidden">
        <summary className="flex min-h-12 cursor-pointer list-none items-center justify-between px-4 text-sm font-semibold [&::-webkit-details-marker]:hidden">
          On this page
          <span
            aria-hidden="true"
            className="text-accent transition-transform group-open:rotate-180"
          >
            ▾
          </span>
        </summary>
        <div className="border-t border-line p-2">
          <TocLinks entries={entries} />
        </div>
      </details>
      <div className="hidden lg:block">
        <p className="mb-2 px-2 text-xs font-semibold uppercase tracking-[0.2em] text-muted">
          On this page
        </p>
        <TocLinks entries={entries} />
      </div>
    </nav>
  );
}

interface StaticPageProps {
  eyebrow: string;
  title: string;
  intro: ReactNode;
  /** ISO date and its words, for "Last updated". */
  updated?: { iso: string; text: string };
  /** Sections listed in "On this page"; leave out for short pages. */
  toc?: TocEntry[];
  /** Anything shown under the intro inside the header card (e.g. a jump link). */
  actions?: ReactNode;
  children: ReactNode;
}

/** Frame of every static page: one h1 in a header card, then the page's sections. */
export function StaticPage({
  eyebrow,
  title,
  intro,
  updated,
  toc,
  actions,
  children,
}: StaticPageProps) {
  return (
    <article aria-labelledby="static-page-title">
      <header className="relative overflow-hidden rounded-3xl border border-line bg-card px-5 py-8 sm:px-10 sm:py-12">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -top-28 -right-20 size-72 rounded-full bg-accent/10 blur-3xl"
        />
        <div className="relative max-w-2xl">
          <p className="text-xs font-semibold uppercase tracking-[0.25em] text-accent">{eyebrow}</p>
          <h1
            id="static-page-title"
            className="mt-3 text-3xl font-bold leading-tight text-balance sm:text-4xl"
          >
            {title}
          </h1>
          <div className="mt-4 text-base leading-7 text-white/80 sm:text-lg">{intro}</div>
          {updated ? (
            <p className="mt-5 text-xs text-muted">
              Last updated <time dateTime={updated.iso}>{updated.text}</time>
            </p>
          ) : null}
          {actions ? <div className="mt-6 flex flex-wrap gap-3">{actions}</div> : null}
        </div>
      </header>
      <div
        className={`mt-8 sm:mt-10 ${toc ? 'lg:grid lg:grid-cols-[13rem_minmax(0,1fr)] lg:gap-10' : ''}`}
      >
        {toc ? <TableOfContents entries={toc} /> : null}
        <div className="min-w-0">{children}</div>
      </div>
    </article>
  );
}

/** A titled part of a static page; its id is the anchor the table of contents links to. */
export function Section({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      className="scroll-mt-24 border-t border-line py-8 first:border-t-0 first:pt-0"
    >
      <h2 id={`${id}-title`} className="mb-4 text-xl font-bold text-balance sm:text-2xl">
        {title}
      </h2>
      <div className={`max-w-prose ${proseClass}`}>{children}</div>
    </section>
  );
}

/** A highlighted note inside a section (key fact, warning or tip). */
export function Callout({
  tone = 'accent',
  children,
}: {
  tone?: 'accent' | 'wallet' | 'vip';
  children: ReactNode;
}) {
  const tones = {
    accent: 'border-accent/40 bg-accent/5',
    wallet: 'border-wallet/40 bg-wallet/5',
    vip: 'border-vip/40 bg-vip/5',
  };
  return <div className={`rounded-2xl border px-4 py-3 ${tones[tone]}`}>{children}</div>;
}
