import { formatNaira } from '@shared/money.ts';
import { Avatar } from '@web/components/ui/Avatar.tsx';
import { Logo } from '@web/components/ui/Logo.tsx';
import { VerifiedTick } from '@web/components/ui/VerifiedTick.tsx';
import { useNotifications } from '@web/features/notifications/api/get-notifications.ts';
import { pollEvery } from '@web/lib/data-saver.ts';
import { logout, useSession } from '@web/lib/session.ts';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';

interface NavLink {
  href: string;
  label: string;
  /** Other pages of the same place, lower-case: the link stays current on them. */
  also?: string[];
}

function navLinks(hasPlan: boolean, isAdmin: boolean): NavLink[] {
  return [
    { href: '/Home', label: 'Home' },
    { href: '/Leaderboard', label: 'Leaderboard' },
    { href: '/Tournament', label: 'Tournament' },
    // Operators get the console in place of the VIP upsell: the bar has room for one of them.
    ...(hasPlan || isAdmin ? [] : [{ href: '/Pricing', label: 'Go VIP' }]),
    { href: '/MySubmissions', label: 'My submissions' },
    { href: '/topup', label: 'Wallet', also: ['/wallet', '/withdrawfunds', '/paymentstatus'] },
    // Operators only (docs/product.md#operators); the console itself also sends anyone else away.
    ...(isAdmin ? [{ href: '/admin', label: 'Admin' }] : []),
  ];
}

const UNREAD_POLL_MS = 60_000;

function isActive(location: string, { href, also }: NavLink): boolean {
  const here = location.toLowerCase();
  const target = href.toLowerCase();
  if (target === '/admin') return here === target || here.startsWith('/admin/');
  return here === target || (target === '/home' && here === '/') || Boolean(also?.includes(here));
}

function NotificationBell() {
  const { data } = useNotifications(1, { refetchInterval: pollEvery(UNREAD_POLL_MS) });
  const unread = data?.unreadCount ?? 0;
  return (
    <Link
      href="/Notifications"
      className="relative grid size-11 place-items-center rounded-full hover:bg-white/10"
      aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="size-6"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
      >
        <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      </svg>
      {unread > 0 ? (
        <span
          aria-hidden="true"
          className="absolute top-1 right-1 grid min-w-5 place-items-center rounded-full bg-wallet px-1 text-[11px] font-bold text-black"
        >
          {unread > 99 ? '99+' : unread}
        </span>
      ) : null}
    </Link>
  );
}

/** Says so while the server is told, which a slow line can stretch to seconds. */
function LogoutButton({ className }: { className: string }) {
  const loggingOut = useSession((session) => session.loggingOut);
  return (
    <button
      type="button"
      onClick={() => void logout()}
      aria-disabled={loggingOut || undefined}
      className={`${className} aria-disabled:cursor-wait aria-disabled:opacity-70`}
    >
      {loggingOut ? 'Logging out…' : 'Log out'}
    </button>
  );
}

export function Navbar() {
  const user = useSession((session) => session.user);
  const [location] = useLocation();
  // The menu belongs to the page it was opened on, so navigating closes it.
  const [menuOpenedAt, setMenuOpenedAt] = useState<string | null>(null);
  const menuOpen = menuOpenedAt === location;

  // Before the session is restored (the prerendered shell) the bar has the same height and
  // links; the balance, the player and the menu's header come in beside them, moving nothing.
  const links = navLinks(Boolean(user?.planID), user?.role === 'admin');

  return (
    <header className="sticky top-0 z-30 border-b border-line bg-page/95 backdrop-blur">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:rounded focus:bg-accent focus:px-3 focus:py-2 focus:text-black"
      >
        Skip to content
      </a>
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-3 px-4">
        <Logo href="/Home" />
        <nav aria-label="Main" className="ml-2 hidden lg:block">
          <ul className="flex items-center">
            {links.map((link) => (
              <li key={link.href}>
                <Link
                  href={link.href}
                  aria-current={isActive(location, link) ? 'page' : undefined}
                  className={`rounded-lg px-2.5 py-2 text-sm font-medium whitespace-nowrap hover:text-accent aria-[current=page]:text-accent ${
                    link.href === '/Pricing' ? 'text-vip' : 'text-white/85'
                  }`}
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        {/* Growing leftwards from a fixed start, so the balance coming in moves nothing. */}
        <div className="flex flex-1 items-center justify-end gap-1 sm:gap-2">
          {user ? (
            <Link
              href="/withdrawfunds"
              className="rounded-full border border-wallet/40 bg-wallet/10 px-3 py-2 text-sm font-bold whitespace-nowrap text-wallet hover:bg-wallet/20"
              aria-label={`Balance ${formatNaira(user.accountBalance)}, withdraw funds`}
            >
              {formatNaira(user.accountBalance)}
            </Link>
          ) : null}
          <NotificationBell />
          {user ? (
            <Link
              href="/Profile"
              className="hidden items-center gap-2 rounded-full py-1 pr-3 pl-1 hover:bg-white/10 sm:flex"
            >
              <Avatar src={user.profilePhoto} name={user.username} />
              <span className="flex flex-col leading-tight">
                <span className="flex items-center gap-1 text-sm font-semibold">
                  {/* Whole at laptop widths (a name is at most plucker_ + 20 characters). */}
                  <span className="max-w-32 truncate xl:max-w-none">{user.username}</span>
                  {user.isVerified ? <VerifiedTick /> : null}
                </span>
                <span className="text-[11px] font-bold tracking-wider text-accent">
                  LEVEL {user.level}
                </span>
              </span>
            </Link>
          ) : null}
          <LogoutButton className="hidden min-h-11 rounded-lg px-3 text-sm whitespace-nowrap text-muted hover:text-danger lg:block" />
          <button
            type="button"
            className="grid size-11 place-items-center rounded-lg hover:bg-white/10 lg:hidden"
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            onClick={() => setMenuOpenedAt(menuOpen ? null : location)}
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="size-6"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              {menuOpen ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
            </svg>
          </button>
        </div>
      </div>
      {menuOpen ? (
        <nav
          id="mobile-menu"
          aria-label="Mobile"
          className="border-t border-line bg-page lg:hidden"
        >
          {user ? (
            <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-3">
              <Avatar src={user.profilePhoto} name={user.username} />
              <div className="min-w-0">
                <p className="flex items-center gap-1 font-semibold">
                  <span className="truncate">{user.username}</span>
                  {user.isVerified ? <VerifiedTick /> : null}
                </p>
                <p className="text-xs font-bold tracking-wider text-accent">LEVEL {user.level}</p>
              </div>
            </div>
          ) : null}
          <ul className="mx-auto max-w-6xl px-2 pb-3">
            {[
              ...links,
              { href: '/withdrawfunds', label: 'Withdraw funds' },
              { href: '/Profile', label: 'Profile' },
              { href: '/Notifications', label: 'Notifications' },
            ].map((link) => (
              <li key={link.href}>
                <Link
                  href={link.href}
                  aria-current={isActive(location, link) ? 'page' : undefined}
                  className={`flex min-h-12 items-center rounded-lg px-3 font-medium hover:bg-white/5 aria-[current=page]:text-accent ${
                    link.href === '/Pricing' ? 'text-vip' : ''
                  }`}
                >
                  {link.label}
                </Link>
              </li>
            ))}
            <li>
              <LogoutButton className="flex min-h-12 w-full items-center rounded-lg px-3 font-medium text-danger hover:bg-white/5" />
            </li>
          </ul>
        </nav>
      ) : null}
    </header>
  );
}
