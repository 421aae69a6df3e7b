import { ERROR_MESSAGES } from '@shared/messages.ts';
import { BreakNotice } from '@web/components/ui/BreakNotice.tsx';
import { EmptyState } from '@web/components/ui/EmptyState.tsx';
import { PageLoading } from '@web/components/ui/LoadingState.tsx';
import { PageHeader } from '@web/components/ui/PageHeader.tsx';
import { usePlayBreak } from '@web/lib/play-break.ts';
import { useSession } from '@web/lib/session.ts';
import type { ReactNode } from 'react';
import { Link, Redirect } from 'wouter';
import { usePlans } from '../api/get-plans.ts';
import { PlanCard } from '../components/PlanCard.tsx';

const STEPS = [
  {
    title: 'Top up your wallet',
    body: 'Add money on the Top up page, through one of our payment partners. The weekly price comes from your wallet balance.',
  },
  {
    title: 'Choose VIP',
    body: 'Confirm the plan. Your verified badge appears at once and the plucker_ prefix disappears.',
  },
  {
    title: 'Play without limits',
    body: 'Answer as many games a day as you like and enter tournaments before anyone else.',
  },
];

const BENEFITS = [
  { icon: '♾️', title: 'Unlimited daily games', body: 'No daily cap on the games you can answer.' },
  {
    icon: '🏆',
    title: 'Tournament access',
    body: 'Enter the Pluckers Cup and every tournament round.',
  },
  {
    icon: '✅',
    title: 'Verified badge',
    body: 'A green tick and your own name, without the plucker_ prefix.',
  },
  {
    icon: '📣',
    title: 'Early tournament invites',
    body: 'Hear about tournaments before they open to everyone.',
  },
  {
    icon: '📈',
    title: 'Priority leaderboard placement',
    body: 'On equal winnings, VIP players rank first.',
  },
  { icon: '💰', title: 'Bigger prize pools', body: 'Tournaments pay out more than daily games.' },
  { icon: '🚫', title: 'No ads', body: 'Nothing between you and the next question.' },
  { icon: '🎧', title: 'Custom support', body: 'A faster line to our support team.' },
  {
    icon: '\u26A1\uFE0F',
    title: 'Early access to rewards',
    body: 'New reward types reach VIP players first.',
  },
];

const FAQ = [
  {
    q: 'How often am I charged?',
    a: 'The price is per week. Your plan renews automatically from your wallet every 7 days; if your balance is too low on renewal day, the plan simply ends and you can subscribe again at any time.',
  },
  {
    q: 'Can I cancel?',
    a: 'Yes. Keep your wallet below the weekly price and the plan ends at the close of the week you paid for. No further charge is made.',
  },
  {
    q: 'Does VIP change my chances of winning?',
    a: 'No. Winners are drawn by software, one in five players, the same for everyone. VIP gives access and comfort, never better odds.',
  },
  {
    q: 'What happens to my badge if my plan ends?',
    a: 'The verified tick goes and your username shows the plucker_ prefix again until you subscribe.',
  },
];

/**
 * The plan cards' row by how many plans there are: one card centred at a reading width, two side
 * by side in the middle, three or more in the full grid (a lone card in a three-column row left
 * two thirds of a laptop's row empty).
 */
function planRow(count: number): string {
  if (count === 1) return 'mx-auto grid w-full max-w-lg gap-6';
  if (count === 2) return 'mx-auto grid w-full max-w-4xl gap-6 md:grid-cols-2';
  return 'grid gap-6 md:grid-cols-2 lg:grid-cols-3';
}

/** One question of an accordion: a + that turns to × when open, as the Support Center's. */
function Disclosure({
  title,
  open = false,
  children,
}: {
  title: ReactNode;
  open?: boolean;
  children: ReactNode;
}) {
  return (
    <details className="group rounded-2xl border border-line bg-card p-4" open={open}>
      <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-3 font-semibold [&::-webkit-details-marker]:hidden">
        <span>{title}</span>
        <span aria-hidden="true" className="transition-transform group-open:rotate-45">
          +
        </span>
      </summary>
      <p className="mt-2 text-white/80">{children}</p>
    </details>
  );
}

