import { PLAN_DAYS_PER_PERIOD } from '@shared/constants.ts';
import { formatNaira } from '@shared/money.ts';
import type { AdminPlan } from '@shared/schemas/admin.ts';
import { planBodySchema } from '@shared/schemas/admin.ts';
import type { PlanFeatures } from '@shared/schemas/plans.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { EmptyState } from '@web/components/ui/EmptyState.tsx';
import { CheckboxField, Field } from '@web/components/ui/Field.tsx';
import { Tag } from '@web/components/ui/GameCard.tsx';
import { numberOrUndefined, useSchemaForm } from '@web/lib/schema-form.ts';
import { useRef } from 'react';
import { useAdminPlans } from '../api/get-plans.ts';
import { useSavePlan } from '../api/save-plan.ts';
import { useFocusOnOpen } from '../components/dialogs.tsx';
import { closeWhenSaved, EditableListPage, EditorActions } from '../components/EditableList.tsx';

type FlagKey = Exclude<keyof PlanFeatures, 'gamesPerDay'>;

const FLAGS: { key: FlagKey; label: string; hint: string }[] = [
  { key: 'getVerifiedBadge', label: 'Verified badge', hint: 'Green tick; username without prefix' },
  { key: 'tournamentAccess', label: 'Tournament access', hint: 'May play tournaments' },
  { key: 'earlyTournamentInvite', label: 'Early tournament invite', hint: 'Told first' },
  {
    key: 'priorityLeaderboardPlacement',
    label: 'Priority leaderboard placement',
    hint: 'Ranked first on ties',
  },
  { key: 'showAds', label: 'Show ads', hint: 'Leave off for an ad-free plan' },
];

type PlanValues = {
  planName: string;
  amountPerDay: string;
  isActive: boolean;
  gamesPerDay: string;
} & Record<FlagKey, boolean>;

function valuesOf(plan?: AdminPlan): PlanValues {
  return {
    planName: plan?.planName ?? '',
    amountPerDay: plan ? String(plan.amountPerDay) : '',
    isActive: plan?.isActive ?? true,
    gamesPerDay:
      plan?.features.gamesPerDay === null || plan?.features.gamesPerDay === undefined
        ? ''
        : String(plan.features.gamesPerDay),
    getVerifiedBadge: plan?.features.getVerifiedBadge ?? true,
    tournamentAccess: plan?.features.tournamentAccess ?? true,
    earlyTournamentInvite: plan?.features.earlyTournamentInvite ?? false,
    priorityLeaderboardPlacement: plan?.features.priorityLeaderboardPlacement ?? false,
    showAds: plan?.features.showAds ?? false,
  };
}

function toInput(values: PlanValues) {
  return {
    planName: values.planName,
    amountPerDay: numberOrUndefined(values.amountPerDay),
    isActive: values.isActive,
    features: {
      getVerifiedBadge: values.getVerifiedBadge,
      gamesPerDay: values.gamesPerDay.trim() === '' ? null : Number(values.gamesPerDay),
      tournamentAccess: values.tournamentAccess,
      earlyTournamentInvite: values.earlyTournamentInvite,
      priorityLeaderboardPlacement: values.priorityLeaderboardPlacement,
      showAds: values.showAds,
    },
  };
}

function PlanForm({ plan, onDone }: { plan?: AdminPlan; onDone: () => void }) {
  const save = useSavePlan();
  const form = useSchemaForm({ schema: planBodySchema, initial: valuesOf(plan), toInput });
  const { values, field, checkbox } = form;
  const nameRef = useRef<HTMLInputElement>(null);
  useFocusOnOpen(nameRef);
  const daily = Number(values.amountPerDay);
  return (
    <form
      ref={form.formRef}
      noValidate
      className="flex flex-col gap-4"
      onSubmit={form.handleSubmit((body) =>
        save.mutate({ id: plan?.id, body }, closeWhenSaved('plan', onDone)),
      )}
    >
      <Field ref={nameRef} label="Plan name" {...field('planName')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Price per day (₦)"
          inputMode="decimal"
          hint={
            Number.isFinite(daily) && daily > 0
              ? `${formatNaira(daily * PLAN_DAYS_PER_PERIOD)} a week`
              : 'Charged weekly'
          }
          {...field('amountPerDay')}
        />
        <Field
          label="Games per day"
          inputMode="numeric"
          hint="Blank means unlimited"
          {...field('gamesPerDay', 'features.gamesPerDay')}
        />
      </div>
      <fieldset className="flex flex-col gap-1">
        <legend className="mb-2 text-sm font-medium">Features</legend>
        {FLAGS.map((flag) => (
          <CheckboxField
            key={flag.key}
            label={flag.label}
            hint={flag.hint}
            {...checkbox(flag.key, `features.${flag.key}`)}
          />
        ))}
      </fieldset>
      <CheckboxField
        label="On sale"
        hint="Inactive plans are hidden from players; current subscribers keep them."
        {...checkbox('isActive')}
      />
      <EditorActions saving={save.isPending} onCancel={onDone}>
        {plan ? 'Save plan' : 'Create plan'}
      </EditorActions>
    </form>
  );
}

function PlanCard({ plan, onEdit }: { plan: AdminPlan; onEdit: () => void }) {
  const features = [
    plan.features.gamesPerDay === null
      ? 'Unlimited games a day'
      : `${plan.features.gamesPerDay} games a day`,
    ...FLAGS.filter((flag) => plan.features[flag.key]).map((flag) => flag.label),
  ];
  return (
    <article className="flex flex-col gap-4 rounded-2xl border border-line bg-card p-5">
      <div className="flex items-start justify-between gap-3">
        <div>
          <h2 className="text-lg font-bold">{plan.planName}</h2>
          <p className="text-sm text-muted">
            <span className="text-xl font-bold text-vip">{formatNaira(plan.amountPerDay)}</span> a
            day · {formatNaira(plan.weeklyPrice)} a week
          </p>
        </div>
        {plan.isActive ? (
          <Tag tone="live" className="shrink-0 whitespace-nowrap">
            On sale
          </Tag>
        ) : (
          <Tag tone="muted" className="shrink-0 whitespace-nowrap">
            Inactive
          </Tag>
        )}
      </div>
      <ul className="flex flex-col gap-1.5 text-sm">
        {features.map((feature) => (
          <li key={feature} className="flex items-center gap-2">
            <span aria-hidden="true" className="text-vip">
              ✓
            </span>
            {feature}
          </li>
        ))}
      </ul>
      <Button
        variant="outline"
        className="mt-auto"
        onClick={onEdit}
        aria-label={`Edit ${plan.planName}`}
      >
        Edit
      </Button>
    </article>
  );
}

export function PlansPage() {
  return (
    <EditableListPage
      title="Plans"
      eyebrow="VIP subscriptions"
      noun="plan"
      plural="plans"
      query={useAdminPlans()}
      empty={
        <EmptyState icon="⭐" title="No plans yet">
          <p>Create a plan and players can subscribe from the pricing page.</p>
        </EmptyState>
      }
      list={(plans, edit) => (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {plans.map((plan) => (
            <li key={plan.id} className="grid">
              <PlanCard plan={plan} onEdit={() => edit(plan)} />
            </li>
          ))}
        </ul>
      )}
      form={(plan, done) => <PlanForm plan={plan} onDone={done} />}
    />
  );
}
