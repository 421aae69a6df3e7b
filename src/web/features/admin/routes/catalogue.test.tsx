import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { getSession, setSettings, setUser } from '@web/lib/session.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import { renderConsole, signInAdmin } from '../test-helpers.tsx';

const server = testServerPerFile();

afterEach(() => {
  setUser(null);
  setSettings(null);
});

describe('Plans, categories, settings and the audit log', () => {
  it('creates a plan with the shared schema’s checks, then edits it', async () => {
    await signInAdmin(server());
    const person = userEvent.setup();
    renderConsole(server(), '/admin/plans');

    await person.click(await screen.findByRole('button', { name: 'New plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'New plan' });
    await waitFor(() =>
      expect(document.activeElement).toBe(within(dialog).getByLabelText('Plan name')),
    );
    await person.type(within(dialog).getByLabelText('Price per day (₦)'), '-5');
    await person.click(within(dialog).getByRole('button', { name: 'Create plan' }));
    expect(within(dialog).getByText('Daily amount must be above zero')).toBeTruthy();

    await person.type(within(dialog).getByLabelText('Plan name'), 'Gold');
    await person.clear(within(dialog).getByLabelText('Price per day (₦)'));
    await person.type(within(dialog).getByLabelText('Price per day (₦)'), '150');
    expect(within(dialog).getByText('₦1,050 a week')).toBeTruthy();
    await person.type(within(dialog).getByLabelText('Games per day'), '12');
    await person.click(within(dialog).getByRole('button', { name: 'Create plan' }));

    expect(await screen.findByText('Plan created')).toBeTruthy();
    const card = (await screen.findByRole('heading', { name: 'Gold' })).closest(
      'article',
    ) as HTMLElement;
    expect(within(card).getByText('12 games a day')).toBeTruthy();
    expect(within(card).getByText('On sale')).toBeTruthy();

    await person.click(within(card).getByRole('button', { name: 'Edit Gold' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit plan' });
    expect((within(edit).getByLabelText('Plan name') as HTMLInputElement).value).toBe('Gold');
    await person.click(within(edit).getByLabelText('On sale'));
    await person.click(within(edit).getByRole('button', { name: 'Save plan' }));
    expect(await screen.findByText('Plan saved')).toBeTruthy();
    await waitFor(() => expect(within(card).getByText('Inactive')).toBeTruthy());
  });

  it('creates and renames a category (title and emoji)', async () => {
    await signInAdmin(server());
    const person = userEvent.setup();
    renderConsole(server(), '/admin/categories');

    await person.click(await screen.findByRole('button', { name: 'New category' }));
    const dialog = await screen.findByRole('dialog', { name: 'New category' });
    await person.click(within(dialog).getByRole('button', { name: 'Create category' }));
    expect(within(dialog).getByText('Title must be at least 2 characters')).toBeTruthy();
    expect(within(dialog).getByText('Choose an emoji')).toBeTruthy();

    await person.type(within(dialog).getByLabelText('Emoji'), '🍲');
    await person.type(within(dialog).getByLabelText('Title'), 'Naija food');
    await person.click(within(dialog).getByRole('button', { name: 'Create category' }));
    expect(await screen.findByText('Category created')).toBeTruthy();

    await person.click(await screen.findByRole('button', { name: 'Edit Naija food' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit category' });
    await person.clear(within(edit).getByLabelText('Title'));
    await person.type(within(edit).getByLabelText('Title'), 'Nigerian food');
    await person.click(within(edit).getByRole('button', { name: 'Save category' }));
    expect(await screen.findByText('Category saved')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Edit Nigerian food' })).toBeTruthy();
  });

  it('saves settings, refuses invalid ones, and lists every change in the audit log', async () => {
    const { admin } = await signInAdmin(server());
    const person = userEvent.setup();
    const view = renderConsole(server(), '/admin/settings');

    const limit = (await screen.findByLabelText('Daily game limit')) as HTMLInputElement;
    await person.clear(limit);
    await person.type(limit, '2.5');
    await person.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(screen.getByText('Daily game limit must be a whole number')).toBeTruthy();
    expect(document.activeElement).toBe(limit);

    await person.clear(limit);
    await person.type(limit, '7');
    await person.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Settings saved')).toBeTruthy();
    expect(getSession().settings?.dailyGameLimit).toBe(7);
    view.unmount();

    renderConsole(server(), '/admin/audit');
    const table = await screen.findByRole('region', { name: 'Audit log' });
    const row = within(table).getByText('settings.update').closest('tr') as HTMLElement;
    expect(within(row).getByText(admin.email)).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'settings 1' }).getAttribute('href')).toBe(
      '/admin/settings',
    );
    expect(row.textContent).toContain('"dailyGameLimit":7');
  });
});
