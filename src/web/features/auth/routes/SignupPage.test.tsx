import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from '@web/lib/toast.tsx';
import { beforeEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import { setPageUrl } from '../../../test/browser.ts';
import { loginEmail } from '../lib/login-email.ts';
import { SignupPage } from './SignupPage.tsx';

const server = testServerPerFile({}, { captureMail: true });
/** Sign-up hashes the password on purpose (slowly): on a busy machine that outlasts 1 s. */
const HASHING = { timeout: 10_000 };

beforeEach(() => {
  setPageUrl(`${server().origin}/Signup`);
});

let counter = 0;
function newPlayer() {
  counter += 1;
  const tag = `${Date.now().toString(36)}${counter}`;
  return { handle: `su_${tag}`.slice(0, 20), email: `signup-${tag}@example.test` };
}

function openSignup() {
  render(
    <>
      <SignupPage />
      <Toaster />
    </>,
  );
  return userEvent.setup();
}

/** Fills the form with valid values and ticks the 18+ box. */
async function fillIn(
  person: ReturnType<typeof userEvent.setup>,
  player: { handle: string; email: string },
) {
  await person.type(field('Full name'), 'Ada Obi');
  await person.type(field('Username'), player.handle);
  await person.type(field('Email'), player.email);
  await person.type(field('Phone number'), '08012345678');
  await person.type(field('Password'), 'Str0ng-Pass');
  await person.type(field('Re-enter password'), 'Str0ng-Pass');
  await person.click(screen.getByRole('checkbox', { name: /I am 18 or over/ }));
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

/** The error shown under a field, read through its aria-describedby as a screen reader does. */
function errorOf(input: HTMLElement): string | null {
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  const error = ids
    .map((id) => document.getElementById(id))
    .find((node) => node?.id.endsWith('-error'));
  return error?.textContent ?? null;
}

describe('SignupPage', () => {
  it('labels every field and the 18+ box', () => {
    openSignup();
    expect(screen.getByRole('heading', { name: 'Create your account' })).toBeTruthy();
    for (const label of [
      'Full name',
      'Username',
      'Email',
      'Phone number',
      'Password',
      'Re-enter password',
    ]) {
      expect(field(label).tagName).toBe('INPUT');
    }
    expect(screen.getByRole('checkbox', { name: /I am 18 or over/ })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login');
  });

  it('shows one problem at a time, in the form’s order, on the field it concerns, with the focus there', async () => {
    const person = openSignup();
    const { handle, email } = newPlayer();
    const submit = () => person.click(screen.getByRole('button', { name: 'Sign up' }));

    // Each step fixes the field just reported; the next one down is the next problem.
    const steps: Array<[string, string, string]> = [
      ['Full name', 'Please enter a valid fullname', 'Ada Obi'],
      ['Username', 'Enter your username', handle],
      ['Email', 'Enter your email address', email],
      ['Phone number', 'Enter your phone number', '0801 234 5678'],
      ['Password', 'Enter your password', 'Str0ng-Pass'],
      ['Re-enter password', 'Retype your password', 'Str0ng-Pas'],
    ];
    for (const [label, message, value] of steps) {
      await submit();
      expect(errorOf(field(label)), label).toBe(message);
      expect(field(label).getAttribute('aria-invalid')).toBe('true');
      expect(document.activeElement).toBe(field(label));
      expect(document.querySelectorAll('[aria-invalid="true"]')).toHaveLength(1);
      await person.type(field(label), value);
      // Typing in the field clears its error.
      expect(errorOf(field(label))).toBeNull();
    }

    await submit();
    expect(errorOf(field('Re-enter password'))).toBe('Passwords does not match');
    await person.type(field('Re-enter password'), 's');

    await submit();
    const box = screen.getByRole('checkbox', { name: /I am 18 or over/ });
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(box.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'You must be 18 or over to play on Pluckers',
    );
    expect(document.activeElement).toBe(box);
    // Nothing reached the server while the form was wrong.
    expect(window.location.pathname).toBe('/Signup');
  });

  it('says what is wrong with a malformed value, not only a missing one', async () => {
    const person = openSignup();
    await person.type(field('Full name'), 'Ada Obi');
    await person.type(field('Username'), 'a!');
    await person.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(errorOf(field('Username'))).toBe(
      'Username must be 3 to 20 characters: lowercase letters, numbers or _',
    );
  });

  it('creates the account with the keyboard alone, then sends the player to log in, remembering the e-mail', async () => {
    const person = openSignup();
    const { handle, email } = newPlayer();

    await person.click(field('Full name'));
    await person.keyboard('Ada Obi');
    await person.tab();
    await person.keyboard(handle);
    await person.tab();
    await person.keyboard(email);
    // Tab past the Verify button: verifying first is optional.
    await person.tab();
    await person.tab();
    await person.keyboard('0801 234 5678');
    await person.tab();
    await person.keyboard('Str0ng-Pass');
    await person.tab();
    await person.keyboard('Str0ng-Pass');
    await person.tab();
    expect(document.activeElement).toBe(screen.getByRole('checkbox', { name: /I am 18 or over/ }));
    await person.keyboard(' ');
    await person.keyboard('{Enter}');

    await waitFor(() => expect(window.location.pathname).toBe('/login'), HASHING);
    expect(
      await screen.findByText(
        'Account created. Check your e-mail for a link or code to verify it.',
      ),
    ).toBeTruthy();
    expect(loginEmail.read()).toBe(email);
    const mail = await server().waitForMail(email);
    expect(mail.code).toMatch(/^\d{6}$/);
  });

  it('shows the server’s refusal of a taken username and stays on the form', async () => {
    const taken = await server().createUser();
    const person = openSignup();
    const { email } = newPlayer();

    await fillIn(person, { handle: taken.handle, email });
    await person.click(screen.getByRole('button', { name: 'Sign up' }));

    expect(await screen.findByText('This username is already taken', {}, HASHING)).toBeTruthy();
    expect(window.location.pathname).toBe('/Signup');
    expect(field('Username').value).toBe(taken.handle);
  });

  it('answers a taken e-mail as it answers a new one, and tells that account’s owner instead', async () => {
    const owner = await server().createUser();
    const person = openSignup();
    const { handle } = newPlayer();

    await fillIn(person, { handle, email: owner.email });
    await person.click(screen.getByRole('button', { name: 'Sign up' }));

    await waitFor(() => expect(window.location.pathname).toBe('/login'), HASHING);
    expect(
      await screen.findByText(
        'Account created. Check your e-mail for a link or code to verify it.',
      ),
    ).toBeTruthy();
    expect((await server().waitForMail(owner.email)).subject).toBe(
      'Someone tried to sign up with your e-mail',
    );
  });
});
