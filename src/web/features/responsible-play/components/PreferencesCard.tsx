import { REALITY_CHECK_CHOICES, type RealityCheckMinutes } from '@shared/responsible-play.ts';
import { Card } from '@web/components/ui/Card.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { toast } from '@web/lib/toast.tsx';
import { useId } from 'react';
import { useUpdatePreferences } from '../api/update-preferences.ts';

/** Reality-check reminders and the marketing switch: each saves as soon as it changes. */
export function PreferencesCard({
  realityCheckMinutes,
  marketingEmails,
  onBreak,
}: {
  realityCheckMinutes: number | null;
  marketingEmails: boolean;
  onBreak: boolean;
}) {
  const headingId = useId();
  const switchHintId = useId();
  const update = useUpdatePreferences();
  const save = (body: Parameters<typeof update.mutate>[0]) =>
    update.mutate(body, {
      onSuccess: () => toast.success('Saved'),
      onError: (failure) => toast.error(errorMessage(failure, 'Your choice could not be saved')),
    });

  return (
    <Card role="region" aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-bold">
        Reminders and messages
      </h2>
      <Field
        as="select"
        className="mt-3"
        label="Reality check"
        hint="A reminder of how long you have played and what you have spent or won since you signed in."
        value={realityCheckMinutes === null ? '' : String(realityCheckMinutes)}
        disabled={update.isPending}
        onChange={(event) =>
          save({
            realityCheckMinutes:
              event.target.value === ''
                ? null
                : (Number(event.target.value) as RealityCheckMinutes),
          })
        }
      >
        <option value="">Off</option>
        {REALITY_CHECK_CHOICES.map((minutes) => (
          <option key={minutes} value={minutes}>
            Every {minutes} minutes
          </option>
        ))}
      </Field>
      <div className="mt-5 flex items-start justify-between gap-4">
        <div>
          <p id={`${switchHintId}-label`} className="text-sm font-medium">
            Tournament news and offers
          </p>
          <p id={switchHintId} className="text-xs text-muted">
            {onBreak
              ? 'Paused while your break runs, whatever you choose here.'
              : 'Announcements of new tournaments. Messages about your account always reach you.'}
          </p>
        </div>
        <button
          type="button"
          role="switch"
          aria-checked={marketingEmails}
          aria-labelledby={`${switchHintId}-label`}
          aria-describedby={switchHintId}
          disabled={update.isPending}
          onClick={() => save({ marketingEmails: !marketingEmails })}
          className={`relative inline-flex h-8 w-14 shrink-0 items-center rounded-full border-2 transition-colors disabled:opacity-60 ${
            marketingEmails ? 'border-accent bg-accent' : 'border-line bg-page'
          }`}
        >
          <span
            aria-hidden="true"
            className={`inline-block size-6 rounded-full bg-white shadow transition-transform ${
              marketingEmails ? 'translate-x-6' : 'translate-x-0.5'
            }`}
          />
        </button>
      </div>
    </Card>
  );
}
