import { formatDate } from '@shared/date.ts';
import { formatNaira } from '@shared/money.ts';
import {
  CHECKOUT_COUNTS_MS,
  LIMIT_PERIODS,
  type LimitKind,
  type LimitPeriod,
  periodAdjective,
} from '@shared/responsible-play.ts';
import {
  type PlayLimit,
  type SetLimitBody,
  setLimitBodySchema,
} from '@shared/schemas/responsible-play.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Card } from '@web/components/ui/Card.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { useSchemaForm } from '@web/lib/schema-form.ts';
import { toast } from '@web/lib/toast.tsx';
import { useId } from 'react';
import { useSetLimit } from '../api/set-limit.ts';

const TITLES: Record<LimitKind, { title: string; intro: string }> = {
  deposit: {
    title: 'Deposit limits',
    intro: `The most you can top up, counted when the money lands in your wallet. A checkout you have not paid yet counts for its first ${CHECKOUT_COUNTS_MS / 60_000} minutes. Money that lands past your limit is not added: it is refunded to you, or held until our team returns it or your limit allows.`,
  },
  spend: {
    title: 'Spend limits',
    intro:
      'The most you can pay in entry fees and plans (a renewal past it ends the plan, charging nothing). Free games are never limited.',
  },
};

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A limit is there to remove unless there is none, or its removal is already waiting. */
function canRemove(limit: PlayLimit | undefined): boolean {
  if (!limit || limit.amount === null) return false;
  return limit.pending === null || limit.pending.amount !== null;
}

function LimitRow({ limit }: { limit: PlayLimit }) {
  const name = capitalise(periodAdjective(limit.period));
  return (
    <li className="flex flex-col gap-1 py-3">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <span className="font-semibold">{name}</span>
        <span className="font-semibold">
          {limit.amount === null ? 'No limit' : formatNaira(limit.amount)}
        </span>
      </div>
      <p className="text-sm text-muted">
        {limit.amount === null
          ? `${formatNaira(limit.used)} used so far`
          : `${formatNaira(limit.used)} used, ${formatNaira(limit.remaining ?? 0)} left`}
        {' · '}resets {formatDate(limit.periodEnd)}
      </p>
      {limit.pending ? (
        <p className="text-sm text-vip">
          {limit.pending.amount === null
            ? 'Removal'
            : `Change to ${formatNaira(limit.pending.amount)}`}{' '}
          applies from {formatDate(limit.pending.from)}.
        </p>
      ) : null}
    </li>
  );
}

/** One kind of limit (deposit or spend): the three periods, and a form to change one. */
export function LimitsCard({ kind, limits }: { kind: LimitKind; limits: PlayLimit[] }) {
  const headingId = useId();
  const setLimit = useSetLimit();
  const form = useSchemaForm({
    schema: setLimitBodySchema,
    initial: { period: 'day' as LimitPeriod, amount: '' },
    // An empty amount is NaN, so the schema asks for one: null is the Remove button's.
    toInput: ({ period, amount }) => ({
      kind,
      period,
      amount: amount.trim() === '' ? Number.NaN : Number(amount),
    }),
    report: 'first',
  });
  const { period } = form.values;
  const removable = canRemove(limits.find((limit) => limit.period === period));
  const { title, intro } = TITLES[kind];

  function save(body: SetLimitBody) {
    setLimit.mutate(body, {
      onSuccess: (result) => {
        form.set('amount', '');
        toast.success(result.message);
      },
      onError: (failure) =>
        form.setError('amount', errorMessage(failure, 'The limit could not be saved')),
    });
  }

  function remove() {
    // A new attempt: the last one's message goes, the typed amount stays.
    form.reset(form.values);
    save({ kind, period, amount: null });
  }

  return (
    <Card aria-labelledby={headingId} role="region">
      <h2 id={headingId} className="text-lg font-bold">
        {title}
      </h2>
      <p className="mt-1 text-sm text-muted">{intro}</p>
      <ul className="mt-2 divide-y divide-line">
        {limits.map((limit) => (
          <LimitRow key={limit.period} limit={limit} />
        ))}
      </ul>
      <form
        ref={form.formRef}
        onSubmit={form.handleSubmit(save)}
        noValidate
        className="mt-4 flex flex-col gap-3 border-t border-line pt-4"
      >
        <div className="grid gap-3 sm:grid-cols-2">
          <Field as="select" label="Period" {...form.field('period')}>
            {LIMIT_PERIODS.map((value) => (
              <option key={value} value={value}>
                {capitalise(periodAdjective(value))}
              </option>
            ))}
          </Field>
          <Field
            label="Limit in naira"
            inputMode="numeric"
            autoComplete="off"
            {...form.field('amount')}
            onChange={(event) => form.set('amount', event.target.value.replace(/[^\d]/g, ''))}
            hint="Lower applies now; higher or removed applies after 24 hours."
          />
        </div>
        <div className="flex flex-wrap gap-3">
          <Button type="submit" loading={setLimit.isPending}>
            Save {kind} limit
          </Button>
          {removable ? (
            <Button variant="outline" onClick={remove} disabled={setLimit.isPending}>
              Remove {periodAdjective(period)} limit
            </Button>
          ) : null}
        </div>
      </form>
    </Card>
  );
}
