import type { ServerResponse } from 'node:http';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { getSession, setSettings, setUser } from '@web/lib/session.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../test/server.ts';
import { setPageUrl } from '../../test/browser.ts';
import { sendJson, startFakeServer } from '../../test/fake-server.ts';
import { samplePlayer } from '../../test/sample-data.ts';
import { App } from '../App.tsx';
import { Navbar } from './Navbar.tsx';

const server = testServerPerFile();

afterEach(() => {
  setUser(null);
  setSettings(null);
});

async function mainNavAt(path: string) {
  const user = await server().createUser();
  localStorage.setItem('authToken', await server().tokenFor(user));
  setPageUrl(`${server().origin}${path}`);
  await act(async () => {
    render(<App />);
  });
  return screen.findByRole('navigation', { name: 'Main' }, { timeout: 10_000 });
}

describe('the main navigation marks where the player is', () => {
  it.each(['/TopUp', '/wallet', '/WithdrawFunds', '/PaymentStatus?status=pending'])(
    'Wallet is the current page on %s',
    async (path) => {
      const nav = await mainNavAt(path);
      expect(within(nav).getByRole('link', { name: 'Wallet' }).getAttribute('aria-current')).toBe(
        'page',
      );
      expect(
        within(nav).getByRole('link', { name: 'Home' }).getAttribute('aria-current'),
      ).toBeNull();
    },
  );

  it('Wallet is not current elsewhere', async () => {
    const nav = await mainNavAt('/MySubmissions');
    expect(
      within(nav).getByRole('link', { name: 'Wallet' }).getAttribute('aria-current'),
    ).toBeNull();
    expect(
      within(nav).getByRole('link', { name: 'My submissions' }).getAttribute('aria-current'),
    ).toBe('page');
  });
});

describe('Log out', () => {
  it('says it is logging out while the server is told, and a second press asks nothing more', async () => {
    const held: ServerResponse[] = [];
    const fake = await startFakeServer((request, response) => {
      if (request.url === '/api/v1/auth/logout') held.push(response);
      else sendJson(response, 200, { data: [], unreadCount: 0, total: 0, page: 1 });
    });
    localStorage.setItem('authToken', 'token-abc');
    setPageUrl(`${fake.origin}/Home`);
    setUser(samplePlayer);
    render(
      <QueryClientProvider client={new QueryClient()}>
        <Navbar />
      </QueryClientProvider>,
    );
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'Log out' }));
    const busy = await screen.findByRole('button', { name: 'Logging out…' });
    expect(busy.getAttribute('aria-disabled')).toBe('true');
    await expect.poll(() => held.length).toBe(1);
    await user.click(busy);

    sendJson(held[0] as ServerResponse, 200, { message: 'Logged out' });
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(getSession().loggingOut).toBe(false);
    // Time for a second sign-out, had the second press started one, to reach the server.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fake.requests.filter((request) => request.url === '/api/v1/auth/logout')).toHaveLength(
      1,
    );
  });
});
