import { formatDate } from '@shared/date.ts';
import { formatNaira } from '@shared/money.ts';
import type { Payment } from '@shared/schemas/wallet.ts';
import { useState } from 'react';
import { usePayments } from '../api/get-payments.ts';
import { statusLook } from '../lib/status.ts';
import { PAYMENT_METHOD_LABELS } from '../lib/top-up.ts';
import { HistorySection, ReceiptDisclosure } from './HistorySection.tsx';
import { ReceiptFacts } from './ReceiptFacts.tsx';
import { StatusBadge, StatusIcon } from './StatusBadge.tsx';

function methodLabel(method: string): string {
  return PAYMENT_METHOD_LABELS[method as keyof typeof PAYMENT_METHOD_LABELS] ?? method;
}

function PaymentRow({ payment }: { payment: Payment }) {
  const look = statusLook(payment.status);
  return (
    <div>
      <div className="flex items-center gap-3">
        <span
          className={`hidden size-10 shrink-0 place-items-center rounded-full bg-white/5 min-[380px]:grid ${look.textClass}`}
        >
          <StatusIcon kind={look.icon} className="size-5" />
        </span>
        <div className="min-w-0 flex-1">
          <p className="font-bold">{formatNaira(payment.amount)}</p>
          <p className="text-xs break-words text-muted">
            {methodLabel(payment.paymentMethod)} ·{' '}
            <time dateTime={payment.createdAt}>{formatDate(payment.createdAt)}</time>
          </p>
        </div>
        <StatusBadge status={payment.status} />
      </div>
      <ReceiptDisclosure>
        <ReceiptFacts
          facts={[
            { label: 'Reference', value: payment.reference, code: true },
            { label: 'Amount', value: formatNaira(payment.amount) },
            { label: 'Method', value: methodLabel(payment.paymentMethod) },
            { label: 'Status', value: <StatusBadge status={payment.status} /> },
            {
              label: 'Started',
              value: <time dateTime={payment.createdAt}>{formatDate(payment.createdAt)}</time>,
            },
          ]}
        />
      </ReceiptDisclosure>
    </div>
  );
}

/** docs/product.md#screens /TopUp: the player's top-ups, newest first, page by page. */
export function PaymentHistory() {
  const [page, setPage] = useState(1);
  const query = usePayments(page);
  return (
    <HistorySection
      id="payment-history"
      title="Payment history"
      items={query.data?.payments}
      pagination={query.data?.pagination}
      page={page}
      onPageChange={setPage}
      isPending={query.isPending}
      isFetching={query.isFetching && query.isPlaceholderData}
      error={query.error}
      onRetry={() => void query.refetch()}
      emptyTitle="No top-ups yet"
      emptyText="Your card top-ups will show here, with their status."
      itemKey={(payment) => payment.id}
      renderItem={(payment) => <PaymentRow payment={payment} />}
    />
  );
}
