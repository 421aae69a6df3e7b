import { ERROR_MESSAGES } from '@shared/messages.ts';
import { formatNaira } from '@shared/money.ts';
import type { Pagination as PageInfo } from '@shared/schemas/common.ts';
import type { UseQueryResult } from '@tanstack/react-query';
import { Button } from '@web/components/ui/Button.tsx';
import { DateTime } from '@web/components/ui/DateTime.tsx';
import { Loading } from '@web/components/ui/LoadingState.tsx';
import { Pagination } from '@web/components/ui/Pagination.tsx';
import { useErrorToast } from '@web/components/ui/useErrorToast.ts';
import { type ReactNode, useRef, useState } from 'react';
import { statusLook } from '../lib/status.ts';
import { StatusBadge, StatusIcon } from './StatusBadge.tsx';

interface HistorySectionProps<T, D> {
  id: string;
  title: string;
  /** The feature's query hook for one page (called here, with the page this list is on). */
  usePage: (page: number) => UseQueryResult<D>;
  itemsOf: (data: D) => T[];
  emptyTitle: string;
  emptyText: string;
  renderItem: (item: T) => ReactNode;
  itemKey: (item: T) => string;
}

/** A page-based history list (payments or withdrawals) with its loading, empty and error states. */
export function HistorySection<T, D extends { pagination: PageInfo }>({
  id,
  title,
  usePage,
  itemsOf,
  emptyTitle,
  emptyText,
  renderItem,
  itemKey,
}: HistorySectionProps<T, D>) {
  const [page, onPageChange] = useState(1);
  const query = usePage(page);
  const items = query.data ? itemsOf(query.data) : undefined;
  const pagination = query.data?.pagination;
  const { isPending, error } = query;
  const isFetching = query.isFetching && query.isPlaceholderData;
  const onRetry = () => void query.refetch();
  // docs/product.md#errors: the server's message as a toast, otherwise 'Something went wrong'.
  useErrorToast(error, ERROR_MESSAGES.generic, `${id}-error`);
  const titleId = `${id}-title`;
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The tapped button may turn disabled on the last page: keep focus, and the eye, on the list.
  const changePage = (next: number) => {
    onPageChange(next);
    headingRef.current?.focus();
  };

  let body: ReactNode;
  if (isPending) {
    body = (
      <div className="grid min-h-48 place-items-center">
        <Loading label={`Loading ${title.toLowerCase()}`} className="size-7" />
      </div>
    );
  } else if (error && !items) {
    body = (
      <div className="flex min-h-48 flex-col items-center justify-center gap-3 text-center">
        <p className="font-semibold">{ERROR_MESSAGES.genericOops}</p>
        <p className="text-sm text-muted">We could not load your {title.toLowerCase()}.</p>
        <Button variant="outline" onClick={onRetry}>
          Try again
        </Button>
      </div>
    );
  } else if (!items || items.length === 0) {
    body = (
      <div className="flex min-h-48 flex-col items-center justify-center gap-2 rounded-xl border border-dashed border-line px-4 py-8 text-center">
        <span aria-hidden="true" className="text-3xl">
          🧾
        </span>
        <p className="font-semibold">{emptyTitle}</p>
        <p className="max-w-xs text-sm text-muted">{emptyText}</p>
      </div>
    );
  } else {
    body = (
      <ul
        aria-labelledby={titleId}
        aria-busy={isFetching || undefined}
        className={`flex flex-col divide-y divide-line transition-opacity ${isFetching ? 'opacity-60' : ''}`}
      >
        {items.map((item) => (
          <li key={itemKey(item)} className="py-3 first:pt-0 last:pb-0">
            {renderItem(item)}
          </li>
        ))}
      </ul>
    );
  }

  return (
    <section aria-labelledby={titleId} className="rounded-2xl border border-line bg-card p-5">
      <div className="mb-4 flex items-center justify-between gap-3">
        <h2 id={titleId} ref={headingRef} tabIndex={-1} className="text-lg font-bold">
          {title}
        </h2>
        {pagination && pagination.totalResults > 0 ? (
          <span className="text-xs text-muted">
            {pagination.totalResults} {pagination.totalResults === 1 ? 'entry' : 'entries'}
          </span>
        ) : null}
      </div>
      {body}
      {pagination ? (
        <Pagination
          page={page}
          totalPages={pagination.totalPages}
          onChange={changePage}
          label={`${title} pages`}
          busy={isFetching}
        />
      ) : null}
    </section>
  );
}

/**
 * A history row's receipt, folded away under it: its reference (what support and the provider
 * know it by) and the rest of what the server recorded. A native <details>, so it opens by
 * keyboard and screen readers announce it as expandable.
 */
function ReceiptDisclosure({ children }: { children: ReactNode }) {
  // Drawn only while open: a closed receipt adds nothing to the page (or to its text).
  const [open, setOpen] = useState(false);
  return (
    <details
      className="group mt-1 min-[380px]:ml-13"
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary className="inline-flex min-h-11 cursor-pointer list-none items-center gap-1.5 text-xs font-semibold text-accent hover:underline [&::-webkit-details-marker]:hidden">
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="size-4 transition-transform group-open:rotate-90"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.2"
        >
          <path d="M9 6l6 6-6 6" />
        </svg>
        Receipt
      </summary>
      {open ? <div className="mt-1 pb-1">{children}</div> : null}
    </details>
  );
}

/**
 * One movement of money in a history: its status icon, amount and a line of detail ending in
 * when it started, the status badge, and the receipt behind a disclosure.
 */
export function HistoryItem({
  status,
  amount,
  detail,
  createdAt,
  receipt,
}: {
  status: string;
  amount: number;
  /** What comes before the date on the second line (the method, the fee). */
  detail: string;
  createdAt: string;
  receipt: ReactNode;
}) {
  const look = statusLook(status);
  return (
    <div>
      <div className="flex items-center gap-3">
        <span
          className={`hidden size-10 shrink-0 place-items-center rounded-full bg-white/5 min-[380px]:grid ${look.textClass}`}
        >
          <StatusIcon kind={look.icon} className="size-5" />
        </span>
        <div className="min-w-0 flex-1">
          <p className="font-bold">{formatNaira(amount)}</p>
          <p className="text-xs break-words text-muted">
            {detail} · <DateTime value={createdAt} />
          </p>
        </div>
        <StatusBadge status={status} />
      </div>
      <ReceiptDisclosure>{receipt}</ReceiptDisclosure>
    </div>
  );
}
