import { Link, useLocation } from 'wouter';
import { usePendingWithdrawalCount } from '../api/get-withdrawals.ts';

interface Section {
  href: string;
  label: string;
  icon: string;
}

const SECTIONS: Section[] = [
  // Absolute, so the address is /admin rather than /admin/.
  { href: '~/admin', label: 'Dashboard', icon: '📊' },
  { href: '/games', label: 'Games', icon: '🎯' },
  { href: '/withdrawals', label: 'Withdrawals', icon: '💸' },
  { href: '/kyc', label: 'Identity documents', icon: '🪪' },
  { href: '/users', label: 'Users', icon: '👥' },
  { href: '/plans', label: 'Plans', icon: '⭐' },
  { href: '/categories', label: 'Categories', icon: '🏷️' },
  { href: '/settings', label: 'Settings', icon: '⚙️' },
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
  return (
    <nav aria-label="Console" className="-mx-4 lg:mx-0">
      <ul className="relative flex gap-2 overflow-x-auto px-4 pb-1 lg:flex-col lg:gap-1 lg:overflow-visible lg:px-0 lg:pb-0">
        {SECTIONS.map((section) => (
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
    </nav>
  );
}
