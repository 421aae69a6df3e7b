import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSettings, setUser } from '@web/lib/session.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import { api, renderConsole, signInAdmin } from '../test-helpers.tsx';

/** The sandbox review page on a server running the sandbox (as `npm start` does locally). */
const server = testServerPerFile();

afterEach(() => {
  setUser(null);
  setSettings(null);
});

/** A player pays ₦1,500 on the sandbox checkout, as their tap on Pay does. */
async function sandboxTopUp() {
  const player = await server().createUser();
  const token = await server().tokenFor(player);
  const started = await api<{ data: { paymentUrl: string; reference: string } }>(
    server(),
    token,
    'POST',
    '/payment/transactpay',
    { amount: 1500 },
  );
  expect(started.status).toBe(200);
  const { paymentUrl, reference } = started.body.data;
  const paid = await fetch(`${server().origin}${new URL(paymentUrl).pathname}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
    redirect: 'manual',
  });
  expect(paid.status).toBe(303);
  return { player, reference };
}

describe('Sandbox payments', () => {
  it('lists sandbox top-ups and marks one reviewed with a required note', async () => {
    await signInAdmin(server());
    const { player, reference } = await sandboxTopUp();
    const person = userEvent.setup();
    renderConsole(server(), '/admin/sandbox-payments');

    expect(await screen.findByRole('heading', { level: 1, name: 'Sandbox payments' })).toBeTruthy();
    expect(
      await screen.findByText(
        'This server runs the payments sandbox: these top-ups are test money and block nothing.',
      ),
    ).toBeTruthy();
    const row = (await screen.findByRole('link', { name: `plucker_${player.handle}` })).closest(
      'tr',
    ) as HTMLElement;
    expect(within(row).getByText(new RegExp(reference))).toBeTruthy();
    expect(within(row).getByText('₦1,500')).toBeTruthy();

    await person.click(within(row).getByRole('button', { name: 'Mark reviewed' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Mark this sandbox top-up reviewed?',
    });
    await person.click(within(dialog).getByRole('button', { name: 'Mark reviewed' }));
    expect(await within(dialog).findByText('Write a note of at least 5 characters')).toBeTruthy();

    await person.type(within(dialog).getByLabelText('Note'), 'Local test money, nothing to undo');
    await person.click(within(dialog).getByRole('button', { name: 'Mark reviewed' }));
    expect(await screen.findByText('Sandbox top-up marked reviewed')).toBeTruthy();
    expect(
      await within(row).findByText(/Reviewed .*: Local test money, nothing to undo/),
    ).toBeTruthy();
  });
});
