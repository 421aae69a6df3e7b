import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { usePendingWithdrawalCount } from '../api/get-withdrawals.ts';

interface Section {
  href: string;
  label: string;
  icon: string;
}

export const CONSOLE_SECTIONS: Section[] = [
  // Absolute, so the address is /admin rather than /admin/.
  { href: '~/admin', label: 'Dashboard', icon: '📊' },
  { href: '/games', label: 'Games', icon: '🎯' },
  { href: '/withdrawals', label: 'Withdrawals', icon: '💸' },
  { href: '/held-payments', label: 'Held payments', icon: '⏸️' },
  { href: '/kyc', label: 'Identity documents', icon: '🪪' },
  { href: '/users', label: 'Users', icon: '👥' },
  { href: '/plans', label: 'Plans', icon: '⭐' },
  { href: '/categories', label: 'Categories', icon: '🏷️' },
  { href: '/settings', label: 'Settings', icon: '⚙️' },
  { href: '/support', label: 'Support', icon: '💬' },
  { href: '/audit', label: 'Audit log', icon: '📜' },
  { href: '/sandbox-payments', label: 'Sandbox payments', icon: '🧪' },
];

function isCurrent(location: string, href: string): boolean {
  const here = location.toLowerCase();
  return href === '~/admin' ? here === '/' : here === href || here.startsWith(`${href}/`);
}

/**
 * The console's sections: a column beside the page on a laptop, a row of pills that scrolls
 * sideways on a phone. Links are relative to /admin (the console's nested router).
 */
export function AdminNav() {
  const [location] = useLocation();
  const pending = usePendingWithdrawalCount();
  const strip = useRef<HTMLUListElement>(null);
  const [more, setMore] = useState({ left: false, right: false });
  const measure = useCallback(() => {
    const list = strip.current;
    if (!list) return;
    const { scrollLeft, scrollWidth, clientWidth } = list;
    setMore({ left: scrollLeft > 4, right: scrollLeft + clientWidth < scrollWidth - 4 });
  }, []);
  // The current section in view on a phone (Withdrawals, Audit… sit beyond the first screen).
  const showCurrent = useCallback(() => {
    const list = strip.current;
    const current = list?.querySelector<HTMLElement>('[aria-current="page"]');
    if (list && current && list.scrollWidth > list.clientWidth) {
      list.scrollLeft = placeFor(list, current);
    }
    measure();
  }, [measure]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run when the section changes.
  useLayoutEffect(showCurrent, [location, showCurrent]);
  // The pills' widths change once the font and emoji load (sizes only change then, never on
  // the player's own scrolling): place the current one again.
  useEffect(() => {
    const list = strip.current;
    if (!list || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(showCurrent);
    observer.observe(list);
    for (const item of list.children) observer.observe(item);
    return () => observer.disconnect();
  }, [showCurrent]);
  return (
    <nav aria-label="Console" className="-mx-4 flex lg:mx-0 lg:block">
      {/*
       * On a phone the pills scroll sideways. The arrows that say there is more sit in gutters
       * of their own beside the strip, so they never cover a pill's icon or label; the gutters
       * are kept while an arrow is hidden, so the strip does not change width as it scrolls.
       */}
      <ScrollHint side="left" shown={more.left} />
      <ul
        ref={strip}
        onScroll={measure}
        data-scroll-strip
        className="relative flex min-w-0 flex-1 gap-2 overflow-x-auto pb-1 [scrollbar-width:none] lg:flex-col lg:gap-1 lg:overflow-visible lg:pb-0"
      >
        {CONSOLE_SECTIONS.map((section) => (
          <li key={section.href} className="shrink-0">
            <Link
              href={section.href}
              aria-current={isCurrent(location, section.href) ? 'page' : undefined}
              className="flex min-h-11 items-center gap-2.5 rounded-xl border border-line bg-card px-3.5 text-sm font-medium whitespace-nowrap text-white/85 hover:border-accent/60 hover:text-white aria-[current=page]:border-accent aria-[current=page]:bg-accent/10 aria-[current=page]:text-accent lg:border-transparent lg:bg-transparent"
            >
              <span aria-hidden="true">{section.icon}</span>
              {section.label}
              {section.href === '/withdrawals' && pending > 0 ? (
                <span className="ml-auto grid min-w-5 place-items-center rounded-full bg-wallet px-1.5 text-[11px] font-bold text-black">
                  {pending}
                  <span className="sr-only"> pending</span>
                </span>
              ) : null}
            </Link>
          </li>
        ))}
      </ul>
      <ScrollHint side="right" shown={more.right} />
    </nav>
  );
}

/**
 * Where to scroll the strip so `current` shows whole: near the middle, but starting at a pill's
 * edge where one such start keeps it whole, so the strip's left edge cuts no pill in half.
 */
function placeFor(list: HTMLElement, current: HTMLElement): number {
  const centred = current.offsetLeft - (list.clientWidth - current.offsetWidth) / 2;
  const starts = [...list.children]
    .map((item) => (item as HTMLElement).offsetLeft)
    .filter(
      (start) =>
        start <= current.offsetLeft &&
        start + list.clientWidth >= current.offsetLeft + current.offsetWidth,
    );
  if (starts.length === 0) return centred;
  return starts.reduce((best, start) =>
    Math.abs(start - centred) < Math.abs(best - centred) ? start : best,
  );
}

/** A gutter beside the pill strip, with an arrow when more pills lie that way. */
function ScrollHint({ side, shown }: { side: 'left' | 'right'; shown: boolean }) {
  return (
    <span
      aria-hidden="true"
      data-scroll-hint={shown ? side : undefined}
      className={`flex w-6 shrink-0 items-center pb-1 text-accent lg:hidden ${side === 'right' ? 'justify-start' : 'justify-end'}`}
    >
      {shown ? (
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="size-5"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.5"
          strokeLinecap="round"
        >
          <path d={side === 'right' ? 'M9 6l6 6-6 6' : 'M15 6l-6 6 6 6'} />
        </svg>
      ) : null}
    </span>
  );
}
