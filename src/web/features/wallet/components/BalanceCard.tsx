import { formatNaira } from '@shared/money.ts';
import { useSession } from '@web/lib/session.ts';
import { Link } from 'wouter';

interface BalanceCardProps {
  /**
   * The other wallet page: Withdraw from the top-up page, Top up from the wallet page (none
   * during a break).
   */
  action: { href: string; label: string } | undefined;
}

/** The player's wallet balance, in the wallet yellow of docs/product.md#look-and-feel. */
export function BalanceCard({ action }: BalanceCardProps) {
  const balance = useSession((session) => session.user?.accountBalance ?? 0);
  return (
    <section
      aria-labelledby="balance-title"
      className="relative overflow-hidden rounded-2xl border border-wallet/40 bg-gradient-to-br from-wallet/15 via-card to-card p-5"
    >
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -top-20 -right-16 size-48 rounded-full bg-wallet/15 blur-3xl"
      />
      <div className="relative flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h2
            id="balance-title"
            className="flex items-center gap-2 text-sm font-medium text-white/80"
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="size-5 text-wallet"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
            >
              <path d="M3 7.5A2.5 2.5 0 0 1 5.5 5H18v3M3 7.5v10A2.5 2.5 0 0 0 5.5 20H21V8H5.5A2.5 2.5 0 0 1 3 5.5" />
              <circle cx="16.5" cy="14" r="1.3" fill="currentColor" stroke="none" />
            </svg>
            Wallet balance
          </h2>
          <p
            className="mt-1 text-4xl font-bold tracking-tight break-all text-wallet"
            aria-live="polite"
          >
            {formatNaira(balance)}
          </p>
        </div>
        {action ? (
          <Link
            href={action.href}
            className="inline-flex min-h-11 items-center rounded-xl border border-wallet/50 px-4 text-sm font-semibold text-wallet hover:bg-wallet/10"
          >
            {action.label}
          </Link>
        ) : null}
      </div>
    </section>
  );
}
