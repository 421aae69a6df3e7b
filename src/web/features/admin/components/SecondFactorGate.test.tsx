import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSettings, setUser } from '@web/lib/session.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import {
  authenticatorCode,
  playerWithBalance,
  renderConsole,
  signInAdminWithPassword,
} from '../test-helpers.tsx';

const server = testServerPerFile();

afterEach(() => {
  setUser(null);
  setSettings(null);
});

/** The key shown for typing by hand, as the operator would copy it into the app. */
async function setupKey(): Promise<string> {
  const key = await screen.findByTestId('setup-key');
  return (key.textContent ?? '').replace(/\s/g, '');
}

describe('the console asks for the second factor', () => {
  it('sets up an authenticator at the first login, shows the recovery codes once, then opens', async () => {
    await signInAdminWithPassword(server());
    const person = userEvent.setup();
    renderConsole(server(), '/admin');

    await screen.findByRole('heading', { name: 'Set up your authenticator app' });
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(await screen.findByRole('img', { name: /QR code/ })).toBeTruthy();
    const secret = await setupKey();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);

    const field = screen.getByLabelText('Authenticator code');
    expect(field.getAttribute('autocomplete')).toBe('one-time-code');
    expect(field.getAttribute('inputmode')).toBe('numeric');
    await person.type(field, '12345');
    await person.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.getByText('Enter the 6-digit code your authenticator app shows')).toBeTruthy();

    await person.clear(field);
    await person.type(field, authenticatorCode(secret));
    await person.click(screen.getByRole('button', { name: 'Confirm' }));

    await screen.findByRole('heading', { name: 'Save your recovery codes' });
    const codes = within(screen.getByRole('list', { name: 'Recovery codes' })).getAllByRole(
      'listitem',
    );
    expect(codes).toHaveLength(10);
    const open = screen.getByRole('button', { name: 'Open the console' });
    expect(open.hasAttribute('disabled')).toBe(true);
    await person.click(screen.getByLabelText('I have saved my recovery codes'));
    await person.click(open);
    expect(await screen.findByText('Operator console')).toBeTruthy();
  });

  it('asks a later login for the code, and takes a recovery code instead', async () => {
    const { admin, password } = await signInAdminWithPassword(server());
    const person = userEvent.setup();
    const first = renderConsole(server(), '/admin');
    const secret = await setupKey();
    await person.type(screen.getByLabelText('Authenticator code'), authenticatorCode(secret));
    await person.click(screen.getByRole('button', { name: 'Confirm' }));
    const recovery =
      within(await screen.findByRole('list', { name: 'Recovery codes' })).getAllByRole(
        'listitem',
      )[0]?.textContent ?? '';
    first.unmount();

    // A new login: password, then the code prompt (no QR, no secret this time).
    const login = await fetch(`${server().origin}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: admin.email, password }),
    });
    const { signIn } = await import('@web/lib/session.ts');
    await signIn(((await login.json()) as { data: { accessToken: string } }).data.accessToken);
    renderConsole(server(), '/admin');
    await screen.findByRole('heading', { name: 'Enter your authenticator code' });
    expect(screen.queryByTestId('setup-key')).toBeNull();

    await person.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    const field = screen.getByLabelText('Recovery code');
    expect(field.getAttribute('inputmode')).toBe('text');
    await person.type(field, recovery);
    await person.click(screen.getByRole('button', { name: 'Open the console' }));
    expect(await screen.findByText('Operator console')).toBeTruthy();
  });

  it('asks for a fresh code when a wallet adjustment finds the proof too old, then makes it', async () => {
    const { admin, token } = await signInAdminWithPassword(server());
    const person = userEvent.setup();
    const first = renderConsole(server(), '/admin');
    const secret = await setupKey();
    await person.type(screen.getByLabelText('Authenticator code'), authenticatorCode(secret));
    await person.click(screen.getByRole('button', { name: 'Confirm' }));
    await person.click(await screen.findByLabelText('I have saved my recovery codes'));
    await person.click(screen.getByRole('button', { name: 'Open the console' }));
    await screen.findByText('Operator console');
    first.unmount();

    const { player } = await playerWithBalance(server(), token, 1000, 'Emeka Nwosu');
    await server().ageSecondFactor(admin, 16);
    renderConsole(server(), `/admin/users/${player.id}`);
    await screen.findByRole('heading', { name: 'Emeka Nwosu', level: 1 });
    const form = screen.getByRole('form', { name: 'Adjust wallet' });
    await person.type(within(form).getByLabelText('Amount (₦, ±)'), '-250');
    await person.type(within(form).getByLabelText('Reason'), 'Chargeback on top-up');
    await person.click(within(form).getByRole('button', { name: 'Review' }));
    await person.click(
      within(await screen.findByRole('dialog', { name: 'Debit ₦250?' })).getByRole('button', {
        name: 'Debit wallet',
      }),
    );

    const prompt = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    // The code of the enrolment's step is used up: the phone's next one is accepted.
    await person.type(
      within(prompt).getByLabelText('Authenticator code'),
      authenticatorCode(secret, Date.now() + 30_000),
    );
    await person.click(within(prompt).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Wallet adjusted. New balance ₦750')).toBeTruthy();
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Confirm it is you' })).toBeNull(),
    );
  });
});
