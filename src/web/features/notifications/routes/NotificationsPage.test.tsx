import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from '@web/lib/toast.tsx';
import { beforeEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import { setPageUrl } from '../../../test/browser.ts';
import { sendJson, startFakeServer } from '../../../test/fake-server.ts';
import { NotificationsPage } from './NotificationsPage.tsx';

const server = testServerPerFile();

function renderPage() {
  // A client per test: no cache or retries carried from one test to the next.
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <NotificationsPage />
      <Toaster />
    </QueryClientProvider>,
  );
}

/** A player of the real server, signed in (token stored as a login stores it). */
async function signIn() {
  const user = await server().createUser();
  const token = await server().tokenFor(user);
  localStorage.setItem('authToken', token);
  return { user, token };
}

/** Marks everything read through the API, as the button would. */
async function markAllReadOnServer(token: string) {
  const response = await fetch('/api/v1/notification/mark-all-as-read', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
}

function items() {
  return within(screen.getByRole('list')).getAllByRole('listitem');
}

function itemTitled(title: string): HTMLElement {
  const item = items().find((li) => within(li).queryByRole('heading', { name: title }));
  if (!item) throw new Error(`no notification titled ${title}`);
  return item;
}

describe('NotificationsPage', () => {
  beforeEach(() => {
    setPageUrl(`${server().origin}/Notifications`);
  });

  it('marks unread notifications with a yellow marker and an Unread tag, newest first', async () => {
    const { user, token } = await signIn();
    await server().notify(user, 'Top-up received', 'Your wallet was credited with ₦1,000.');
    await markAllReadOnServer(token);
    await server().notify(user, 'You won!', 'Your answer was picked. ₦5,000 is on its way.');

    renderPage();

    await screen.findByRole('heading', { name: 'You won!' });
    expect(items().map((li) => within(li).getByRole('heading').textContent)).toEqual([
      'You won!',
      'Top-up received',
    ]);

    const unread = itemTitled('You won!');
    expect(within(unread).getByText('Unread')).toBeTruthy();
    expect(unread.querySelector('[aria-hidden="true"]')?.className).toContain('bg-wallet');
    expect(within(unread).getByText('Your answer was picked. ₦5,000 is on its way.')).toBeTruthy();

    const read = itemTitled('Top-up received');
    expect(within(read).queryByText('Unread')).toBeNull();
    expect(read.querySelector('[aria-hidden="true"]')?.className).not.toContain('bg-wallet');
  });

  it('offers Mark all as read only while something is unread, and it goes once used', async () => {
    const { user } = await signIn();
    await server().notify(user, 'Game closed', 'The draw for "Best jollof" is under way.');
    await server().notify(user, 'Refund', 'Fewer than 5 players joined, so your ₦200 came back.');
    const person = userEvent.setup();

    renderPage();

    const button = await screen.findByRole('button', { name: 'Mark all as read' });
    expect(screen.getAllByText('Unread')).toHaveLength(2);

    await person.click(button);

    expect(await screen.findByText('All notifications marked as read')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Unread')).toBeNull());
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
    expect(items()).toHaveLength(2);
  });

  it('shows no Mark all as read button when everything is already read', async () => {
    const { user, token } = await signIn();
    await server().notify(user, 'Welcome', 'Welcome to Pluckers!');
    await markAllReadOnServer(token);

    renderPage();

    await screen.findByRole('heading', { name: 'Welcome' });
    expect(screen.queryByText('Unread')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
  });

  it('shows the empty state when the player has no notifications', async () => {
    await signIn();

    renderPage();

    expect(await screen.findByText('No notifications yet')).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
  });

  it('pages through more than one page of notifications', async () => {
    const { user } = await signIn();
    for (let n = 1; n <= 11; n += 1) await server().notify(user, `Notice ${n}`, `Message ${n}`);
    const person = userEvent.setup();

    renderPage();

    await screen.findByRole('heading', { name: 'Notice 11' });
    expect(items()).toHaveLength(10);
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();

    await person.click(screen.getByRole('button', { name: 'Next' }));

    await screen.findByRole('heading', { name: 'Notice 1' });
    expect(items()).toHaveLength(1);
    expect(screen.getByText('Page 2 of 2')).toBeTruthy();
  });

  it('keeps a failed load silent: the empty inbox and no error toast', async () => {
    const fake = await startFakeServer((_request, response) =>
      sendJson(response, 500, {
        message: 'database unavailable',
        statusCode: 500,
        code: 'INTERNAL',
      }),
    );
    setPageUrl(`${fake.origin}/Notifications`);
    localStorage.setItem('authToken', 'token-abc');

    renderPage();

    expect(await screen.findByText('No notifications yet')).toBeTruthy();
    expect(screen.queryByText('database unavailable')).toBeNull();
    // The inbox, and the push settings' preferences (their switches show the defaults).
    expect(fake.requests.map((request) => request.url).sort()).toEqual([
      '/api/v1/notification/preferences',
      '/api/v1/notification?page=1',
    ]);
  });
});
