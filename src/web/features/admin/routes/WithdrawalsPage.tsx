import { WITHDRAWAL_STATUSES, type WithdrawalStatus } from '@shared/constants.ts';
import { formatNaira } from '@shared/money.ts';
import { type AdminWithdrawal, adminWithdrawalQuerySchema } from '@shared/schemas/admin.ts';
import { approveWithdrawalBodySchema, rejectWithdrawalBodySchema } from '@shared/schemas/wallet.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { DateTime } from '@web/components/ui/DateTime.tsx';
import { EmptyState } from '@web/components/ui/EmptyState.tsx';
import { CheckboxField, Field } from '@web/components/ui/Field.tsx';
import { Modal } from '@web/components/ui/Modal.tsx';
import { PageHeader } from '@web/components/ui/PageHeader.tsx';
import { Pagination } from '@web/components/ui/Pagination.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { useSchemaForm } from '@web/lib/schema-form.ts';
import { toast } from '@web/lib/toast.tsx';
import { useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import { useApproveWithdrawal, useRejectWithdrawal } from '../api/decide-withdrawal.ts';
import { useSandboxPayments } from '../api/get-sandbox-payments.ts';
import { useAdminWithdrawals } from '../api/get-withdrawals.ts';
import { ColumnTable, type TableSpec } from '../components/DataTable.tsx';
import { DialogActions, ReasonDialog, useFocusOnOpen } from '../components/dialogs.tsx';
import { HeldMarker, HoldReasonList } from '../components/HoldReasons.tsx';
import { LoadError, Loading } from '../components/QueryStates.tsx';
import { StatusTag } from '../components/StatusTag.tsx';
import { humanise } from '../lib/format.ts';
import { useUrlState } from '../lib/url-state.ts';

function isStatus(value: string | null): value is WithdrawalStatus {
  return WITHDRAWAL_STATUSES.includes(value as WithdrawalStatus);
}

type Method = 'provider' | 'manual';

/** Approve: pay through the provider now, or record that it was paid by hand. */
function ApproveForm({
  withdrawal,
  busy,
  onApprove,
  onClose,
}: {
  withdrawal: AdminWithdrawal;
  busy: boolean;
  onApprove: (body: { paidReference?: string; reviewNote?: string }) => void;
  onClose: () => void;
}) {
  const [method, setMethod] = useState<Method>('provider');
  const held = withdrawal.holdReasons.length > 0;
  const form = useSchemaForm({
    // A held withdrawal needs the operator's review note, as the server insists.
    schema: held ? heldApproveSchema : approveWithdrawalBodySchema,
    initial: { paidReference: '', reviewNote: '' },
    toInput: (values) => ({
      paidReference: method === 'manual' ? values.paidReference : undefined,
      reviewNote: held ? values.reviewNote : undefined,
    }),
  });
  const firstRef = useRef<HTMLInputElement>(null);
  const idBase = useId();
  useFocusOnOpen(firstRef);
  const options: { value: Method; label: string; hint: string }[] = [
    {
      value: 'provider',
      label: 'Pay through the provider',
      hint: 'A bank transfer is sent now; the player is told when it lands.',
    },
    {
      value: 'manual',
      label: 'Mark as paid',
      hint: 'Already paid by hand: record the bank reference.',
    },
  ];
  return (
    <form
      ref={form.formRef}
      noValidate
      className="flex flex-col gap-5"
      onSubmit={form.handleSubmit((body) => onApprove(body))}
    >
      <HoldReasonList reasons={withdrawal.holdReasons} />
      <dl className="grid grid-cols-2 gap-3 rounded-xl bg-card-raised p-3 text-sm">
        <div>
          <dt className="text-xs text-muted">Send</dt>
          <dd className="text-lg font-bold text-wallet">{formatNaira(withdrawal.amount)}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted">To</dt>
          <dd className="font-medium break-words">
            {withdrawal.accountName}
            <span className="block text-xs text-muted">
              {withdrawal.bankName} · {withdrawal.accountNumber}
            </span>
          </dd>
        </div>
      </dl>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-sm font-medium">How was it paid?</legend>
        {options.map((option, index) => (
          <label
            key={option.value}
            className="flex cursor-pointer items-start gap-3 rounded-xl border border-line p-3 has-[:checked]:border-accent has-[:checked]:bg-accent/5"
          >
            <input
              ref={index === 0 ? firstRef : undefined}
              type="radio"
              name="method"
              value={option.value}
              checked={method === option.value}
              onChange={() => setMethod(option.value)}
              aria-labelledby={`${idBase}-${option.value}`}
              aria-describedby={`${idBase}-${option.value}-hint`}
              className="mt-1 size-4"
            />
            <span className="flex flex-col">
              <span id={`${idBase}-${option.value}`} className="text-sm font-semibold">
                {option.label}
              </span>
              <span id={`${idBase}-${option.value}-hint`} className="text-xs text-muted">
                {option.hint}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      {method === 'manual' ? (
        <Field label="Bank reference" autoComplete="off" {...form.field('paidReference')} />
      ) : null}
      {held ? (
        <Field
          as="textarea"
          label="Review note"
          hint="Why this withdrawal may be paid despite the hold. Kept in the audit log; the player does not see it."
          rows={3}
          {...form.field('reviewNote')}
        />
      ) : null}
      <DialogActions>
        <Button variant="outline" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" variant="vip" loading={busy}>
          {method === 'manual' ? 'Mark as paid' : `Send ${formatNaira(withdrawal.amount)}`}
        </Button>
      </DialogActions>
    </form>
  );
}

const heldApproveSchema = approveWithdrawalBodySchema.required({ reviewNote: true });

const PAUSE_NOTICE_ID = 'payout-pause';

/** Why approvals are refused while sandbox money is unreviewed in a live system. */
function PayoutPause() {
  const sandbox = useSandboxPayments();
  if (!sandbox.data?.blocksPayouts) return null;
  return (
    <div
      id={PAUSE_NOTICE_ID}
      role="alert"
      className="rounded-2xl border border-danger/50 bg-danger/10 p-4 text-sm"
    >
      <p className="font-semibold text-danger">Payouts are paused</p>
      <p className="mt-1 text-white/85">
        {sandbox.data.unreviewed} sandbox top-up{sandbox.data.unreviewed === 1 ? '' : 's'} (test
        money) {sandbox.data.unreviewed === 1 ? 'has' : 'have'} not been reviewed, so no withdrawal
        can be approved or marked paid.{' '}
        <Link href="/sandbox-payments" className="font-semibold text-accent underline">
          Review sandbox payments
        </Link>
      </p>
    </div>
  );
}

type Decision = { kind: 'approve' | 'reject'; withdrawal: AdminWithdrawal } | null;

/** On a phone each row is a card: two columns, status and actions across the whole card. */
const CARD_ROW = 'max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-3 max-sm:gap-y-2 max-sm:p-4';
const CARD_CELL = 'max-sm:block max-sm:p-0';

/**
 * The withdrawals' columns; a pending one has approve and reject buttons (approve is off while
 * payouts are `paused`).
 */
function withdrawalsTable({
  paused,
  onDecide,
}: {
  paused: boolean;
  onDecide: (kind: 'approve' | 'reject', withdrawal: AdminWithdrawal) => void;
}): TableSpec<AdminWithdrawal> {
  return {
    label: 'Withdrawals',
    minWidth: 'sm:min-w-[50rem]',
    rowKey: (withdrawal) => withdrawal.id,
    phone: { row: CARD_ROW },
    columns: [
      {
        header: 'Requested',
        className: `${CARD_CELL} w-32 min-w-32 text-muted max-sm:w-auto`,
        cell: (withdrawal) => <DateTime value={withdrawal.createdAt} />,
      },
      {
        header: 'Player',
        className: `${CARD_CELL} whitespace-nowrap max-sm:text-right`,
        cell: (withdrawal) => (
          <Link href={`/users/${withdrawal.userId}`} className="text-accent hover:underline">
            {withdrawal.username}
          </Link>
        ),
      },
      {
        header: 'Amount',
        numeric: true,
        className: `${CARD_CELL} max-sm:text-left`,
        cell: (withdrawal) => (
          <>
            <span className="block font-semibold">{formatNaira(withdrawal.amount)}</span>
            <span className="text-xs text-muted">+ {formatNaira(withdrawal.fee)} fee</span>
          </>
        ),
      },
      {
        header: 'Bank account',
        className: `${CARD_CELL} max-sm:text-right`,
        cell: (withdrawal) => (
          <>
            <span className="block font-medium">{withdrawal.accountName}</span>
            <span className="text-xs text-muted">
              {withdrawal.bankName} · {withdrawal.accountNumber}
            </span>
            {/* The reference on the player's receipt, so support can match it. */}
            <span className="mt-0.5 block font-mono text-xs text-muted">
              {withdrawal.shortReference}
            </span>
          </>
        ),
      },
      {
        header: 'Status',
        className: `${CARD_CELL} max-sm:col-span-2`,
        cell: (withdrawal) => (
          <>
            <StatusTag status={withdrawal.status} />
            <HeldMarker reasons={withdrawal.holdReasons} />
            {withdrawal.reason ? (
              <span className="mt-1 block max-w-48 text-xs text-muted">{withdrawal.reason}</span>
            ) : null}
          </>
        ),
      },
      {
        header: 'Actions',
        headerHidden: true,
        className: `${CARD_CELL} whitespace-nowrap max-sm:col-span-2 max-sm:empty:hidden`,
        cell: (withdrawal) =>
          withdrawal.status === 'PENDING' ? (
            <div className="flex gap-2 max-sm:[&>button]:flex-1">
              <Button
                variant="vip"
                className="px-3"
                aria-label={`Approve ${formatNaira(withdrawal.amount)} for ${withdrawal.username}`}
                disabled={paused}
                aria-describedby={paused ? PAUSE_NOTICE_ID : undefined}
                onClick={() => onDecide('approve', withdrawal)}
              >
                Approve
              </Button>
              <Button
                variant="outline"
                className="px-3 hover:!border-danger hover:!text-danger"
                aria-label={`Reject ${formatNaira(withdrawal.amount)} for ${withdrawal.username}`}
                onClick={() => onDecide('reject', withdrawal)}
              >
                Reject
              </Button>
            </div>
          ) : null,
      },
    ],
  };
}

const referenceSchema = adminWithdrawalQuerySchema.pick({ reference: true });

/** Finds the withdrawal a player read out: its short reference (any case, spaces) or wd-<id>. */
function ReferenceSearch({
  reference,
  busy,
  onSearch,
}: {
  reference: string;
  busy: boolean;
  onSearch: (reference: string) => void;
}) {
  const form = useSchemaForm({ schema: referenceSchema, initial: { reference } });
  const { error, ...field } = form.field('reference');
  return (
    // biome-ignore lint/a11y/useSemanticElements: <search> is too new for some phones' browsers (and happy-dom); a search form is the portable landmark.
    <form
      ref={form.formRef}
      role="search"
      noValidate
      onSubmit={form.handleSubmit((query) => onSearch(query.reference ?? ''))}
      className="flex flex-col gap-2 sm:flex-row sm:items-end"
    >
      <div className="flex flex-1 flex-col gap-1.5">
        <label htmlFor="withdrawal-reference" className="text-sm font-medium text-white/90">
          Reference
        </label>
        <input
          id="withdrawal-reference"
          type="search"
          {...field}
          maxLength={60}
          autoComplete="off"
          placeholder="e.g. 7KQ2M9XDTR"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'withdrawal-reference-error' : undefined}
          className="min-h-12 w-full rounded-xl border border-line bg-card px-4 font-mono text-base text-white placeholder:font-sans placeholder:text-white/40 focus:border-accent focus:outline-none"
        />
        {error ? (
          <p id="withdrawal-reference-error" className="text-sm text-danger">
            {error}
          </p>
        ) : null}
      </div>
      <Button type="submit" loading={busy}>
        Find
      </Button>
      {reference ? (
        <Button type="button" variant="outline" onClick={() => onSearch('')}>
          Show all
        </Button>
      ) : null}
    </form>
  );
}

export function WithdrawalsPage() {
  const { params, page, update } = useUrlState();
  const statusParam = params.get('status');
  const status = isStatus(statusParam) ? statusParam : undefined;
  const heldOnly = params.get('held') === '1';
  const reference = params.get('reference') ?? '';
  const list = useAdminWithdrawals({ status, held: heldOnly, reference }, page);
  const approve = useApproveWithdrawal();
  const reject = useRejectWithdrawal();
  const [decision, setDecision] = useState<Decision>(null);
  const busy = approve.isPending || reject.isPending;
  // While payouts are paused the server refuses every approval: the buttons say so up front.
  const paused = useSandboxPayments().data?.blocksPayouts === true;

  function onApprove(
    withdrawal: AdminWithdrawal,
    body: { paidReference?: string; reviewNote?: string },
  ) {
    approve.mutate(
      { id: withdrawal.id, ...body },
      {
        onSuccess: (result) => {
          toast.success(result.message ?? 'Withdrawal approved');
          setDecision(null);
        },
        onError: (error) =>
          toast.error(errorMessage(error, 'The withdrawal could not be approved')),
      },
    );
  }

  function onReject(withdrawal: AdminWithdrawal, reason: string) {
    reject.mutate(
      { id: withdrawal.id, reason },
      {
        onSuccess: (result) => {
          toast.success(result.message ?? 'Withdrawal rejected');
          setDecision(null);
        },
        onError: (error) =>
          toast.error(errorMessage(error, 'The withdrawal could not be rejected')),
      },
    );
  }

  return (
    <div className="flex flex-col gap-5">
      <PageHeader title="Withdrawals" eyebrow="Payout queue" />
      <PayoutPause />
      <div className="grid items-end gap-3 sm:grid-cols-3">
        <Field
          as="select"
          label="Status"
          value={status ?? ''}
          onChange={(event) => update({ status: event.target.value, page: 1 })}
        >
          <option value="">All (pending first)</option>
          {WITHDRAWAL_STATUSES.map((value) => (
            <option key={value} value={value}>
              {humanise(value)}
            </option>
          ))}
        </Field>
        <CheckboxField
          label="Held for review only"
          hint="Withdrawals the anti-money-laundering rules flagged"
          checked={heldOnly}
          onChange={(event) => update({ held: event.target.checked ? '1' : null, page: 1 })}
        />
      </div>
      <ReferenceSearch
        reference={reference}
        busy={list.isFetching && list.isPlaceholderData}
        onSearch={(next) => update({ reference: next || null, page: 1 })}
      />

      {list.isPending ? (
        <Loading label="Loading withdrawals" />
      ) : list.isError ? (
        <LoadError
          error={list.error}
          what="the withdrawals"
          onRetry={() => void list.refetch()}
          retrying={list.isFetching}
        />
      ) : list.data.withdrawals.length === 0 ? (
        <EmptyState
          icon="🎉"
          title={
            reference
              ? `No withdrawal with the reference ${reference}`
              : heldOnly
                ? `No ${status ? `${humanise(status).toLowerCase()} ` : ''}withdrawals held for review`
                : status
                  ? `No ${humanise(status).toLowerCase()} withdrawals`
                  : 'No withdrawals yet'
          }
        >
          <p>Requests from players appear here, oldest pending first.</p>
        </EmptyState>
      ) : (
        <>
          <ColumnTable
            spec={withdrawalsTable({
              paused,
              onDecide: (kind, withdrawal) => setDecision({ kind, withdrawal }),
            })}
            rows={list.data.withdrawals}
          />
          <Pagination
            label="Withdrawal pages"
            page={list.data.pagination.page}
            totalPages={list.data.pagination.totalPages}
            busy={list.isPlaceholderData}
            onChange={(next) => update({ page: next })}
          />
        </>
      )}

      <Modal
        open={decision?.kind === 'approve'}
        title="Approve this withdrawal?"
        onClose={() => setDecision(null)}
        dismissible={!busy}
      >
        {decision?.kind === 'approve' ? (
          <ApproveForm
            withdrawal={decision.withdrawal}
            busy={approve.isPending}
            onApprove={(body) => onApprove(decision.withdrawal, body)}
            onClose={() => setDecision(null)}
          />
        ) : null}
      </Modal>

      <ReasonDialog
        open={decision?.kind === 'reject'}
        title="Reject this withdrawal?"
        description={
          decision
            ? `${formatNaira(decision.withdrawal.amount + decision.withdrawal.fee)} (amount and fee) goes back to ${decision.withdrawal.username}'s wallet, and they are told why.`
            : undefined
        }
        schema={rejectWithdrawalBodySchema}
        hint="The player sees this reason."
        confirmLabel="Reject and refund"
        busy={reject.isPending}
        onSubmit={(reason) => decision && onReject(decision.withdrawal, reason)}
        onClose={() => setDecision(null)}
      >
        {decision?.kind === 'reject' ? (
          <HoldReasonList reasons={decision.withdrawal.holdReasons} />
        ) : null}
      </ReasonDialog>
    </div>
  );
}
