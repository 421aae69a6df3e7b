import { useSyncExternalStore } from 'react';
import { storedFlag } from './storage.ts';

/*
 * Low-data mode: on when the browser sends the Save-Data hint (the phone's or
 * Chrome's data saver) or the player turned on "Data saver" in Profile (kept on this device).
 * Then avatars are drawn from initials instead of downloaded, nothing is fetched ahead of
 * need and the app polls less often.
 */

export const DATA_SAVER_KEY = 'pluckers.dataSaver';

interface NetworkInformation {
  saveData?: boolean;
}

/** The browser's Save-Data hint (navigator.connection.saveData, Chromium only). */
export function browserSavesData(): boolean {
  // globalThis: the build's prerender runs where there is no navigator.
  const connection = (globalThis.navigator as Navigator & { connection?: NetworkInformation })
    ?.connection;
  return connection?.saveData === true;
}

const listeners = new Set<() => void>();

export function dataSaverSwitch(): boolean {
  return storedFlag.get(DATA_SAVER_KEY);
}

export function setDataSaverSwitch(on: boolean): void {
  storedFlag.set(DATA_SAVER_KEY, on);
  for (const listener of listeners) listener();
}

/** Whether to spend as little data as possible right now. */
export function savingData(): boolean {
  return dataSaverSwitch() || browserSavesData();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSavingData(): boolean {
  return useSyncExternalStore(subscribe, savingData, () => false);
}

export function useDataSaverSwitch(): boolean {
  return useSyncExternalStore(subscribe, dataSaverSwitch, () => false);
}

/** A poll's interval, four times longer in low-data mode. */
export function pollEvery(ms: number): number {
  return savingData() ? ms * 4 : ms;
}
