import { WITHDRAWAL_PROCESSING_TEXT } from '@shared/constants.ts';
import { formatNaira } from '@shared/money.ts';
import type { Withdrawal } from '@shared/schemas/wallet.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Modal } from '@web/components/ui/Modal.tsx';
import { totalDebit } from '../lib/withdraw.ts';
import { ReceiptFacts } from './ReceiptFacts.tsx';
import { WithdrawalReceipt, withdrawalFacts } from './WithdrawalReceipt.tsx';

export const WITHDRAWAL_RECEIPT_TITLE = 'Your withdrawal receipt';

export type WithdrawStep =
  | { kind: 'closed' }
  | { kind: 'confirm'; amount: number }
  | { kind: 'receipt'; withdrawal: Withdrawal; message: string };

interface WithdrawDialogProps {
  step: WithdrawStep;
  fee: number;
  balance: number;
  account: { bankName: string; accountName: string; accountNumber: string };
  sending: boolean;
  /** Why the last attempt failed, kept in the dialog (a toast may sit behind its backdrop). */
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * Money only leaves on a second, deliberate tap: the player checks what leaves the wallet, where
 * it goes and when it arrives, then confirms; the answer ends on the server's receipt. Nothing is
 * sent again by itself: after a failure the player taps Confirm again (same Idempotency-Key).
 */
export function WithdrawDialog({
  step,
  fee,
  balance,
  account,
  sending,
  error,
  onConfirm,
  onClose,
}: WithdrawDialogProps) {
  if (step.kind === 'receipt') {
    return (
      // Keyed apart from the confirmation: a fresh dialog opens, with focus on Done. The title
      // names the dialog, not the request: the server's message already opens with that.
      <Modal
        key="receipt"
        open
        title={WITHDRAWAL_RECEIPT_TITLE}
        onClose={onClose}
        description={step.message}
      >
        <WithdrawalReceipt withdrawal={step.withdrawal} />
        <p className="mt-3 text-xs text-muted">
          Keep the reference: support finds your withdrawal by it. It is also in your withdrawal
          history.
        </p>
        <Button variant="wallet" className="mt-5 w-full" data-autofocus onClick={onClose}>
          Done
        </Button>
      </Modal>
    );
  }
  const amount = step.kind === 'confirm' ? step.amount : 0;
  return (
    <Modal
      key="confirm"
      open={step.kind === 'confirm'}
      title="Confirm your withdrawal"
      onClose={onClose}
      dismissible={!sending}
    >
      <ReceiptFacts
        facts={[
          ...withdrawalFacts(amount, fee, account),
          { label: 'Balance after', value: formatNaira(balance - totalDebit(amount, fee)) },
        ]}
      />
      <p className="mt-3 text-sm text-white/85">{WITHDRAWAL_PROCESSING_TEXT}</p>
      {error ? (
        <p role="alert" className="mt-3 text-sm break-words text-danger">
          {error} Trying again is safe: this withdrawal can only go through once.
        </p>
      ) : null}
      <div className="mt-5 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="outline" data-autofocus disabled={sending} onClick={onClose}>
          Cancel
        </Button>
        <Button variant="wallet" loading={sending} onClick={onConfirm}>
          Confirm withdrawal
        </Button>
      </div>
    </Modal>
  );
}
