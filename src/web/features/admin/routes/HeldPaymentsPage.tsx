import { formatDate } from '@shared/date.ts';
import { formatNaira } from '@shared/money.ts';
import { type HeldPayment, holdDecisionBodySchema } from '@shared/schemas/admin.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { DateTime } from '@web/components/ui/DateTime.tsx';
import { EmptyState } from '@web/components/ui/EmptyState.tsx';
import { PageHeader } from '@web/components/ui/PageHeader.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { toast } from '@web/lib/toast.tsx';
import { useState } from 'react';
import { z } from 'zod';
import { type HoldDecision, useDecideHeldPayment } from '../api/decide-held-payment.ts';
import { useHeldPayments } from '../api/get-held-payments.ts';
import { ColumnTable, type TableSpec } from '../components/DataTable.tsx';
import { ReasonDialog } from '../components/dialogs.tsx';
import { paymentColumns } from '../components/payment-columns.tsx';
import { LoadError, Loading } from '../components/QueryStates.tsx';
import { humanise } from '../lib/format.ts';

/** The operator's reason, checked by the same shared rule as the server. */
const reasonSchema = z.object({ reason: holdDecisionBodySchema.shape.note });

const OUTCOME: Record<Exclude<HeldPayment['status'], 'held'>, string> = {
  released: 'Released to the wallet',
  refunded: 'Returned to the payer',
};

type Deciding = { payment: HeldPayment; decision: HoldDecision };

/** Who sent a bank transfer and from which bank, as the provider reported them; else null. */
function senderOf(payment: HeldPayment): string | null {
  if (payment.channel !== 'bank_transfer') return null;
  const name = payment.senderName ?? 'an unnamed sender';
  return payment.senderBank ? `${name} (${payment.senderBank})` : name;
}

function heldTable(onDecide: (deciding: Deciding) => void): TableSpec<HeldPayment> {
  return {
    label: 'Held payments',
    minWidth: 'sm:min-w-[64rem]',
    rowKey: (payment) => payment.reference,
    columns: [
      {
        header: 'Held',
        className: 'whitespace-nowrap text-muted',
        cell: (payment) => <DateTime value={payment.heldAt} />,
      },
      ...paymentColumns<HeldPayment>(),
      {
        header: 'From',
        cell: (payment) => {
          const sender = senderOf(payment);
          return sender ? (
            <>
              <span className="block text-white/85">{sender}</span>
              <span className="text-xs text-muted">Bank transfer</span>
            </>
          ) : (
            <span className="text-muted">Checkout</span>
          );
        },
      },
      { header: 'Why', cell: (payment) => <span className="text-white/85">{payment.reason}</span> },
      {
        header: 'Decision',
        cell: (payment) =>
          payment.status === 'held' ? (
            <div className="flex flex-wrap gap-2">
              <Button variant="outline" onClick={() => onDecide({ payment, decision: 'release' })}>
                Release to wallet
              </Button>
              <Button variant="outline" onClick={() => onDecide({ payment, decision: 'return' })}>
                {payment.canRefund ? 'Refund' : 'Mark returned'}
              </Button>
            </div>
          ) : (
            <span className="text-white/80">
              {OUTCOME[payment.status]}
              {payment.resolvedAt ? ` ${formatDate(payment.resolvedAt)}` : ''}
              {payment.resolutionNote ? `: ${payment.resolutionNote}` : ''}
            </span>
          ),
      },
    ],
  };
}

const DIALOG: Record<HoldDecision, { title: string; confirm: string }> = {
  release: { title: "Release this payment to the player's wallet?", confirm: 'Release' },
  return: { title: 'Return this payment to the payer?', confirm: 'Return' },
};

function dialogDescription({ payment, decision }: Deciding): string {
  const sender = senderOf(payment);
  const what = sender
    ? `${formatNaira(payment.amount)} sent by ${sender} to ${payment.username}'s account number (${payment.reference}), held because ${payment.reason}.`
    : `${formatNaira(payment.amount)} from ${payment.username} (${payment.reference}), held because ${payment.reason}.`;
  if (decision === 'release')
    return `${what} It is credited only if the player's deposit limits allow it today.`;
  if (sender && payment.canRefund)
    return `${what} It is sent back to ${sender} through ${humanise(payment.method)}.`;
  return payment.canRefund
    ? `${what} It is refunded through ${humanise(payment.method)} to the card or account it came from.`
    : `${what} ${humanise(payment.method)} has no refund API: return it from its dashboard first, then record it here.`;
}

/**
 * Top-ups that landed past the player's deposit limit: never credited, held in their own ledger
 * account until an operator releases each to the wallet or returns it. The provider's refund
 * returns most of them at once; those it could not (or a provider without refunds) wait here.
 */
export function HeldPaymentsPage() {
  const list = useHeldPayments();
  const decide = useDecideHeldPayment();
  const [deciding, setDeciding] = useState<Deciding | null>(null);

  return (
    <div className="flex flex-col gap-5">
      <PageHeader title="Held payments" eyebrow="Deposit limits" />
      {list.isPending ? (
        <Loading label="Loading held payments" />
      ) : list.isError ? (
        <LoadError
          error={list.error}
          what="held payments"
          onRetry={() => void list.refetch()}
          retrying={list.isFetching}
        />
      ) : (
        <>
          <p className="text-sm text-muted">
            {list.data.held === 0
              ? 'Nothing is on hold.'
              : `${list.data.held} payment${list.data.held === 1 ? ' is' : 's are'} on hold. Release each to the wallet or return it, with a reason (kept in the audit log).`}
          </p>
          {list.data.payments.length === 0 ? (
            <EmptyState icon="⏸️" title="No held payments">
              <p>Top-ups that land past a player's deposit limit would be listed here.</p>
            </EmptyState>
          ) : (
            <ColumnTable spec={heldTable(setDeciding)} rows={list.data.payments} />
          )}
        </>
      )}
      <ReasonDialog
        open={deciding !== null}
        title={deciding ? DIALOG[deciding.decision].title : ''}
        description={deciding ? dialogDescription(deciding) : undefined}
        schema={reasonSchema}
        hint="Why, e.g. the player asked for it in their wallet. Recorded in the audit log."
        confirmLabel={deciding ? DIALOG[deciding.decision].confirm : ''}
        variant="primary"
        busy={decide.isPending}
        onClose={() => setDeciding(null)}
        onSubmit={(note) => {
          if (!deciding) return;
          decide.mutate(
            { reference: deciding.payment.reference, decision: deciding.decision, note },
            {
              onSuccess: (result) => {
                toast.success(result.message);
                setDeciding(null);
              },
              onError: (error) => toast.error(errorMessage(error, 'Could not decide on it')),
            },
          );
        }}
      />
    </div>
  );
}
