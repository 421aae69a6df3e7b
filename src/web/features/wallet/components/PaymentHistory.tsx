import { formatNaira } from '@shared/money.ts';
import type { Payment } from '@shared/schemas/wallet.ts';
import { DateTime } from '@web/components/ui/DateTime.tsx';
import { usePayments } from '../api/get-payments.ts';
import { PAYMENT_METHOD_LABELS } from '../lib/top-up.ts';
import { HistoryItem, HistorySection } from './HistorySection.tsx';
import { ReceiptFacts } from './ReceiptFacts.tsx';
import { StatusBadge } from './StatusBadge.tsx';

function methodLabel(method: string): string {
  return PAYMENT_METHOD_LABELS[method as keyof typeof PAYMENT_METHOD_LABELS] ?? method;
}

/** "Bank transfer from CHIDI EZE (Access Bank)", or the card provider's name. */
function paymentDetail(payment: Payment): string {
  if (payment.channel !== 'bank_transfer') return methodLabel(payment.paymentMethod);
  if (!payment.senderName) return 'Bank transfer';
  return `Bank transfer from ${payment.senderName}${payment.senderBank ? ` (${payment.senderBank})` : ''}`;
}

function PaymentRow({ payment }: { payment: Payment }) {
  const transfer = payment.channel === 'bank_transfer';
  return (
    <HistoryItem
      status={payment.status}
      amount={payment.amount}
      detail={paymentDetail(payment)}
      createdAt={payment.createdAt}
      receipt={
        <ReceiptFacts
          facts={[
            { label: 'Reference', value: payment.reference, code: true },
            { label: 'Amount', value: formatNaira(payment.amount) },
            {
              label: 'Method',
              value: transfer
                ? `Bank transfer (${methodLabel(payment.paymentMethod)})`
                : methodLabel(payment.paymentMethod),
            },
            ...(transfer && payment.senderName
              ? [{ label: 'Sender', value: payment.senderName }]
              : []),
            ...(transfer && payment.senderBank
              ? [{ label: "Sender's bank", value: payment.senderBank }]
              : []),
            { label: 'Status', value: <StatusBadge status={payment.status} /> },
            // A top-up that landed past a deposit limit: where its money is now.
            ...(payment.note ? [{ label: 'What happened', value: payment.note }] : []),
            {
              label: 'Started',
              value: <DateTime value={payment.createdAt} />,
            },
          ]}
        />
      }
    />
  );
}

/** docs/product.md#screens /TopUp: the player's top-ups, newest first, page by page. */
export function PaymentHistory() {
  return (
    <HistorySection
      id="payment-history"
      title="Payment history"
      usePage={usePayments}
      itemsOf={(data) => data.payments}
      emptyTitle="No top-ups yet"
      emptyText="Your top-ups by card and bank transfer will show here, with their status."
      itemKey={(payment) => payment.id}
      renderItem={(payment) => <PaymentRow payment={payment} />}
    />
  );
}
