import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fetchUser, getSession, setUser } from '@web/lib/session.ts';
import { Toaster } from '@web/lib/toast.tsx';
import { afterEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import { setPageUrl } from '../../../test/browser.ts';
import { topUpThroughSandbox } from '../../../test/player.tsx';
import { ProfilePage } from './ProfilePage.tsx';

const server = testServerPerFile({}, { captureMail: true });
const PASSWORD = 'Profile-Test-Pass-1';
/** Password checks hash on purpose (slowly): on a busy machine they outlast the default 1 s. */
const HASHING = { timeout: 10_000 };

afterEach(() => {
  cleanup();
  setUser(null);
});

let counter = 0;
const newAddress = () => {
  counter += 1;
  return `profile-new-${Date.now().toString(36)}-${counter}@example.test`;
};

/** A signed-in player of the real server on /Profile, with or without a password. */
async function openProfile(options: { password?: boolean } = { password: true }) {
  setPageUrl(`${server().origin}/Profile`);
  const row = await server().createUser(
    {},
    options.password === false ? {} : { password: PASSWORD },
  );
  const token = await server().tokenFor(row);
  localStorage.setItem('authToken', token);
  setUser(await fetchUser());
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ProfilePage />
      <Toaster />
    </QueryClientProvider>,
  );
  return { row, token, person: userEvent.setup() };
}

