import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { getSession, setPendingEmail } from '@web/lib/session.ts';
import { Toaster } from '@web/lib/toast.tsx';
import { afterEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import { setPageUrl } from '../../../test/browser.ts';
import { loginEmail } from '../lib/login-email.ts';
import { VerifyEmailPage } from './VerifyEmailPage.tsx';

const server = testServerPerFile({}, { captureMail: true });
const PASSWORD = 'Verify-Test-Pass-1';

afterEach(() => setPendingEmail(null));

/** An account that signed up and has not verified its address, waiting on /verifyemail. */
async function waitingPlayer() {
  const row = await server().createUser({ emailVerifiedAt: null }, { password: PASSWORD });
  setPendingEmail(row.email);
  setPageUrl(`${server().origin}/verifyemail`);
  render(
    <>
      <VerifyEmailPage />
      <Toaster />
    </>,
  );
  return { row, person: userEvent.setup() };
}

const codeField = () => screen.getByLabelText('Verification code') as HTMLInputElement;

function logIn(email: string) {
  return fetch(`${server().origin}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
}

describe('VerifyEmailPage', () => {
  it('verifies the account with the code from the e-mail, then sends the player to log in', async () => {
    const { row, person } = await waitingPlayer();
    expect((await logIn(row.email)).status).toBe(403);

    await person.click(screen.getByRole('button', { name: 'Resend Verification Link' }));
    const { code } = await server().waitForMail(row.email);
    expect(code).toMatch(/^\d{6}$/);
    // Pasted as the mail prints it for reading aloud: only the digits reach the form.
    await person.type(codeField(), `${code?.slice(0, 3)} ${code?.slice(3)}`);
    expect(codeField().value).toBe(code);
    await person.click(screen.getByRole('button', { name: 'Verify code' }));

    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(getSession().pendingEmail).toBeNull();
    expect(loginEmail.read()).toBe(row.email);
    expect((await logIn(row.email)).status).toBe(200);
  });

  it('keeps the player on the page with the server’s answer to a wrong code', async () => {
    const { row, person } = await waitingPlayer();
    await person.click(screen.getByRole('button', { name: 'Resend Verification Link' }));
    const { code } = await server().waitForMail(row.email);
    const wrong = code === '000000' ? '111111' : '000000';

    await person.type(codeField(), wrong);
    await person.click(screen.getByRole('button', { name: 'Verify code' }));

    await waitFor(() => expect(codeField().getAttribute('aria-invalid')).toBe('true'));
    const message = document.getElementById(codeField().getAttribute('aria-describedby') ?? '');
    expect(message?.textContent).toMatch(/code/i);
    expect(window.location.pathname).toBe('/verifyemail');
    expect(getSession().pendingEmail).toBe(row.email);
    expect((await logIn(row.email)).status).toBe(403);
  });

  it('asks for all six digits before sending anything', async () => {
    const { person } = await waitingPlayer();
    await person.type(codeField(), '123');
    await person.click(screen.getByRole('button', { name: 'Verify code' }));

    expect(codeField().getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(codeField());
    expect(window.location.pathname).toBe('/verifyemail');
  });
});
