import { BreakNotice } from '@web/components/ui/BreakNotice.tsx';
import { PageHeader } from '@web/components/ui/PageHeader.tsx';
import { Spinner } from '@web/components/ui/Spinner.tsx';
import { usePlayBreak } from '@web/lib/play-break.ts';
import { lazy, Suspense } from 'react';
import { BalanceCard } from '../components/BalanceCard.tsx';
import { BankAccountCard } from '../components/BankAccountCard.tsx';
import { BankTransferCard } from '../components/BankTransferCard.tsx';
import { IdentityCard } from '../components/IdentityCard.tsx';
import { WithdrawalHistory } from '../components/WithdrawalHistory.tsx';
import { WithdrawForm } from '../components/WithdrawForm.tsx';
import { useFreshUser } from '../lib/session-data.ts';

// Its own chunk: the chart is extra, so the form and history never wait for it.
const BalanceChart = lazy(() =>
  import('../components/BalanceChart.tsx').then((module) => ({ default: module.BalanceChart })),
);

function ChartPlaceholder() {
  return (
    <div className="grid min-h-56 place-items-center rounded-2xl border border-line bg-card">
      <Spinner label="Loading balance chart" />
    </div>
  );
}

/**
 * docs/product.md#screens /WithdrawFunds and /wallet: balance card, withdraw form, bank account, history; and
 * the KYC tier with its caps and the "Verify your identity" flow.
 */
export function WalletPage() {
  useFreshUser();
  // Withdrawing stays open on a break; topping up (by card or bank transfer) is not offered.
  const onBreak = usePlayBreak();
  return (
    <div>
      <PageHeader eyebrow="Wallet" title="Withdraw funds" />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)] lg:items-start">
        <div className="flex flex-col gap-6">
          <BalanceCard action={onBreak ? undefined : { href: '/topup', label: 'Top up' }} />
          {onBreak ? <BreakNotice exclusion={onBreak} /> : <BankTransferCard />}
          <WithdrawForm />
          <IdentityCard />
          <BankAccountCard />
        </div>
        <div className="flex flex-col gap-6">
          <Suspense fallback={<ChartPlaceholder />}>
            <BalanceChart />
          </Suspense>
          <WithdrawalHistory />
        </div>
      </div>
    </div>
  );
}
