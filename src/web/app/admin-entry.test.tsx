import { act, render, screen, waitFor, within } from '@testing-library/react';
import { setSettings, setUser } from '@web/lib/session.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../test/server.ts';
import { setPageUrl } from '../test/browser.ts';
import { App } from './App.tsx';

/**
 * The operator console's entry in the route table and the navigation: one lazy route for
 * /admin and below, reachable from an 'Admin' link that only operators see.
 */
const server = testServerPerFile();

afterEach(() => {
  setUser(null);
  setSettings(null);
});

async function openApp(path: string, role: 'admin' | 'player') {
  const user = await server().createUser({ role });
  localStorage.setItem('authToken', await server().tokenFor(user));
  setPageUrl(`${server().origin}${path}`);
  await act(async () => {
    render(<App />);
  });
}

describe('/admin', () => {
  it('sends a player who opens /admin to /, and shows them no Admin link', async () => {
    await openApp('/admin/withdrawals', 'player');

    await waitFor(() => expect(window.location.pathname).toBe('/'), { timeout: 10_000 });
    const nav = await screen.findByRole('navigation', { name: 'Main' }, { timeout: 10_000 });
    expect(within(nav).queryByRole('link', { name: 'Admin' })).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Console' })).toBeNull();
  });

  it('opens the console for an operator, with the Admin link marked as the current page', async () => {
    await openApp('/admin/settings', 'admin');

    expect(
      await screen.findByRole('heading', { name: 'Settings', level: 1 }, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(window.location.pathname).toBe('/admin/settings');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const link = within(nav).getByRole('link', { name: 'Admin' });
    expect(link.getAttribute('href')).toBe('/admin');
    expect(link.getAttribute('aria-current')).toBe('page');
    const consoleNav = screen.getByRole('navigation', { name: 'Console' });
    expect(
      within(consoleNav)
        .getByRole('link', { name: /Settings/ })
        .getAttribute('aria-current'),
    ).toBe('page');
  });
});
