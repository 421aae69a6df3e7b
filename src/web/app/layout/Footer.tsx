import { Logo } from '@web/components/ui/Logo.tsx';
import { Link } from 'wouter';

const FOOTER_LINKS = [
  { href: '/Home', label: 'Home' },
  { href: '/Pricing', label: 'Pricing' },
  { href: '/TopUp', label: 'Top up' },
  { href: '/Profile', label: 'Profile' },
  { href: '/ResponsiblePlay', label: 'Responsible play' },
  { href: '/Terms', label: 'Terms' },
  { href: '/Privacy', label: 'Privacy' },
  { href: '/GameRules', label: 'Game rules' },
  { href: '/Fairness', label: 'Fairness' },
  { href: '/SupportCenter', label: 'Contact' },
];

const SOCIAL_LINKS = [
  {
    href: 'https://x.com/pluckersng',
    label: 'Pluckers on X',
    path: 'M17.8 3h3.1l-6.8 7.7L22 21h-6.2l-4.9-6.4L5.3 21H2.2l7.2-8.3L1.8 3h6.4l4.4 5.8zm-1.1 16.2h1.7L7.4 4.7H5.6z',
  },
  {
    href: 'https://www.instagram.com/pluckersng',
    label: 'Pluckers on Instagram',
    path: 'M12 7.3A4.7 4.7 0 1 0 12 16.7 4.7 4.7 0 0 0 12 7.3zm0 7.7a3 3 0 1 1 0-6 3 3 0 0 1 0 6zm6-7.9a1.1 1.1 0 1 1-2.2 0 1.1 1.1 0 0 1 2.2 0zM12 3.6c2.7 0 3 0 4.1.1 2.7.1 4 1.4 4.1 4.1.1 1.1.1 1.4.1 4.1s0 3-.1 4.1c-.1 2.7-1.4 4-4.1 4.1-1.1.1-1.4.1-4.1.1s-3 0-4.1-.1c-2.7-.1-4-1.4-4.1-4.1-.1-1.1-.1-1.4-.1-4.1s0-3 .1-4.1C3.9 5.1 5.2 3.8 7.9 3.7c1.1-.1 1.4-.1 4.1-.1z',
  },
  {
    href: 'https://www.facebook.com/pluckersng',
    label: 'Pluckers on Facebook',
    path: 'M13.5 21v-7.5h2.5l.4-3h-2.9V8.6c0-.9.3-1.5 1.5-1.5h1.5V4.4c-.3 0-1.2-.1-2.2-.1-2.2 0-3.7 1.3-3.7 3.8v2.3H8v3h2.6V21z',
  },
];

export function Footer() {
  return (
    <footer className="mt-16 border-t border-line bg-card/60">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-[1.2fr_2fr]">
        <div className="space-y-3">
          <Logo href="/Home" />
          <p className="max-w-xs text-sm text-muted">
            Answer simple questions, feed your wallet. One in five players wins, picked by software
            anyone can check. Players must be 18 or over.
          </p>
          <ul className="flex gap-3" aria-label="Social networks">
            {SOCIAL_LINKS.map((social) => (
              <li key={social.href}>
                <a
                  href={social.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="grid size-11 place-items-center rounded-full border border-line text-muted hover:border-accent hover:text-accent"
                >
                  <svg
                    aria-hidden="true"
                    viewBox="0 0 24 24"
                    className="size-5"
                    fill="currentColor"
                  >
                    <path d={social.path} />
                  </svg>
                  <span className="sr-only">{social.label}</span>
                </a>
              </li>
            ))}
          </ul>
        </div>
        <nav aria-label="Footer">
          <ul className="grid grid-cols-2 gap-x-6 gap-y-1 sm:grid-cols-4">
            {FOOTER_LINKS.map((link) => (
              <li key={link.href}>
                <Link
                  href={link.href}
                  className="inline-flex min-h-11 items-center text-sm text-muted hover:text-accent"
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      {/* The prerendered pages carry the build's year; the browser's may be a later one. */}
      <p
        suppressHydrationWarning
        className="border-t border-line px-4 py-4 text-center text-xs text-muted"
      >
        © {new Date().getFullYear()} Pluckers. Play responsibly.
      </p>
    </footer>
  );
}
