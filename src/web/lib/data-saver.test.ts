import { afterEach, describe, expect, it } from 'vitest';
import { DATA_SAVER_KEY, pollEvery, savingData, setDataSaverSwitch } from './data-saver.ts';

/** Low-data mode: the Profile switch or the browser's Save-Data hint. */
function setSaveData(saveData: boolean | undefined): void {
  Object.defineProperty(navigator, 'connection', {
    configurable: true,
    value: saveData === undefined ? undefined : { saveData },
  });
}

afterEach(() => {
  localStorage.clear();
  Reflect.deleteProperty(navigator, 'connection');
});

describe('data saver', () => {
  it('is off by default, and polls keep their interval', () => {
    setSaveData(undefined);
    expect(savingData()).toBe(false);
    expect(pollEvery(60_000)).toBe(60_000);
  });

  it("follows the player's switch, kept on this device", () => {
    setDataSaverSwitch(true);
    expect(localStorage.getItem(DATA_SAVER_KEY)).toBe('1');
    expect(savingData()).toBe(true);
    expect(pollEvery(60_000)).toBe(240_000);
    setDataSaverSwitch(false);
    expect(localStorage.getItem(DATA_SAVER_KEY)).toBeNull();
    expect(savingData()).toBe(false);
  });

  it("honours the browser's Save-Data hint whatever the switch says", () => {
    setSaveData(true);
    expect(savingData()).toBe(true);
    setSaveData(false);
    expect(savingData()).toBe(false);
  });
});
