import { ERROR_MESSAGES } from '@shared/messages.ts';
import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  type NotificationPreferences,
  PREFERENCE_LABELS,
} from '@shared/schemas/push.ts';
import { Button, buttonBase, buttonStyles } from '@web/components/ui/Button.tsx';
import { Card } from '@web/components/ui/Card.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { toast } from '@web/lib/toast.tsx';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { usePreferences } from '../api/get-preferences.ts';
import { useSavePreferences } from '../api/save-preferences.ts';
import {
  PushServiceSilent,
  type PushState,
  pushState,
  turnPushOff,
  turnPushOn,
} from '../lib/push-device.ts';
import { Switch } from './Switch.tsx';

const KINDS = ['results', 'withdrawals', 'tournaments', 'planRenewal'] as const;

export const PUSH_STATE_TEXT: Record<PushState | 'checking', string> = {
  checking: 'Checking this device…',
  on: 'On: this device shows a notification the moment something happens.',
  off: 'Off: turn them on to hear about results and payouts without opening the app.',
  denied:
    "Blocked in this browser's site settings. Allow notifications for Pluckers there, then come back.",
  unsupported:
    'This browser cannot show notifications. On an iPhone, add Pluckers to your Home Screen first.',
  'no-service':
    "This browser cannot deliver notifications: it has no notification service (Chromium without Google's services, for one). Your results still reach the bell here, and your inbox while “E-mail me too” is on below. Chrome, Edge or Firefox can show them on this device.",
  'data-saver':
    "Data saver is on, and notifications arrive through the app's background helper, which Data saver keeps off. Turn Data saver off in Profile, then turn notifications on here.",
};

export const NO_SERVICE_TOAST = 'Notifications could not be turned on in this browser';

/** What the button does in each state: a browser without a push service may still get one. */
const TOGGLE_LABEL: Partial<Record<PushState, string>> = {
  on: 'Turn off',
  off: 'Turn on',
  'no-service': 'Try again',
};

/** This device's push opt-in, and what the player wants to hear about (every device alike). */
export function PushSettings() {
  const [device, setDevice] = useState<PushState | 'checking'>('checking');
  const [busy, setBusy] = useState(false);
  const preferences = usePreferences();
  const save = useSavePreferences();
  const current = preferences.data ?? DEFAULT_NOTIFICATION_PREFERENCES;

  useEffect(() => {
    let live = true;
    pushState()
      .then((state) => live && setDevice(state))
      .catch(() => live && setDevice('off'));
    return () => {
      live = false;
    };
  }, []);

  async function toggleDevice() {
    setBusy(true);
    try {
      const next = device === 'on' ? await turnPushOff() : await turnPushOn();
      setDevice(next);
      if (next === 'on') toast.success('Notifications are on for this device');
      // The status line says why; a second tap that fails the same way still answers.
      if (next === 'no-service') toast.error(NO_SERVICE_TOAST);
      if (device === 'on' && next === 'off') toast.success('Notifications are off for this device');
    } catch (error) {
      toast.error(
        error instanceof PushServiceSilent
          ? error.message
          : errorMessage(error, ERROR_MESSAGES.generic),
      );
    } finally {
      setBusy(false);
    }
  }

  function change(key: keyof NotificationPreferences, value: boolean) {
    save.mutate(
      { ...current, [key]: value },
      { onError: (error) => toast.error(errorMessage(error, ERROR_MESSAGES.generic)) },
    );
  }

  const toggleLabel = device === 'checking' ? undefined : TOGGLE_LABEL[device];
  return (
    <section aria-labelledby="push-settings-title" className="mb-6">
      <Card>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0 flex-1 basis-64">
            <h2 id="push-settings-title" className="text-lg font-bold">
              Notifications on this device
            </h2>
            <p className="mt-1 text-sm text-muted" role="status">
              {PUSH_STATE_TEXT[device]}
            </p>
          </div>
          {toggleLabel ? (
            <Button
              variant={device === 'off' ? 'primary' : 'outline'}
              loading={busy}
              onClick={toggleDevice}
            >
              {toggleLabel}
            </Button>
          ) : null}
          {device === 'data-saver' ? (
            <Link href="/Profile" className={`${buttonBase} ${buttonStyles.outline}`}>
              Open Profile
            </Link>
          ) : null}
        </div>
        <fieldset className="mt-4 border-t border-line pt-3">
          <div>
            <legend className="sr-only">What to tell me about</legend>
            <p
              aria-hidden="true"
              className="pt-1 text-xs font-semibold uppercase tracking-wide text-muted"
            >
              Tell me about
            </p>
            {KINDS.map((kind) => (
              <Switch
                key={kind}
                id={`push-kind-${kind}`}
                label={PREFERENCE_LABELS[kind]}
                checked={current[kind]}
                disabled={preferences.isPending}
                onChange={(value) => change(kind, value)}
              />
            ))}
            <div className="mt-2 border-t border-line pt-2">
              <Switch
                id="push-kind-emails"
                label={PREFERENCE_LABELS.emails}
                checked={current.emails}
                disabled={preferences.isPending}
                onChange={(value) => change('emails', value)}
              />
            </div>
          </div>
        </fieldset>
      </Card>
    </section>
  );
}
