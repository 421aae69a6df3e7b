import { formatDate } from '@shared/date.ts';
import {
  EXCLUSION_DURATIONS,
  type ExclusionDuration,
  exclusionEnd,
} from '@shared/responsible-play.ts';
import type { PlayExclusion } from '@shared/schemas/responsible-play.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Card } from '@web/components/ui/Card.tsx';
import { Modal } from '@web/components/ui/Modal.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { toast } from '@web/lib/toast.tsx';
import { useId, useState } from 'react';
import { useStartExclusion } from '../api/start-exclusion.ts';

const GROUPS = [
  {
    kind: 'timeout',
    legend: 'Time-out',
    options: ['24h', '7d', '30d'] as ExclusionDuration[],
  },
  {
    kind: 'self_exclusion',
    legend: 'Self-exclusion',
    options: ['6m', '1y', '5y'] as ExclusionDuration[],
  },
] as const;

/** Said before "break", so hyphenated and singular: "a 24-hour break", never "a 24 hours break". */
const BREAK_LENGTH: Record<ExclusionDuration, string> = {
  '24h': '24-hour',
  '7d': '7-day',
  '30d': '30-day',
  '6m': '6-month',
  '1y': '1-year',
  '5y': '5-year',
};

/** A break (time-out or self-exclusion): the one running, or the choice and its confirmation. */
export function BreakCard({ exclusion }: { exclusion: PlayExclusion | null }) {
  const headingId = useId();
  const start = useStartExclusion();
  const [choice, setChoice] = useState<ExclusionDuration>('24h');
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (exclusion) {
    return (
      <Card role="region" aria-labelledby={headingId} id="break" className="border-vip/50">
        <h2 id={headingId} className="text-lg font-bold">
          {exclusion.kind === 'timeout' ? 'You are on a time-out' : 'You have excluded yourself'}
        </h2>
        <p className="mt-2" role="status">
          Until <strong>{formatDate(exclusion.endsAt)}</strong> you cannot play, top up or
          subscribe. You can still see your balance and history and withdraw your money.
        </p>
        <p className="mt-2 text-sm text-muted">
          A break cannot be ended early. If you need to talk to someone, contact support.
        </p>
      </Card>
    );
  }

  const length = BREAK_LENGTH[choice];
  const until = formatDate(exclusionEnd(new Date(), choice));

  function onConfirm() {
    start.mutate(
      { duration: choice, confirm: true },
      {
        onSuccess: (result) => {
          setConfirming(false);
          toast.success(result.message);
        },
        onError: (failure) => {
          setConfirming(false);
          setError(errorMessage(failure, 'Your break could not be started'));
        },
      },
    );
  }

  return (
    <Card role="region" aria-labelledby={headingId} id="break">
      <h2 id={headingId} className="text-lg font-bold">
        Take a break
      </h2>
      <p className="mt-1 text-sm text-muted">
        A time-out or self-exclusion stops plays, top-ups and plan renewals until it ends. You keep
        access to your balance, your history and withdrawals. It cannot be undone.
      </p>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        {GROUPS.map((group) => (
          <fieldset key={group.kind} className="flex flex-col gap-2">
            <legend className="mb-2 text-sm font-semibold">{group.legend}</legend>
            {group.options.map((option) => (
              <label
                key={option}
                className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl border border-line px-4 has-[:checked]:border-accent"
              >
                <input
                  type="radio"
                  name="break-duration"
                  value={option}
                  checked={choice === option}
                  onChange={() => setChoice(option)}
                  className="size-4 accent-[var(--color-accent)]"
                />
                {EXCLUSION_DURATIONS[option].label}
              </label>
            ))}
          </fieldset>
        ))}
      </div>
      {error ? (
        <p role="alert" className="mt-3 text-sm text-danger">
          {error}
        </p>
      ) : null}
      <Button variant="danger" className="mt-4" onClick={() => setConfirming(true)}>
        Start a {length} break
      </Button>
      <Modal
        open={confirming}
        title={`Start a ${length} break?`}
        onClose={() => setConfirming(false)}
        dismissible={!start.isPending}
      >
        <p>
          Until <strong>{until}</strong> you will not be able to play, top up or subscribe, and your
          plan will not renew. <strong>This cannot be undone</strong>, not even by asking us.
        </p>
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <Button
            variant="outline"
            data-autofocus
            onClick={() => setConfirming(false)}
            disabled={start.isPending}
          >
            Cancel
          </Button>
          <Button variant="danger" onClick={onConfirm} loading={start.isPending}>
            Yes, start my break
          </Button>
        </div>
      </Modal>
    </Card>
  );
}
