import { render, waitFor } from '@testing-library/react';
import { setSettings, setUser } from '@web/lib/session.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import { setPageUrl } from '../../../test/browser.ts';
import { signIn } from '../../../test/player.tsx';
import { useFreshUser } from './session-data.ts';

const server = testServerPerFile();

beforeEach(() => {
  setPageUrl(`${server().origin}/TopUp`);
});

afterEach(() => {
  setUser(null);
  setSettings(null);
});

function FreshUser() {
  useFreshUser();
  return null;
}

describe('useFreshUser', () => {
  it('reloads the player on arrival and on a return, however soon, once per return', async () => {
    await signIn(server());
    const fetchSpy = vi.spyOn(window, 'fetch');
    const userLoads = () =>
      fetchSpy.mock.calls.filter(([url]) => String(url).endsWith('/api/v1/user')).length;

    render(<FreshUser />);
    await waitFor(() => expect(userLoads()).toBe(1));

    // Back from a checkout paid within a second of arriving: the tab says so twice.
    document.dispatchEvent(new Event('visibilitychange'));
    window.dispatchEvent(new Event('focus'));
    await waitFor(() => expect(userLoads()).toBe(2));
    // Both events were handled when dispatch returned; once every load they started has been
    // answered, none is still to come.
    await Promise.allSettled(fetchSpy.mock.results.map((result) => result.value));
    expect(userLoads()).toBe(2);
  });
});