export function PricingPage() {
  const hasPlan = useSession((session) => Boolean(session.user?.planID));
  const { data: plans, isPending, isError } = usePlans();
  // On a break the plans stay to read, without a way to subscribe or top up.
  const onBreak = usePlayBreak();
  // docs/product.md#states: a subscribed player opening /Pricing is sent home.
  if (hasPlan) return <Redirect to="/" replace />;

  return (
    <div className="flex flex-col gap-12">
      <section className="rounded-3xl border border-vip/30 bg-gradient-to-r from-vip/15 via-card to-card p-6 sm:p-10">
        <p className="text-sm font-semibold uppercase tracking-[0.25em] text-vip">Go VIP</p>
        <h1 className="mt-2 text-3xl font-bold sm:text-4xl">
          Play more. Get verified. Enter tournaments.
        </h1>
        <p className="mt-3 max-w-2xl text-white/80">
          One weekly plan unlocks unlimited daily games, the Tournament Hub and your verified badge.
        </p>
      </section>

      <section aria-labelledby="plans-title">
        <PageHeader title="Plans" eyebrow="Pricing" />
        <h2 id="plans-title" className="sr-only">
          Available plans
        </h2>
        {onBreak ? <BreakNotice exclusion={onBreak} className="mb-6" /> : null}
        {isPending ? (
          <PageLoading label="Loading plans" />
        ) : isError || !plans ? (
          <EmptyState icon="😕" title={ERROR_MESSAGES.planNotFound}>
            Please refresh the page in a moment.
          </EmptyState>
        ) : (
          <div className={planRow(plans.length)}>
            {plans.map((plan) => (
              <PlanCard key={plan.id} plan={plan} paused={Boolean(onBreak)} />
            ))}
          </div>
        )}
      </section>

      <section aria-labelledby="how-title">
        <h2 id="how-title" className="mb-4 text-2xl font-bold">
          How It Works
        </h2>
        <div className="flex flex-col gap-3">
          {STEPS.map((step, index) => (
            <Disclosure
              key={step.title}
              open={index === 0}
              title={
                <>
                  <span className="mr-3 text-vip">{index + 1}.</span>
                  {step.title}
                </>
              }
            >
              {step.body}
            </Disclosure>
          ))}
        </div>
      </section>

      <section aria-labelledby="benefits-title">
        <h2 id="benefits-title" className="mb-4 text-2xl font-bold">
          VIP benefits
        </h2>
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {BENEFITS.map((benefit) => (
            <li
              key={benefit.title}
              className="flex gap-3 rounded-2xl border border-line bg-card p-4"
            >
              <span aria-hidden="true" className="text-2xl">
                {benefit.icon}
              </span>
              <div>
                <h3 className="font-semibold">{benefit.title}</h3>
                <p className="text-sm text-muted">{benefit.body}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="faq-title">
        <h2 id="faq-title" className="mb-4 text-2xl font-bold">
          Questions
        </h2>
        <div className="flex flex-col gap-3">
          {FAQ.map((item) => (
            <Disclosure key={item.q} title={item.q}>
              {item.a}
            </Disclosure>
          ))}
        </div>
      </section>

      {onBreak ? null : (
        <section className="flex flex-col items-start gap-4 rounded-3xl bg-vip p-6 text-black sm:flex-row sm:items-center sm:justify-between sm:p-8">
          <div>
            <h2 className="text-2xl font-bold">Ready to be verified?</h2>
            <p className="font-medium">Top up, upgrade, and play without limits today.</p>
          </div>
          <Link
            href="/topup"
            className="inline-flex min-h-12 items-center rounded-xl bg-black px-6 font-bold text-vip hover:bg-black/85"
          >
            Top up wallet
          </Link>
        </section>
      )}
    </div>
  );
}
