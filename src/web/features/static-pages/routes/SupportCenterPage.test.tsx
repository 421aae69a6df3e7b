import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SupportCenterPage } from './SupportCenterPage.tsx';

function field(label: string) {
  return screen.getByLabelText(label) as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

function setup() {
  // happy-dom has no window.alert; stand in the browser's one with a spy.
  const alert = vi.fn<(message?: string) => void>();
  vi.stubGlobal('alert', alert);
  const fetchSpy = vi.spyOn(window, 'fetch');
  const person = userEvent.setup();
  render(<SupportCenterPage />);
  return { alert, fetchSpy, person };
}

describe('SupportCenterPage', () => {
  it('has one page heading, the FAQ and the contact form', () => {
    render(<SupportCenterPage />);

    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual([
      'How can we help?',
    ]);
    expect(
      screen.getByRole('heading', { level: 2, name: 'Frequently asked questions' }),
    ).toBeTruthy();
    expect(screen.getByText('When will my withdrawal reach my bank?')).toBeTruthy();
    expect(screen.getByRole('form', { name: 'Contact support' })).toBeTruthy();
  });

  it('stores the message (POST /support), then shows the browser alert, clears the form and gives the reference', async () => {
    const { alert, fetchSpy, person } = setup();
    fetchSpy.mockResolvedValueOnce(
      new Response(
        JSON.stringify({
          message: 'Ticket SUP-ABCD-EFGH: we have e-mailed you the reference.',
          data: { reference: 'SUP-ABCD-EFGH' },
        }),
        { status: 201, headers: { 'content-type': 'application/json' } },
      ),
    );

    await person.type(field('Full name'), 'Ada Obi');
    await person.type(field('Email'), 'ada@example.com');
    await person.selectOptions(field('Category'), 'Withdrawals');
    await person.type(field('Subject'), 'Withdrawal still pending');
    await person.type(field('Message'), 'I withdrew ₦5,000 two days ago and it is still pending.');
    await person.click(screen.getByRole('button', { name: 'Send message' }));

    await vi.waitFor(() => expect(alert).toHaveBeenCalledTimes(1));
    expect(alert.mock.calls[0]?.[0]).toContain('Ada Obi');
    expect(alert.mock.calls[0]?.[0]).toContain('ada@example.com');
    for (const label of ['Full name', 'Email', 'Category', 'Subject', 'Message']) {
      expect(field(label).value).toBe('');
    }
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    const [url, init] = fetchSpy.mock.calls[0] ?? [];
    expect(String(url)).toMatch(/\/api\/v1\/support$/);
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({
      name: 'Ada Obi',
      email: 'ada@example.com',
      category: 'Withdrawals',
      subject: 'Withdrawal still pending',
      message: 'I withdrew ₦5,000 two days ago and it is still pending.',
    });
    expect(await screen.findByText('SUP-ABCD-EFGH')).toBeTruthy();
  });

  it('explains what is missing instead of alerting, and focuses the first problem', async () => {
    const { alert, fetchSpy, person } = setup();

    await person.type(field('Email'), 'not-an-email');
    await person.click(screen.getByRole('button', { name: 'Send message' }));

    expect(alert).not.toHaveBeenCalled();
    expect(screen.getByText('Enter your name')).toBeTruthy();
    expect(screen.getByText('Enter a valid email address')).toBeTruthy();
    expect(screen.getByText('Select a category')).toBeTruthy();
    expect(screen.getByText('Enter a subject')).toBeTruthy();
    expect(screen.getByText('Enter your message')).toBeTruthy();
    expect(document.activeElement).toBe(field('Full name'));
    expect(field('Full name').getAttribute('aria-invalid')).toBe('true');
    // What was typed stays, so the player only fixes what is wrong.
    expect(field('Email').value).toBe('not-an-email');

    await person.type(field('Full name'), 'Ada');
    expect(screen.queryByText('Enter your name')).toBeNull();
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
