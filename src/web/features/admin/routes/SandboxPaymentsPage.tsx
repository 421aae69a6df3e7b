import { formatDate } from '@shared/date.ts';
import { formatNaira } from '@shared/money.ts';
import { type SandboxPayment, sandboxReviewBodySchema } from '@shared/schemas/admin.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { DateTime } from '@web/components/ui/DateTime.tsx';
import { EmptyState } from '@web/components/ui/EmptyState.tsx';
import { PageHeader } from '@web/components/ui/PageHeader.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { toast } from '@web/lib/toast.tsx';
import { useState } from 'react';
import { z } from 'zod';
import { useSandboxPayments } from '../api/get-sandbox-payments.ts';
import { useReviewSandboxPayment } from '../api/review-sandbox-payment.ts';
import { ColumnTable, type TableSpec } from '../components/DataTable.tsx';
import { ReasonDialog } from '../components/dialogs.tsx';
import { paymentColumns } from '../components/payment-columns.tsx';
import { LoadError, Loading } from '../components/QueryStates.tsx';

/** The review note, checked by the same shared rule as the server (the dialog calls it a reason). */
const noteSchema = z.object({ reason: sandboxReviewBodySchema.shape.note });

/** The sandbox top-ups' columns; `onReview` opens the review dialog for one. */
function sandboxTable(onReview: (payment: SandboxPayment) => void): TableSpec<SandboxPayment> {
  return {
    label: 'Sandbox top-ups',
    minWidth: 'sm:min-w-[48rem]',
    rowKey: (payment) => payment.reference,
    // One-line rows beside a full-size button: centred, so the text lines up with it.
    alignMiddle: true,
    columns: [
      {
        header: 'When',
        className: 'whitespace-nowrap text-muted',
        cell: (payment) => <DateTime value={payment.createdAt} />,
      },
      ...paymentColumns<SandboxPayment>(),
      {
        header: 'Review',
        cell: (payment) =>
          payment.reviewedAt ? (
            <span className="text-white/80">
              Reviewed {formatDate(payment.reviewedAt)}: {payment.reviewNote}
            </span>
          ) : (
            <Button variant="outline" onClick={() => onReview(payment)}>
              Mark reviewed
            </Button>
          ),
      },
    ],
  };
}

/**
 * Successful top-ups made through the payments sandbox: test money. In a live system each one
 * fails the ledger check and pauses every payout until an operator has dealt with it (taken the
 * money back with a balance adjustment on the player's page, where needed) and marked it reviewed.
 */
export function SandboxPaymentsPage() {
  const list = useSandboxPayments();
  const review = useReviewSandboxPayment();
  const [reviewing, setReviewing] = useState<SandboxPayment | null>(null);

  return (
    <div className="flex flex-col gap-5">
      <PageHeader title="Sandbox payments" eyebrow="Test money" />
      {list.isPending ? (
        <Loading label="Loading sandbox payments" />
      ) : list.isError ? (
        <LoadError
          error={list.error}
          what="sandbox payments"
          onRetry={() => void list.refetch()}
          retrying={list.isFetching}
        />
      ) : (
        <>
          {list.data.blocksPayouts ? (
            <div
              role="alert"
              className="rounded-2xl border border-danger/50 bg-danger/10 p-4 text-sm"
            >
              <p className="font-semibold text-danger">Payouts are paused</p>
              <p className="mt-1 text-white/85">
                {list.data.unreviewed} sandbox top-up{list.data.unreviewed === 1 ? '' : 's'}{' '}
                credited test money in this live system. For each one, take the money back where
                needed with a balance adjustment on the player&apos;s page (audited), then mark it
                reviewed with a note of what you did. Withdrawals can be approved again once none is
                left.
              </p>
            </div>
          ) : (
            <p className="text-sm text-muted">
              {list.data.sandbox
                ? 'This server runs the payments sandbox: these top-ups are test money and block nothing.'
                : 'Every sandbox top-up has been reviewed: payouts are not paused.'}
            </p>
          )}
          {list.data.payments.length === 0 ? (
            <EmptyState icon="🧪" title="No sandbox top-ups">
              <p>Top-ups paid on the sandbox checkout would be listed here.</p>
            </EmptyState>
          ) : (
            <ColumnTable spec={sandboxTable(setReviewing)} rows={list.data.payments} />
          )}
        </>
      )}
      <ReasonDialog
        open={reviewing !== null}
        title="Mark this sandbox top-up reviewed?"
        description={
          reviewing
            ? `${formatNaira(reviewing.amount)} of test money credited to ${reviewing.username} (${reviewing.reference}).`
            : undefined
        }
        schema={noteSchema}
        label="Note"
        hint="What you did, e.g. took it back with a balance adjustment. Recorded in the audit log."
        confirmLabel="Mark reviewed"
        variant="primary"
        busy={review.isPending}
        onClose={() => setReviewing(null)}
        onSubmit={(note) => {
          if (!reviewing) return;
          review.mutate(
            { reference: reviewing.reference, note },
            {
              onSuccess: (result) => {
                toast.success(result.message);
                setReviewing(null);
              },
              onError: (error) => toast.error(errorMessage(error, 'Could not mark it reviewed')),
            },
          );
        }}
      />
    </div>
  );
}
