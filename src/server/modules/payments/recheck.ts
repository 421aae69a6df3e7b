import type { PaymentProviders } from '../../providers/payments/index.ts';

/**
 * When to ask the provider again about a reference it could not settle yet: 1, 2, 4... minutes,
 * at most every 30 minutes. Kept per app (provider set) in memory; a restart simply asks at once.
 * Without it every worker tick (each second) would ask about every abandoned checkout for a day.
 */
const RECHECK_FIRST_MS = 60_000;
const RECHECK_MAX_MS = 30 * 60_000;
const recheckSchedules = new WeakMap<
  PaymentProviders,
  Map<string, { attempts: number; nextAt: number }>
>();

export type RecheckSchedule = ReturnType<typeof recheckSchedule>;

export function recheckSchedule(providers: PaymentProviders) {
  let schedule = recheckSchedules.get(providers);
  if (!schedule) {
    schedule = new Map();
    recheckSchedules.set(providers, schedule);
  }
  const entries = schedule;
  return {
    due: (key: string, now: number) => (entries.get(key)?.nextAt ?? 0) <= now,
    later(key: string, now: number) {
      const attempts = (entries.get(key)?.attempts ?? 0) + 1;
      const wait = Math.min(RECHECK_FIRST_MS * 2 ** (attempts - 1), RECHECK_MAX_MS);
      entries.set(key, { attempts, nextAt: now + wait });
    },
    forget: (key: string) => entries.delete(key),
    /** Drops keys no longer waiting (settled elsewhere), keeping the map small. */
    keepOnly(keys: Set<string>, prefix: string) {
      for (const key of entries.keys())
        if (key.startsWith(prefix) && !keys.has(key)) entries.delete(key);
    },
  };
}
