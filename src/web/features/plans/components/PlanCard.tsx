import { formatNaira } from '@shared/money.ts';
import type { Plan } from '@shared/schemas/plans.ts';
import { VerifiedTick } from '@web/components/ui/VerifiedTick.tsx';
import { Link } from 'wouter';

export function featureList(plan: Plan): string[] {
  const { features } = plan;
  return [
    features.gamesPerDay === null ? 'Unlimited daily games' : `${features.gamesPerDay} games a day`,
    ...(features.tournamentAccess ? ['Tournament access'] : []),
    ...(features.getVerifiedBadge ? ['Verified badge: no plucker_ prefix'] : []),
    ...(features.earlyTournamentInvite ? ['Early tournament invites'] : []),
    ...(features.priorityLeaderboardPlacement ? ['Priority leaderboard placement'] : []),
    ...(features.showAds ? [] : ['No ads']),
  ];
}

/** `paused`: the player is on a break, so the card has no way to upgrade. */
export function PlanCard({ plan, paused = false }: { plan: Plan; paused?: boolean }) {
  return (
    <article className="relative flex flex-col gap-5 overflow-hidden rounded-3xl border border-vip/40 bg-gradient-to-b from-vip/10 to-card p-6">
      <div className="flex items-center justify-between">
        <h2 className="flex items-center gap-2 text-2xl font-bold">
          {plan.planName}
          {plan.features.getVerifiedBadge ? <VerifiedTick className="size-6" /> : null}
        </h2>
        <span className="rounded-full bg-vip px-3 py-1 text-xs font-bold text-black">
          Most popular
        </span>
      </div>
      <p>
        <span className="text-4xl font-bold">{formatNaira(plan.weeklyPrice)}</span>
        <span className="text-muted"> / week</span>
      </p>
      <p className="-mt-3 text-sm text-muted">
        That is {formatNaira(plan.amountPerDay)} a day, paid weekly from your wallet.
      </p>
      <ul className="flex flex-col gap-2">
        {featureList(plan).map((feature) => (
          <li key={feature} className="flex items-start gap-2 text-sm">
            <span aria-hidden="true" className="text-vip">
              ✓
            </span>
            {feature}
          </li>
        ))}
      </ul>
      {paused ? null : (
        <Link
          href={`/UpgradeAccount/${plan.id}`}
          className="mt-auto inline-flex min-h-12 items-center justify-center rounded-xl bg-vip px-5 font-bold text-black hover:bg-vip/85"
        >
          Upgrade to {plan.planName}
        </Link>
      )}
    </article>
  );
}
