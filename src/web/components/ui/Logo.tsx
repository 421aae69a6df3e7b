import { Link } from 'wouter';

export function Logo({ href = '/' }: { href?: string }) {
  return (
    <Link
      href={href}
      className="flex items-center gap-2 text-lg font-bold tracking-tight"
      aria-label="Pluckers home"
    >
      <svg aria-hidden="true" viewBox="0 0 64 64" className="size-8">
        <rect width="64" height="64" rx="14" fill="#1a1a1a" />
        <circle cx="32" cy="32" r="20" fill="none" stroke="#00DAE4" strokeWidth="6" />
        <path d="M26 20h9a8 8 0 0 1 0 16h-5v9h-4z" fill="#00FF85" />
      </svg>
      <span>
        Pluck<span className="text-accent">ers</span>
      </span>
    </Link>
  );
}
