import type { StatusIconKind } from '../lib/status.ts';
import { statusLook } from '../lib/status.ts';

export function StatusIcon({
  kind,
  className = 'size-4',
}: {
  kind: StatusIconKind;
  className?: string;
}) {
  return (
    <svg
      aria-hidden="true"
      data-icon={kind}
      viewBox="0 0 24 24"
      className={`${className} shrink-0`}
      fill="none"
      stroke="currentColor"
      strokeWidth="2.2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <circle cx="12" cy="12" r="9.5" />
      {kind === 'check' ? (
        <path d="M7.8 12.3l2.9 2.9 5.5-5.8" />
      ) : (
        <path d="M12 11v5.5M12 7.6v.1" />
      )}
    </svg>
  );
}

/** A payment or withdrawal status: icon and colour of docs/product.md#states, and the status in words. */
export function StatusBadge({ status }: { status: string }) {
  const look = statusLook(status);
  return (
    <span
      data-tone={look.tone}
      className={`inline-flex shrink-0 items-center gap-1.5 rounded-full border px-2.5 py-1 text-xs font-bold ${look.pillClass} ${look.textClass}`}
    >
      <StatusIcon kind={look.icon} className="size-3.5" />
      {look.label}
    </span>
  );
}
