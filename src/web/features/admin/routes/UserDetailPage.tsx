import { formatDate } from '@shared/date.ts';
import { formatNaira } from '@shared/money.ts';
import { formatPhone } from '@shared/phone.ts';
import type { AdminUserDetail } from '@shared/schemas/admin.ts';
import { adjustmentBodySchema, suspendBodySchema } from '@shared/schemas/admin.ts';
import { Avatar } from '@web/components/ui/Avatar.tsx';
import { Button } from '@web/components/ui/Button.tsx';
import { Card } from '@web/components/ui/Card.tsx';
import { DateTime } from '@web/components/ui/DateTime.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { Tag } from '@web/components/ui/GameCard.tsx';
import { VerifiedTick } from '@web/components/ui/VerifiedTick.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { numberOrUndefined, useSchemaForm } from '@web/lib/schema-form.ts';
import { useSession } from '@web/lib/session.ts';
import { toast } from '@web/lib/toast.tsx';
import { useState } from 'react';
import { Link, useParams } from 'wouter';
import { useAdjustWallet } from '../api/adjust-wallet.ts';
import { useAdminUser } from '../api/get-user.ts';
import { useSuspendUser, useUnsuspendUser } from '../api/suspend-user.ts';
import { ColumnTable, type TableSpec } from '../components/DataTable.tsx';
import { ConfirmDialog, ReasonDialog } from '../components/dialogs.tsx';
import { HeldMarker } from '../components/HoldReasons.tsx';
import { KycSection } from '../components/KycSection.tsx';
import { LoadError, Loading } from '../components/QueryStates.tsx';
import { ResponsiblePlaySection } from '../components/ResponsiblePlaySection.tsx';
import { BackLink, Section } from '../components/Section.tsx';
import { StatusTag } from '../components/StatusTag.tsx';
import { TabbedSections } from '../components/TabbedSections.tsx';
import { humanise, shortId } from '../lib/format.ts';

function signed(amount: number) {
  return amount > 0 ? `+${formatNaira(amount)}` : formatNaira(amount);
}

type Detail = AdminUserDetail;

const WHEN = {
  header: 'When',
  className: 'whitespace-nowrap text-muted',
  cell: (row: { createdAt: string }) => <DateTime value={row.createdAt} />,
};
const STATUS = {
  header: 'Status',
  cell: (row: { status: string }) => <StatusTag status={row.status} />,
};

const LEDGER_TABLE: TableSpec<Detail['ledger'][number]> = {
  label: 'Wallet ledger',
  minWidth: 'sm:min-w-[40rem]',
  rowKey: (row) => row.id,
  empty: 'No wallet movements yet.',
  columns: [
    WHEN,
    { header: 'Kind', className: 'whitespace-nowrap', cell: (row) => humanise(row.kind) },
    {
      header: 'Description',
      className: 'max-w-96 break-words',
      wide: true,
      cell: (row) => row.description,
    },
    {
      header: 'Amount',
      numeric: true,
      cell: (row) => (
        <span className={`font-semibold ${row.amount < 0 ? 'text-danger' : 'text-vip'}`}>
          {signed(row.amount)}
        </span>
      ),
    },
  ],
};

const PLAY_TABLE: TableSpec<Detail['plays'][number]> = {
  label: 'Plays',
  minWidth: 'sm:min-w-[44rem]',
  rowKey: (row) => `${row.createdAt}-${row.gameTitle}`,
  empty: 'No games played yet.',
  columns: [
    WHEN,
    { header: 'Game', className: 'max-w-64 break-words font-medium', cell: (row) => row.gameTitle },
    { header: 'Answer', className: 'max-w-80 break-words', cell: (row) => row.answer },
    { header: 'Paid', numeric: true, cell: (row) => formatNaira(row.amountPaid) },
    {
      header: 'Result',
      cell: (row) =>
        row.isWinner === true ? (
          <Tag tone="wallet">Won</Tag>
        ) : row.isWinner === false ? (
          <Tag tone="muted">Lost</Tag>
        ) : (
          <Tag tone="accent">Pending</Tag>
        ),
    },
  ],
};

const PAYMENT_TABLE: TableSpec<Detail['payments'][number]> = {
  label: 'Payments',
  minWidth: 'sm:min-w-[46rem]',
  rowKey: (row) => row.reference,
  empty: 'No top-ups yet.',
  columns: [
    WHEN,
    { header: 'Reference', className: 'font-mono text-xs break-all', cell: (row) => row.reference },
    { header: 'Method', cell: (row) => humanise(row.method) },
    {
      header: 'Mode',
      cell: (row) =>
        row.mode === 'sandbox' ? (
          <span className="font-semibold text-wallet">Sandbox (test money)</span>
        ) : (
          'Live'
        ),
    },
    { header: 'Amount', numeric: true, cell: (row) => formatNaira(row.amount) },
    STATUS,
  ],
};

