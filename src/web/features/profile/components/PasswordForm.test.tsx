import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fetchUser, setUser } from '@web/lib/session.ts';
import { Toaster } from '@web/lib/toast.tsx';
import { afterEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import { setPageUrl } from '../../../test/browser.ts';
import { PasswordForm } from './PasswordForm.tsx';

const server = testServerPerFile();

afterEach(() => {
  cleanup();
  setUser(null);
});

describe('PasswordForm', () => {
  it('a wrong current password is that field’s error, with the focus on it', async () => {
    setPageUrl(`${server().origin}/Profile`);
    const row = await server().createUser({}, { password: 'Password-Form-Pass-1' });
    localStorage.setItem('authToken', await server().tokenFor(row));
    setUser(await fetchUser());
    render(
      <QueryClientProvider client={new QueryClient()}>
        <PasswordForm hasSetPassword />
        <Toaster />
      </QueryClientProvider>,
    );
    const person = userEvent.setup();

    const current = screen.getByLabelText('Current password');
    await person.type(current, 'not-the-password');
    await person.type(screen.getByLabelText('New password'), 'Another-Pass-123');
    await person.type(screen.getByLabelText('Confirm new password'), 'Another-Pass-123');
    await person.click(screen.getByRole('button', { name: 'Save password' }));

    await waitFor(() => expect(current.getAttribute('aria-invalid')).toBe('true'));
    const describedBy = current.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(describedBy)?.textContent).toBe(
      'Your current password is incorrect',
    );
    expect(document.activeElement).toBe(current);
  });
});
