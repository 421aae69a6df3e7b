import { formatDate } from '@shared/date.ts';
import { formatNaira } from '@shared/money.ts';
import {
  LIMIT_PERIODS,
  type LimitKind,
  type LimitPeriod,
  periodAdjective,
} from '@shared/responsible-play.ts';
import { type PlayLimit, setLimitBodySchema } from '@shared/schemas/responsible-play.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Card } from '@web/components/ui/Card.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { toast } from '@web/lib/toast.tsx';
import { type FormEvent, useId, useState } from 'react';
import { useSetLimit } from '../api/set-limit.ts';

const TITLES: Record<LimitKind, { title: string; intro: string }> = {
  deposit: {
    title: 'Deposit limits',
    intro: 'The most you can top up. Top-ups still waiting for the bank count too.',
  },
  spend: {
    title: 'Spend limits',
    intro: 'The most you can pay in entry fees. Free games are never limited.',
  },
};

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

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
  const [period, setPeriod] = useState<LimitPeriod>('day');
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { title, intro } = TITLES[kind];

  function save(value: number | null) {
    const parsed = setLimitBodySchema.safeParse({ kind, period, amount: value });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the amount');
      return;
    }
    setError(null);
    setLimit.mutate(parsed.data, {
      onSuccess: (result) => {
        setAmount('');
        toast.success(result.message);
      },
      onError: (failure) => setError(errorMessage(failure, 'The limit could not be saved')),
    });
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    save(amount.trim() === '' ? Number.NaN : Number(amount));
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
        onSubmit={onSubmit}
        noValidate
        className="mt-4 flex flex-col gap-3 border-t border-line pt-4"
      >
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            as="select"
            label="Period"
            value={period}
            onChange={(event) => setPeriod(event.target.value as LimitPeriod)}
          >
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
            value={amount}
            onChange={(event) => setAmount(event.target.value.replace(/[^\d]/g, ''))}
            error={error}
            hint="Lower applies now; higher or removed applies after 24 hours."
          />
        </div>
        <div className="flex flex-wrap gap-3">
          <Button type="submit" loading={setLimit.isPending}>
            Save {kind} limit
          </Button>
          <Button variant="outline" onClick={() => save(null)} disabled={setLimit.isPending}>
            Remove {periodAdjective(period)} limit
          </Button>
        </div>
      </form>
    </Card>
  );
}