const WITHDRAWAL_TABLE: TableSpec<Detail['withdrawals'][number]> = {
  label: 'Withdrawals',
  minWidth: 'sm:min-w-[32rem]',
  rowKey: (row) => row.id,
  empty: 'No withdrawals yet.',
  columns: [
    WHEN,
    { header: 'Id', className: 'font-mono text-xs', cell: (row) => shortId(row.id) },
    { header: 'Amount', numeric: true, cell: (row) => formatNaira(row.amount) },
    { header: 'Fee', numeric: true, className: 'text-muted', cell: (row) => formatNaira(row.fee) },
    {
      header: 'Status',
      cell: (row) => (
        <>
          <StatusTag status={row.status} />
          <HeldMarker reasons={row.holdReasons} detailed />
        </>
      ),
    },
  ],
};

type AdjustValues = { amount: string; reason: string };
type Adjustment = { amount: number; reason: string };

/** A manual credit (+) or debit (−) with a reason; confirmed before anything moves. */
function AdjustmentForm({ detail }: { detail: AdminUserDetail }) {
  const adjust = useAdjustWallet();
  const [pending, setPending] = useState<Adjustment | null>(null);
  const form = useSchemaForm({
    schema: adjustmentBodySchema,
    initial: { amount: '', reason: '' } as AdjustValues,
    toInput: (values: AdjustValues) => ({
      amount: numberOrUndefined(values.amount),
      reason: values.reason,
    }),
  });
  const { user } = detail;

  function confirm() {
    if (!pending) return;
    adjust.mutate(
      { id: user.id, ...pending },
      {
        onSuccess: (result) => {
          toast.success(
            `${result.message}. New balance ${formatNaira(result.data.accountBalance)}`,
          );
          setPending(null);
          form.reset({ amount: '', reason: '' });
        },
        onError: (error) => toast.error(errorMessage(error, 'The wallet could not be adjusted')),
      },
    );
  }

  return (
    <Card className="flex flex-col gap-4">
      <div>
        <h2 className="text-lg font-bold" id="adjust-title">
          Adjust wallet
        </h2>
        <p className="text-sm text-muted">
          A positive amount credits the wallet, a negative one debits it. It is booked as one
          balanced ledger transaction and the player is notified with your reason.
        </p>
      </div>
      <form
        ref={form.formRef}
        noValidate
        aria-labelledby="adjust-title"
        onSubmit={form.handleSubmit((data) => setPending(data))}
        className="grid gap-4 sm:grid-cols-[12rem_minmax(0,1fr)_auto] sm:items-start"
      >
        <Field
          label="Amount (₦, ±)"
          inputMode="text"
          placeholder="e.g. 500 or -200"
          {...form.field('amount')}
        />
        <Field
          label="Reason"
          placeholder="e.g. Goodwill credit for failed top-up"
          {...form.field('reason')}
        />
        <Button type="submit" variant="wallet" className="sm:mt-7">
          Review
        </Button>
      </form>
      <ConfirmDialog
        open={pending !== null}
        title={
          pending && pending.amount > 0
            ? `Credit ${formatNaira(pending.amount)}?`
            : `Debit ${formatNaira(Math.abs(pending?.amount ?? 0))}?`
        }
        confirmLabel={pending && pending.amount > 0 ? 'Credit wallet' : 'Debit wallet'}
        variant={pending && pending.amount > 0 ? 'vip' : 'danger'}
        busy={adjust.isPending}
        onConfirm={confirm}
        onClose={() => setPending(null)}
      >
        {pending ? (
          <div className="flex flex-col gap-2">
            <p>
              {pending.amount > 0 ? 'Credit' : 'Debit'} {user.fullname}'s wallet by{' '}
              <strong>{formatNaira(Math.abs(pending.amount))}</strong>. Balance now{' '}
              {formatNaira(user.accountBalance)}, after{' '}
              <strong>{formatNaira(user.accountBalance + pending.amount)}</strong>.
            </p>
            <p className="text-muted">Reason: “{pending.reason}”</p>
          </div>
        ) : null}
      </ConfirmDialog>
    </Card>
  );
}

