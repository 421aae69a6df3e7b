import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { noteRead, SAVED_COPY_HEADER, useSavedCopyAt } from './offline.ts';

/** "Offline, last updated …": reads the service worker answered from its saved copy. */
describe('saved copies of API reads', () => {
  it('keeps the oldest saved copy on show and forgets it once a live read arrives', () => {
    const { result } = renderHook(() => useSavedCopyAt());
    expect(result.current).toBeNull();

    const saved = (date: string) =>
      new Headers({ [SAVED_COPY_HEADER]: '1', date: new Date(date).toUTCString() });
    act(() => noteRead(saved('2026-11-25T10:00:00Z')));
    expect(result.current).toBe(Date.parse('2026-11-25T10:00:00Z'));
    act(() => noteRead(saved('2026-11-25T12:00:00Z')));
    expect(result.current).toBe(Date.parse('2026-11-25T10:00:00Z'));
    act(() => noteRead(saved('2026-11-25T09:00:00Z')));
    expect(result.current).toBe(Date.parse('2026-11-25T09:00:00Z'));

    act(() => noteRead(new Headers({ date: new Date().toUTCString() })));
    expect(result.current).toBeNull();
  });

  it('shows a saved copy without a date as such (0)', () => {
    const { result } = renderHook(() => useSavedCopyAt());
    act(() => noteRead(new Headers({ [SAVED_COPY_HEADER]: '1' })));
    expect(result.current).toBe(0);
    act(() => noteRead(new Headers()));
    expect(result.current).toBeNull();
  });
});
