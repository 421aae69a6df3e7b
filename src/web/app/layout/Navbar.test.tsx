import { act, render, screen, within } from '@testing-library/react';
import { setSettings, setUser } from '@web/lib/session.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../test/server.ts';
import { setPageUrl } from '../../test/browser.ts';
import { App } from '../App.tsx';

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