function Profile({ detail }: { detail: AdminUserDetail }) {
  const { user } = detail;
  const facts: [string, string][] = [
    ['E-mail', user.email],
    ['Phone', formatPhone(user.phoneNumber)],
    ['Balance', formatNaira(user.accountBalance)],
    ['Level · points', `Level ${user.level} · ${user.points} points`],
    ['Games played · won', `${user.totalGamesPlayed} · ${user.totalGamesWon}`],
    ['Total winnings', formatNaira(user.totalWinningAmount)],
    [
      'Plan',
      user.planID
        ? `Active${user.planExpiresAt ? ` until ${formatDate(user.planExpiresAt)}` : ''}`
        : 'None',
    ],
    [
      'Bank account',
      user.bankAccount
        ? `${user.bankAccount.accountName} · ${user.bankAccount.accountNumber}`
        : 'Not added',
    ],
    ['User id', user.id],
  ];
  return (
    <Card>
      <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2 xl:grid-cols-3">
        {facts.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="text-xs text-muted">{label}</dt>
            <dd
              className={`font-medium break-words ${
                label === 'User id' ? 'font-mono text-xs break-all' : ''
              } ${label === 'Balance' ? 'text-wallet' : ''}`}
            >
              {value}
            </dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

export function UserDetailPage() {
  const { id = '' } = useParams<{ id: string }>();
  const me = useSession((session) => session.user);
  const detail = useAdminUser(id);
  const suspend = useSuspendUser();
  const unsuspend = useUnsuspendUser();
  const [dialog, setDialog] = useState<'suspend' | 'unsuspend' | null>(null);

  if (detail.isPending) return <Loading label="Loading the user" />;
  if (detail.isError) {
    return (
      <LoadError
        error={detail.error}
        what="the user"
        onRetry={() => void detail.refetch()}
        retrying={detail.isFetching}
      />
    );
  }
  const data = detail.data;
  const { user } = data;
  const suspended = data.suspendedReason !== null;

  function onSuspend(reason: string) {
    suspend.mutate(
      { id, reason },
      {
        onSuccess: (result) => {
          toast.success(result.message);
          setDialog(null);
        },
        onError: (error) => toast.error(errorMessage(error, 'The player could not be suspended')),
      },
    );
  }

  function onUnsuspend() {
    unsuspend.mutate(id, {
      onSuccess: (result) => {
        toast.success(result.message);
        setDialog(null);
      },
      onError: (error) => toast.error(errorMessage(error, 'The suspension could not be lifted')),
    });
  }

  return (
    <div className="flex flex-col gap-8">
      <div>
        <BackLink>
          <Link href="/users" className="text-accent hover:underline">
            ← Users
          </Link>
        </BackLink>
        <header className="flex flex-wrap items-center justify-between gap-4">
          <div className="flex min-w-0 items-center gap-4">
            <Avatar src={user.profilePhoto} name={user.username} className="size-14 text-xl" />
            <div className="min-w-0">
              <h1 className="text-2xl font-bold break-words sm:text-3xl">{user.fullname}</h1>
              <p className="flex flex-wrap items-center gap-2 text-sm text-muted">
                <span className="flex items-center gap-1">
                  {user.username}
                  {user.isVerified ? <VerifiedTick /> : null}
                </span>
                {suspended ? <Tag tone="danger">Suspended</Tag> : <Tag tone="live">Active</Tag>}
                {user.role === 'admin' ? <Tag tone="accent">Admin</Tag> : null}
              </p>
            </div>
          </div>
          {user.id === me?.id ? null : suspended ? (
            <Button variant="outline" onClick={() => setDialog('unsuspend')}>
              Lift suspension
            </Button>
          ) : (
            <Button variant="danger" onClick={() => setDialog('suspend')}>
              Suspend
            </Button>
          )}
        </header>
        {suspended ? (
          <p className="mt-4 rounded-xl border border-danger/40 bg-danger/10 px-4 py-3 text-sm">
            <strong className="text-danger">Suspended:</strong> {data.suspendedReason}
          </p>
        ) : null}
      </div>

      <Section title="Profile" id="profile-title">
        <Profile detail={data} />
      </Section>

      <AdjustmentForm detail={data} />

      <ResponsiblePlaySection userId={user.id} name={user.fullname} />
      <KycSection userId={user.id} />

      <Section title="Activity" id="activity-title">
        <TabbedSections
          label="Activity"
          items={[
            {
              key: 'ledger',
              label: 'Wallet ledger',
              count: data.ledger.length,
              content: <ColumnTable spec={LEDGER_TABLE} rows={data.ledger} />,
            },
            {
              key: 'plays',
              label: 'Plays',
              count: data.plays.length,
              content: <ColumnTable spec={PLAY_TABLE} rows={data.plays} />,
            },
            {
              key: 'payments',
              label: 'Payments',
              count: data.payments.length,
              content: <ColumnTable spec={PAYMENT_TABLE} rows={data.payments} />,
            },
            {
              key: 'withdrawals',
              label: 'Withdrawals',
              count: data.withdrawals.length,
              content: <ColumnTable spec={WITHDRAWAL_TABLE} rows={data.withdrawals} />,
            },
          ]}
        />
        <p className="text-xs text-muted">The latest 100 of each.</p>
      </Section>

      <ReasonDialog
        open={dialog === 'suspend'}
        title={`Suspend ${user.fullname}?`}
        description="Their sessions stop working at once and login tells them why."
        schema={suspendBodySchema}
        hint="The player sees this reason when they try to log in."
        confirmLabel="Suspend"
        busy={suspend.isPending}
        onSubmit={onSuspend}
        onClose={() => setDialog(null)}
      />
      <ConfirmDialog
        open={dialog === 'unsuspend'}
        title={`Lift ${user.fullname}'s suspension?`}
        description="They can log in and play again straight away."
        confirmLabel="Lift suspension"
        variant="primary"
        busy={unsuspend.isPending}
        onConfirm={onUnsuspend}
        onClose={() => setDialog(null)}
      />
    </div>
  );
}
