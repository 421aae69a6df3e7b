import { ERROR_MESSAGES, VALIDATION_MESSAGES } from '@shared/messages.ts';
import { formatNaira } from '@shared/money.ts';
import { useAgeGate } from '@web/components/ui/AgeGate.tsx';
import { BreakNotice } from '@web/components/ui/BreakNotice.tsx';
import { Button, buttonBase, buttonStyles } from '@web/components/ui/Button.tsx';
import { Card } from '@web/components/ui/Card.tsx';
import { EmptyState } from '@web/components/ui/EmptyState.tsx';
import { PageLoading } from '@web/components/ui/LoadingState.tsx';
import { ApiError, errorMessage } from '@web/lib/http.ts';
import { usePlayBreak } from '@web/lib/play-break.ts';
import { adjustBalance, setUser, useSession } from '@web/lib/session.ts';
import { toast } from '@web/lib/toast.tsx';
import { Link, Redirect, useLocation, useParams } from 'wouter';
import { usePlans } from '../api/get-plans.ts';
import { useSubscribe } from '../api/subscribe.ts';
import { featureList } from '../components/PlanCard.tsx';

export function UpgradeAccountPage() {
  const { id = '' } = useParams<{ id: string }>();
  const [, navigate] = useLocation();
  const user = useSession((session) => session.user);
  const minimumPayment = useSession((session) => session.settings?.minimumPaymentAmount ?? 0);
  const { data: plans, isPending } = usePlans();
  const subscribe = useSubscribe();
  const { ensureAge, dialog: ageDialog } = useAgeGate();
  const onBreak = usePlayBreak();

  if (user?.planID) return <Redirect to="/" replace />;
  if (isPending) return <PageLoading label="Loading plan" />;
  const plan = plans?.find((candidate) => candidate.id === id);
  if (!user) return null;
  if (!plan) {
    return (
      <EmptyState icon="😕" title={ERROR_MESSAGES.planNotFound}>
        <Link href="/Pricing" className="font-semibold text-accent underline">
          See our plans
        </Link>
      </EmptyState>
    );
  }

  const balanceAfter = user.accountBalance - plan.weeklyPrice;
  const missing = Math.max(0, -balanceAfter);
  // Top-ups start at the minimum payment: Top up is pre-filled with what covers the week.
  const topUp = Math.max(Math.ceil(missing), minimumPayment);

  function confirm() {
    if (!plan?.id) {
      toast.error(VALIDATION_MESSAGES.planId);
      return;
    }
    const price = plan.weeklyPrice;
    subscribe.mutate(plan.id, {
      onSuccess: (result) => {
        // docs/product.md#states: the balance drops locally by the weekly price, then /UpgradeSuccessful.
        adjustBalance(-price);
        setUser(result.data);
        navigate('/UpgradeSuccessful', { replace: true });
      },
      onError: (error) => {
        toast.error(
          error instanceof ApiError && error.code === 'PLAN_NOT_FOUND'
            ? ERROR_MESSAGES.planNotFound
            : errorMessage(error, ERROR_MESSAGES.genericOops),
        );
      },
    });
  }

  return (
    <div className="mx-auto flex max-w-xl flex-col gap-6">
      <h1 className="text-3xl font-bold">Confirm your plan</h1>
      <Card className="flex flex-col gap-5">
        <div className="flex items-baseline justify-between gap-3">
          <h2 className="text-2xl font-bold">{plan.planName}</h2>
          <p>
            <span className="text-2xl font-bold">{formatNaira(plan.weeklyPrice)}</span>
            <span className="text-muted"> / week</span>
          </p>
        </div>
        <ul className="flex flex-col gap-1.5 text-sm">
          {featureList(plan).map((feature) => (
            <li key={feature}>
              <span aria-hidden="true" className="mr-2 text-vip">
                ✓
              </span>
              {feature}
            </li>
          ))}
        </ul>
        <dl className="grid grid-cols-2 gap-y-2 rounded-xl bg-card-raised p-4 text-sm">
          <dt className="text-muted">Wallet balance</dt>
          <dd className="text-right font-semibold">{formatNaira(user.accountBalance)}</dd>
          <dt className="text-muted">First week</dt>
          <dd className="text-right font-semibold">−{formatNaira(plan.weeklyPrice)}</dd>
          {/* Short, the figure that matters is what is missing, not a balance below zero. */}
          <dt className="text-muted">{missing > 0 ? 'You need' : 'Balance after'}</dt>
          <dd className="text-right font-bold text-wallet">
            {missing > 0 ? `${formatNaira(missing)} more` : formatNaira(balanceAfter)}
          </dd>
        </dl>
        <p className="text-sm text-muted">
          Renews every 7 days from your wallet. If your balance is short on renewal day, the plan
          ends; nothing is owed.
        </p>
        {onBreak ? (
          <BreakNotice exclusion={onBreak} />
        ) : missing > 0 ? (
          <Link href={`/TopUp?amount=${topUp}`} className={`${buttonBase} ${buttonStyles.wallet}`}>
            Top up {formatNaira(topUp)}
          </Link>
        ) : (
          <Button
            variant="vip"
            onClick={() => ensureAge(confirm)}
            loading={subscribe.isPending}
            className="w-full"
          >
            Pay {formatNaira(plan.weeklyPrice)} and upgrade
          </Button>
        )}
      </Card>
      {ageDialog}
    </div>
  );
}