describe('ProfilePage: changing the e-mail', () => {
  it('asks for the current password, then for the code sent to the new address', async () => {
    const { row, person } = await openProfile();
    const target = newAddress();

    await person.click(screen.getByRole('button', { name: 'Change e-mail' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change e-mail' });
    await person.type(within(dialog).getByLabelText('New e-mail'), target);
    await person.click(within(dialog).getByRole('button', { name: 'Send code to new address' }));
    expect(await within(dialog).findByText('Enter your current password')).toBeTruthy();
    await person.type(within(dialog).getByLabelText('Current password'), PASSWORD);
    await person.click(within(dialog).getByRole('button', { name: 'Send code to new address' }));

    // Pending: the account keeps its e-mail and says where the code went.
    const pending = `We sent a code to ${target} — enter it to finish.`;
    await waitFor(() => expect(getSession().user?.pendingEmail).toBe(target), HASHING);
    expect(getSession().user?.email).toBe(row.email);
    // On the e-mail row and in the dialog.
    expect(screen.getAllByText(pending)).toHaveLength(2);
    expect(within(dialog).getByText(pending)).toBeTruthy();

    const { code } = await server().waitForMail(target);
    await person.type(within(dialog).getByLabelText('Code'), code as string);
    await person.click(within(dialog).getByRole('button', { name: 'Confirm new e-mail' }));

    await waitFor(() => expect(getSession().user?.email).toBe(target));
    expect(getSession().user?.pendingEmail).toBeNull();
    expect(screen.getByText(target)).toBeTruthy();
    expect((await server().waitForMail(row.email)).subject).toBe(
      'Someone asked to change your Pluckers e-mail',
    );
  });

  it('an account without a password gets a code at its current address instead', async () => {
    const { row, person } = await openProfile({ password: false });
    const target = newAddress();

    await person.click(screen.getByRole('button', { name: 'Change e-mail' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change e-mail' });
    expect(within(dialog).queryByLabelText('Current password')).toBeNull();
    await person.type(within(dialog).getByLabelText('New e-mail'), target);
    await person.click(within(dialog).getByRole('button', { name: 'E-mail me a code' }));
    const { code } = await server().waitForMail(row.email);
    await person.type(within(dialog).getByLabelText('Code from your e-mail'), code as string);
    await person.click(within(dialog).getByRole('button', { name: 'Send code to new address' }));

    await waitFor(() => expect(getSession().user?.pendingEmail).toBe(target));
    expect(getSession().user?.email).toBe(row.email);
  });
});

describe('ProfilePage: Log out of all devices', () => {
  it('asks to confirm, then every token of the account stops working and the player goes to /login', async () => {
    const { row, token, person } = await openProfile();
    const otherDevice = await server().tokenFor(row);

    await person.click(screen.getByRole('button', { name: 'Log out of all devices' }));
    const dialog = await screen.findByRole('dialog', { name: 'Log out of all devices?' });
    await person.click(within(dialog).getByRole('button', { name: 'Log out everywhere' }));

    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(getSession().user).toBeNull();
    expect(localStorage.getItem('authToken')).toBeNull();
    for (const used of [token, otherDevice]) {
      const response = await fetch('/api/v1/user', {
        headers: { authorization: `Bearer ${used}` },
      });
      expect(response.status).toBe(401);
    }
  });
});

/** The error under a field, read through its aria-describedby as a screen reader does. */
function errorOf(input: HTMLElement): string | null {
  const id = input.getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

async function accountOf(token: string) {
  const response = await fetch('/api/v1/user', { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, user: response.ok ? (await response.json()).data : null };
}

describe('ProfilePage: username and phone number', () => {
  it('checks the new username as sign-up does, shows the server’s refusal, then saves it', async () => {
    const { token, person } = await openProfile();
    const taken = await server().createUser();
    const wanted = `pp_${Date.now().toString(36)}${counter++}`.slice(0, 20);

    await person.click(screen.getByRole('button', { name: 'Change username' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change username' });
    const input = within(dialog).getByLabelText('New username');
    const save = () => person.click(within(dialog).getByRole('button', { name: 'Save' }));

    await save();
    expect(errorOf(input)).toBe('Enter your new username');
    await person.type(input, 'A!');
    expect(errorOf(input)).toBeNull();
    await save();
    expect(errorOf(input)).toBe(
      'Username must be 3 to 20 characters: lowercase letters, numbers or _',
    );
    await person.clear(input);
    await person.type(input, taken.handle);
    await save();
    await waitFor(() => expect(errorOf(input)).toBe('This username is already taken'));

    await person.clear(input);
    await person.type(input, `${wanted}{Enter}`);
    expect(await screen.findByText('Profile updated')).toBeTruthy();
    await waitFor(() => expect(dialog.hasAttribute('open')).toBe(false));
    expect(getSession().user?.username).toContain(wanted);
    expect((await accountOf(token)).user.username).toContain(wanted);
  });

  it('takes a phone number however it is typed and stores it as +234…', async () => {
    const { token, person } = await openProfile();

    await person.click(screen.getByRole('button', { name: 'Change phone number' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change phone number' });
    const input = within(dialog).getByLabelText('New phone number');
    await person.type(input, '123{Enter}');
    expect(errorOf(input)).toBe('Enter a valid phone number');

    await person.clear(input);
    await person.type(input, '0803 555 0101{Enter}');
    expect(await screen.findByText('Profile updated')).toBeTruthy();
    await waitFor(() => expect(getSession().user?.phoneNumber).toBe('+2348035550101'));
    // Shown as it is read in Nigeria, stored with its country code.
    expect(screen.getByText('0803 555 0101')).toBeTruthy();
    expect((await accountOf(token)).user.phoneNumber).toBe('+2348035550101');
  });
});

describe('ProfilePage: deleting the account', () => {
  it('needs the password and says when it is wrong, deleting nothing', async () => {
    const { token, person } = await openProfile();

    await person.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    const input = within(dialog).getByLabelText('Password');
    const confirm = () =>
      person.click(within(dialog).getByRole('button', { name: 'Delete permanently' }));

    await confirm();
    expect(errorOf(input)).toBe('Enter your password');
    await person.type(input, 'not-my-password');
    await confirm();
    await waitFor(() => expect(errorOf(input)).toBe('Your password is incorrect'), HASHING);
    expect(window.location.pathname).toBe('/Profile');
    expect((await accountOf(token)).status).toBe(200);
  });

  it('refuses while the wallet holds money', async () => {
    const { token, person } = await openProfile();
    await topUpThroughSandbox(token, 100);

    await person.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    const input = within(dialog).getByLabelText('Password');
    await person.type(input, `${PASSWORD}{Enter}`);

    await waitFor(
      () => expect(errorOf(input)).toBe('Withdraw your balance before deleting your account'),
      HASHING,
    );
    expect((await accountOf(token)).status).toBe(200);
  });

  it('with the password and an empty wallet, deletes the account and signs out', async () => {
    const { row, token, person } = await openProfile();

    await person.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    await person.type(within(dialog).getByLabelText('Password'), `${PASSWORD}{Enter}`);

    await waitFor(() => expect(window.location.pathname).toBe('/login'), HASHING);
    expect(await screen.findByText('Your account has been deleted')).toBeTruthy();
    expect(getSession().user).toBeNull();
    expect(localStorage.getItem('authToken')).toBeNull();
    expect((await accountOf(token)).status).toBe(401);
    const login = await fetch('/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: row.email, password: PASSWORD }),
    });
    expect(login.status).toBe(400);
  });
});
