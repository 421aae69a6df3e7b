import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { setPageUrl } from '../test/browser.ts';
import { App } from './App.tsx';

describe('RouteAnnouncer', () => {
  it('titles the page it opens on without announcing it, then titles and announces each page the app swaps in', async () => {
    // Nothing on /login asks the API before a press: no server needed.
    setPageUrl('http://127.0.0.1:9/login');
    await act(async () => {
      render(<App />);
    });
    await waitFor(() => expect(document.title).toBe('Log in · Pluckers'));
    const announcer = document.querySelector('[aria-live="polite"][aria-atomic="true"]');
    expect(announcer?.textContent).toBe('');

    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'Create an account' }));
    await waitFor(() => expect(document.title).toBe('Sign up · Pluckers'));
    expect(announcer?.textContent).toBe('Sign up · Pluckers');
    expect(window.location.pathname).toBe('/Signup');
  });
});
