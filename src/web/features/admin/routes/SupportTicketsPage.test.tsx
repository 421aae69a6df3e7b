import { screen, within } from '@testing-library/react';
import { setSettings, setUser } from '@web/lib/session.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import { api, renderConsole, signInAdmin } from '../test-helpers.tsx';

/** The support messages page, with messages sent to the real server as the support form sends them. */
const server = testServerPerFile({}, { captureMail: true });

afterEach(() => {
  setUser(null);
  setSettings(null);
});

async function sendTicket(subject: string, email: string) {
  const sent = await api<{ data: { reference: string } }>(server(), null, 'POST', '/support', {
    name: 'Ada Plucker',
    email,
    category: 'Withdrawals',
    subject,
    message: 'I withdrew ₦5,000 yesterday.\nIt has not arrived.',
  });
  expect(sent.status).toBe(201);
  return sent.body.data.reference;
}

describe('Support page of the console', () => {
  it('lists the messages newest first with reference, sender, subject and message', async () => {
    await signInAdmin(server());
    const tag = Math.random().toString(36).slice(2, 8);
    const first = await sendTicket(`Older question ${tag}`, `older-${tag}@example.test`);
    const second = await sendTicket(`Newer question ${tag}`, `newer-${tag}@example.test`);
    renderConsole(server(), '/admin/support');

    expect(await screen.findByRole('heading', { level: 1, name: 'Support' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Support', current: 'page' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Support messages' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent ?? '');
    const newer = rows.findIndex((text) => text.includes(second));
    const older = rows.findIndex((text) => text.includes(first));
    expect(newer).toBeGreaterThanOrEqual(0);
    expect(older).toBeGreaterThan(newer);

    const row = within(table).getByText(second).closest('tr') as HTMLElement;
    expect(within(row).getByText(`Newer question ${tag}`)).toBeTruthy();
    expect(within(row).getByText('Withdrawals')).toBeTruthy();
    expect(
      within(row).getByText(/I withdrew ₦5,000 yesterday\.\s+It has not arrived\./),
    ).toBeTruthy();
    const reply = within(row).getByRole('link', { name: `newer-${tag}@example.test` });
    expect(reply.getAttribute('href')).toBe(
      `mailto:newer-${tag}@example.test?subject=${encodeURIComponent(`Re: Newer question ${tag} (${second})`)}`,
    );
    expect(within(row).getByText('Ada Plucker')).toBeTruthy();
  });
});
