import type { ReactNode } from 'react';

/** Header and cell classes shared by every console table. */
export const th =
  'px-3 py-2.5 text-left text-xs font-semibold tracking-wider text-muted uppercase whitespace-nowrap';
export const td = 'px-3 py-3 align-top text-sm';
export const tdNumber = `${td} text-right tabular-nums whitespace-nowrap`;
export const thNumber = `${th} text-right`;

/**
 * A table that scrolls sideways inside its card on narrow screens instead of widening the
 * page. The scrolling region is focusable and named so keyboard users can scroll it too. It is
 * positioned so visually hidden (absolute) captions and labels are clipped with the rest of the
 * table instead of widening the page.
 */
export function DataTable({
  label,
  children,
  minWidth = 'min-w-[40rem]',
  stacked = false,
}: {
  /** Names the table (caption) and its scrolling region. */
  label: string;
  children: ReactNode;
  minWidth?: string;
  /**
   * Below the `sm` breakpoint the rows become cards (the page styles its rows and cells with
   * `max-sm:` classes, and gives a `sm:` minimum width) instead of a table to scroll sideways.
   */
  stacked?: boolean;
}) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
      tabIndex={0}
      className="relative overflow-x-auto rounded-2xl border border-line bg-card focus-visible:outline-accent"
    >
      <table className={`w-full border-collapse ${stacked ? 'max-sm:block' : ''} ${minWidth}`}>
        <caption className="sr-only">{label}</caption>
        {children}
      </table>
    </section>
  );
}

/** A table body row with the console's divider and hover. */
export function Row({ children, className = '' }: { children: ReactNode; className?: string }) {
  return <tr className={`border-t border-line hover:bg-white/[0.03] ${className}`}>{children}</tr>;
}
