import { ApiError } from '@web/lib/http.ts';
import { useSyncExternalStore } from 'react';

/**
 * Payouts, wallet adjustments, lifted breaks and settings changes want a second-factor proof
 * from the last 15 minutes. When the server answers FRESH_SECOND_FACTOR_REQUIRED, the console
 * asks for a code (FreshSecondFactorDialog, mounted once in AdminApp) and, once it is accepted,
 * sends the same request again: the operator does not have to start the action over.
 */
interface Pending {
  resolve: () => void;
  reject: (error: unknown) => void;
}

let pending: Pending | null = null;
const listeners = new Set<() => void>();

function notify() {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the console is asking for a fresh code right now. */
export function useFreshSecondFactorRequest(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => pending !== null,
    () => false,
  );
}

/** The dialog's answer: the code was accepted (retry) or the operator gave up (`error`). */
export function settleFreshSecondFactor(error?: unknown) {
  const current = pending;
  pending = null;
  notify();
  if (!current) return;
  if (error === undefined) current.resolve();
  else current.reject(error);
}

function askForCode(refusal: ApiError): Promise<void> {
  // One prompt at a time: a second action refused meanwhile waits for the same code.
  if (pending) {
    const earlier = pending;
    return new Promise((resolve, reject) => {
      pending = {
        resolve: () => {
          earlier.resolve();
          resolve();
        },
        reject: (error) => {
          earlier.reject(error);
          reject(refusal);
        },
      };
    });
  }
  return new Promise((resolve, reject) => {
    pending = { resolve, reject: () => reject(refusal) };
    notify();
  });
}

/** Runs `action`; when it wants a fresh second factor, asks for a code, then runs it again. */
export function withFreshSecondFactor<A, T>(action: (args: A) => Promise<T>) {
  return async (args: A): Promise<T> => {
    try {
      return await action(args);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'FRESH_SECOND_FACTOR_REQUIRED')
        throw error;
      await askForCode(error);
      return action(args);
    }
  };
}
