import { formatNaira } from '@shared/money.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Modal } from '@web/components/ui/Modal.tsx';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { useRealityCheck } from '../api/get-reality-check.ts';

const MINUTE = 60_000;

/** When the next reminder is due: every `interval` minutes counted from the sign-in. */
export function nextReminderAt(sessionStartedAt: string, intervalMinutes: number, now: number) {
  const start = new Date(sessionStartedAt).getTime();
  const every = intervalMinutes * MINUTE;
  const elapsed = Math.max(0, now - start);
  return start + (Math.floor(elapsed / every) + 1) * every;
}

function duration(minutes: number) {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const parts = [
    hours > 0 ? `${hours} hour${hours === 1 ? '' : 's'}` : null,
    rest > 0 || hours === 0 ? `${rest} minute${rest === 1 ? '' : 's'}` : null,
  ];
  return parts.filter(Boolean).join(' ');
}

/**
 * The reality check, on every signed-in page: when the player asked for reminders, a dialog
 * every N minutes of the session with how long it has lasted and what it cost or won. Figures
 * are fetched when it opens, from the server's ledger.
 */
export function RealityCheck() {
  const check = useRealityCheck();
  const [open, setOpen] = useState(false);
  const interval = check.data?.intervalMinutes ?? null;
  const started = check.data?.sessionStartedAt;
  const { refetch } = check;

  useEffect(() => {
    if (!interval || !started || open) return;
    const delay = nextReminderAt(started, interval, Date.now()) - Date.now();
    const timer = setTimeout(() => {
      void refetch().then(() => setOpen(true));
    }, delay);
    return () => clearTimeout(timer);
  }, [interval, started, open, refetch]);

  const data = check.data;
  if (!data || !interval) return null;
  const netText =
    data.net > 0
      ? `You are ${formatNaira(data.net)} up`
      : data.net < 0
        ? `You are ${formatNaira(-data.net)} down`
        : 'You are even';

  return (
    <Modal open={open} title="Reality check" onClose={() => setOpen(false)}>
      <p>You have been playing for {duration(data.minutesPlayed)} since you signed in.</p>
      <dl className="mt-4 grid grid-cols-2 gap-3 text-sm">
        <div className="rounded-xl border border-line p-3">
          <dt className="text-muted">Spent on entries</dt>
          <dd className="text-lg font-bold">{formatNaira(data.spent)}</dd>
        </div>
        <div className="rounded-xl border border-line p-3">
          <dt className="text-muted">Won</dt>
          <dd className="text-lg font-bold">{formatNaira(data.won)}</dd>
        </div>
      </dl>
      <p className="mt-3 font-semibold">{netText} this session.</p>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <Link
          href="/ResponsiblePlay"
          onClick={() => setOpen(false)}
          className="inline-flex min-h-11 items-center rounded-xl border border-line px-5 py-2.5 text-sm font-semibold hover:border-accent hover:text-accent"
        >
          Set limits or take a break
        </Link>
        <Button data-autofocus onClick={() => setOpen(false)}>
          Keep playing
        </Button>
      </div>
    </Modal>
  );
}
