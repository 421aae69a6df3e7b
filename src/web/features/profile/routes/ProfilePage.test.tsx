import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fetchUser, getSession, setUser } from '@web/lib/session.ts';
import { Toaster } from '@web/lib/toast.tsx';
import { afterEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import { setPageUrl } from '../../../test/browser.ts';
import { ProfilePage } from './ProfilePage.tsx';

const server = testServerPerFile({}, { captureMail: true });
const PASSWORD = 'Profile-Test-Pass-1';

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
    await waitFor(() => expect(getSession().user?.pendingEmail).toBe(target));
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
