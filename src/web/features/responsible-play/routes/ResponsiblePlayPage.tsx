import { Button } from '@web/components/ui/Button.tsx';
import { PageLoading } from '@web/components/ui/LoadingState.tsx';
import { PageHeader } from '@web/components/ui/PageHeader.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { useResponsiblePlay } from '../api/get-responsible-play.ts';
import { BreakCard } from '../components/BreakCard.tsx';
import { LimitsCard } from '../components/LimitsCard.tsx';
import { PreferencesCard } from '../components/PreferencesCard.tsx';
import { StatementCard } from '../components/StatementCard.tsx';

export function ResponsiblePlayPage() {
  const overview = useResponsiblePlay();

  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Responsible play" eyebrow="Stay in control" />
      <p className="-mt-4 max-w-2xl text-sm text-muted">
        Set limits on what you top up and spend, take a break, or get reminders while you play.
        Limits count per calendar day, week (from Monday) and month, Lagos time.
      </p>
      {overview.isPending ? (
        // Offline it says so, with Retry, rather than spinning (never cached: limits must be live).
        <PageLoading label="Loading your limits" />
      ) : overview.isError ? (
        <div
          role="alert"
          className="flex flex-col items-start gap-3 rounded-2xl border border-danger/50 p-5"
        >
          <p>{errorMessage(overview.error, 'Your limits could not be loaded.')}</p>
          <Button variant="outline" onClick={() => overview.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <>
          <BreakCard exclusion={overview.data.exclusion} />
          <div className="grid gap-6 lg:grid-cols-2">
            <LimitsCard
              kind="deposit"
              limits={overview.data.limits.filter((limit) => limit.kind === 'deposit')}
            />
            <LimitsCard
              kind="spend"
              limits={overview.data.limits.filter((limit) => limit.kind === 'spend')}
            />
          </div>
          <PreferencesCard
            realityCheckMinutes={overview.data.realityCheckMinutes}
            marketingEmails={overview.data.marketingEmails}
            onBreak={overview.data.exclusion !== null}
          />
        </>
      )}
      <StatementCard />
    </div>
  );
}
