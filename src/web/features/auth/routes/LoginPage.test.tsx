import { LOGIN_ERROR_GENERIC, LOGIN_ERRORS } from '@shared/login-errors.ts';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { getSession, setPendingEmail, setSettings, setUser } from '@web/lib/session.ts';
import { Toaster } from '@web/lib/toast.tsx';
import { afterEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import { setPageUrl } from '../../../test/browser.ts';
import { loginEmail } from '../lib/login-email.ts';
import { ForgotPasswordPage } from './ForgotPasswordPage.tsx';
import { LoginPage } from './LoginPage.tsx';

const server = testServerPerFile({}, { captureMail: true });
const PASSWORD = 'Login-Test-Pass-1';
/** Password checks hash on purpose (slowly): on a busy machine they outlast the default 1 s. */
const HASHING = { timeout: 10_000 };

afterEach(() => {
  setUser(null);
  setSettings(null);
  setPendingEmail(null);
});

function open(page: 'login' | 'ForgotPassword', search = '') {
  setPageUrl(`${server().origin}/${page}${search}`);
  render(
    <>
      {page === 'login' ? <LoginPage /> : <ForgotPasswordPage />}
      <Toaster />
    </>,
  );
  return userEvent.setup();
}

/** /login alone, for what it shows before anyone types. */
function renderLogin(search: string) {
  setPageUrl(`${server().origin}/login${search}`);
  return render(<LoginPage />);
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

function errorOf(input: HTMLElement): string | null {
  const id = input.getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

describe('LoginPage', () => {
  it('names both empty fields, e-mail first, and sends nothing', async () => {
    const person = open('login');
    await person.click(screen.getByRole('button', { name: 'Log in' }));

    expect(errorOf(field('Email'))).toBe('Enter your email address');
    expect(errorOf(field('Password'))).toBe('Enter your password');
    const invalid = [...document.querySelectorAll('[aria-invalid="true"]')];
    expect(invalid).toEqual([field('Email'), field('Password')]);
    expect(window.location.pathname).toBe('/login');
  });

  it('fills in the e-mail remembered from a sign-up on this tab', async () => {
    loginEmail.remember('remembered@example.test');
    open('login');
    await waitFor(() => expect(field('Email').value).toBe('remembered@example.test'));
    expect(field('Password').value).toBe('');
  });

  it('after a sign-up on this tab, says where the link and code went and leads to the code', async () => {
    loginEmail.remember('new.player@example.test', { unverified: true });
    const person = open('login');

    const notice = (await screen.findByText(/link and a 6-digit code/)).closest('[role="status"]');
    expect(notice?.textContent).toContain('new.player@example.test');
    await person.click(screen.getByRole('button', { name: 'enter the code' }));

    expect(window.location.pathname).toBe('/verifyemail');
    expect(getSession().pendingEmail).toBe('new.player@example.test');
  });

  it('shows no verification notice for an address remembered from a password reset', async () => {
    loginEmail.remember('reset.player@example.test');
    open('login');
    await waitFor(() => expect(field('Email').value).toBe('reset.player@example.test'));
    expect(screen.queryByText(/6-digit code/)).toBeNull();
  });

  it('signs in with Enter, loads the session and goes to the page that sent the player here', async () => {
    const row = await server().createUser({}, { password: PASSWORD });
    const person = open('login', '?next=%2FWallet');

    await person.type(field('Email'), row.email);
    await person.type(field('Password'), `${PASSWORD}{Enter}`);

    await waitFor(() => expect(window.location.pathname).toBe('/Wallet'), HASHING);
    expect(getSession().user?.email).toBe(row.email);
    expect(localStorage.getItem('authToken')).toMatch(/^ey/);
  });

  it('shows the server’s answer to a wrong password and keeps the player on the form', async () => {
    const row = await server().createUser({}, { password: PASSWORD });
    const person = open('login');

    await person.type(field('Email'), row.email);
    await person.type(field('Password'), 'not-the-password');
    await person.click(screen.getByRole('button', { name: 'Log in' }));

    expect(await screen.findByText('Invalid email or password', {}, HASHING)).toBeTruthy();
    expect(window.location.pathname).toBe('/login');
    expect(getSession().user).toBeNull();
    expect(localStorage.getItem('authToken')).toBeNull();
  });

  it('sends an unverified account to verify its e-mail, remembering the address', async () => {
    const row = await server().createUser({ emailVerifiedAt: null }, { password: PASSWORD });
    const person = open('login');

    await person.type(field('Email'), row.email);
    await person.type(field('Password'), PASSWORD);
    await person.click(screen.getByRole('button', { name: 'Log in' }));

    await waitFor(() => expect(window.location.pathname).toBe('/verifyemail'), HASHING);
    expect(getSession().pendingEmail).toBe(row.email);
    expect(getSession().user).toBeNull();
  });

  it('stays on /login with the message for a refusal other than EMAIL_UNVERIFIED', async () => {
    const row = await server().createUser({ suspendedAt: new Date() }, { password: PASSWORD });
    const person = open('login');

    await person.type(field('Email'), row.email);
    await person.type(field('Password'), PASSWORD);
    await person.click(screen.getByRole('button', { name: 'Log in' }));

    expect(await screen.findByText(/Your account is suspended/, {}, HASHING)).toBeTruthy();
    expect(window.location.pathname).toBe('/login');
    expect(getSession().pendingEmail).not.toBe(row.email);
  });

  it('shows the text of each error code the server sends back to /login', () => {
    for (const [code, text] of Object.entries(LOGIN_ERRORS)) {
      const { unmount } = renderLogin(`?error=${code}`);
      expect(screen.getByRole('alert').textContent, code).toBe(text);
      unmount();
    }
  });

  it.each([
    'Your wallet of ₦2,400,000 is frozen. Call +234 803 123 4567 to release it',
    '<b>Google sign-in was cancelled</b>',
    'Google login was cancelled',
    'toString',
  ])('shows a fixed text for anything else in ?error=, never the parameter: %j', (error) => {
    const { container } = renderLogin(`?error=${encodeURIComponent(error)}`);
    expect(screen.getByRole('alert').textContent).toBe(LOGIN_ERROR_GENERIC);
    expect(container.textContent).not.toContain(error);
  });

  it('shows no banner without an error', () => {
    renderLogin('?error=');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('ForgotPasswordPage', () => {
  it('asks for the e-mail, then sends a code and moves on to entering it', async () => {
    const row = await server().createUser({}, { password: PASSWORD });
    const person = open('ForgotPassword');

    await person.click(screen.getByRole('button', { name: 'Send reset code' }));
    expect(errorOf(field('Email'))).toBe('Enter your email address');
    expect(window.location.pathname).toBe('/ForgotPassword');

    await person.type(field('Email'), `  ${row.email} `);
    expect(errorOf(field('Email'))).toBeNull();
    await person.keyboard('{Enter}');

    await waitFor(() => expect(window.location.pathname).toBe('/resetpassword'));
    expect(new URLSearchParams(window.location.search).get('email')).toBe(row.email);
    expect(
      await screen.findByText(
        'If an account exists for this e-mail, we have sent a reset code. Check your inbox.',
      ),
    ).toBeTruthy();
    expect((await server().waitForMail(row.email)).code).toMatch(/^\d{6}$/);
  });
});
