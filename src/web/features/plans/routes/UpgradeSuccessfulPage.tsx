import { PAGE_TEXTS } from '@shared/messages.ts';
import { VerifiedTick } from '@web/components/ui/VerifiedTick.tsx';
import { useSession } from '@web/lib/session.ts';
import { Link, Redirect } from 'wouter';

export function UpgradeSuccessfulPage() {
  const username = useSession((session) => session.user?.username ?? '');
  const hasPlan = useSession((session) => Boolean(session.user?.planID));
  // The reverse of Pricing sending a subscriber away: a player without a plan is not welcomed to
  // VIP, but shown the plans.
  if (!hasPlan) return <Redirect to="/Pricing" replace />;
  return (
    <section className="mx-auto flex max-w-lg flex-col items-center gap-5 py-10 text-center">
      <VerifiedTick className="size-20" />
      <h1 className="text-3xl font-bold">{PAGE_TEXTS.upgradeSuccessful}</h1>
      <p className="text-white/80">
        Welcome to VIP, <strong className="text-white">{username}</strong>. Unlimited games,
        tournaments and your verified badge are ready.
      </p>
      <Link
        href="/Home"
        className="inline-flex min-h-12 items-center rounded-xl bg-vip px-6 font-bold text-black hover:bg-vip/85"
      >
        Start Pluckin Now
      </Link>
    </section>
  );
}
