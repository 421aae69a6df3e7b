import { WALLET_PATH } from '@shared/games.ts';
import { BreakNotice } from '@web/components/ui/BreakNotice.tsx';
import { PageHeader } from '@web/components/ui/PageHeader.tsx';
import { usePlayBreak } from '@web/lib/play-break.ts';
import { BalanceCard } from '../components/BalanceCard.tsx';
import { BankTransferCard } from '../components/BankTransferCard.tsx';
import { PaymentHistory } from '../components/PaymentHistory.tsx';
import { TopUpForm } from '../components/TopUpForm.tsx';
import { useFreshUser } from '../lib/session-data.ts';

/**
 * docs/product.md#screens /TopUp (also /topup): balance card, top-up form, the account number
 * for top-ups by bank transfer, payment history.
 */
export function TopUpPage() {
  useFreshUser();
  const onBreak = usePlayBreak();
  return (
    <div>
      <PageHeader eyebrow="Wallet" title="Top up" />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)] lg:items-start">
        <div className="flex flex-col gap-6">
          <BalanceCard action={{ href: '/withdrawfunds', label: 'Withdraw' }} />
          {onBreak ? (
            <BreakNotice exclusion={onBreak} />
          ) : (
            <>
              <TopUpForm />
              <BankTransferCard identityHref={`${WALLET_PATH}#identity`} />
            </>
          )}
        </div>
        <PaymentHistory />
      </div>
    </div>
  );
}
