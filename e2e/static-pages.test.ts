import {
  ANSWER_MAX_WORDS,
  PRIZE_PAYOUT_TEXT,
  WITHDRAWAL_PROCESSING_TEXT,
} from '@shared/constants.ts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { waitForLiveForm, waitForScreen } from './support/browser.ts';
import { e2eSuite } from './support/fixture.ts';

const e2e = e2eSuite({ shared: true });

/** The text of the page's main landmark, whitespace collapsed, once its heading is on screen. */
async function mainText(page: Page): Promise<string> {
  await waitForScreen(page);
  return ((await page.locator('main').textContent()) ?? '').replace(/\s+/g, ' ');
}

async function sectionTitles(page: Page): Promise<string[]> {
  return (await page.locator('main h2').allTextContents()).map((title) => title.trim());
}

describe('static pages', () => {
  it('/Terms: the terms of use, with the age rule, fees and withdrawals', async () => {
    const page = await e2e.open('/Terms');
    const text = await mainText(page);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'The rules of the house',
    );
    expect(text).toContain('You must be 18 or over to use Pluckers.');
    expect(text).toContain(WITHDRAWAL_PROCESSING_TEXT);
    expect(text).toContain(PRIZE_PAYOUT_TEXT);
    expect(text).toContain(`up to ${ANSWER_MAX_WORDS} words`);
    expect(text).toMatch(/Last updated \d{1,2} \w+ \d{4}/);
    expect(await sectionTitles(page)).toEqual(
      expect.arrayContaining(['Who can play', 'Entry fees', 'Withdrawals', 'The VIP plan']),
    );
    expect(await page.getByRole('link', { name: 'Game rules' }).first().getAttribute('href')).toBe(
      '/GameRules',
    );
  });

  it('/Privacy: what is kept, why, and the player’s rights', async () => {
    const page = await e2e.open('/Privacy');
    const text = await mainText(page);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'Your data, kept to what we need',
    );
    expect(text).toContain('Nigeria Data Protection Act 2023');
    expect(text).toContain('We never sell your data');
    expect(text).toContain('Your bank account');
    expect(await sectionTitles(page)).toEqual(
      expect.arrayContaining(['What we keep', 'Why we keep it', 'Your rights']),
    );
  });

  it('/GameRules: one in five wins, 20 words, one answer, refunds under 5 players', async () => {
    const page = await e2e.open('/GameRules');
    const text = await mainText(page);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'How Pluckers games work',
    );
    expect(text).toContain('one in every five players wins');
    expect(text).toContain(`1 to ${ANSWER_MAX_WORDS} words`);
    expect(text).toContain('You get one answer per game');
    expect(text).toContain(
      'Only one submission allowed. Maximum: 20 words. Once submitted, no edits.',
    );
    expect(text).toContain('If fewer than 5 have played when a game closes');
    expect(text).toContain('every entry fee is refunded in full');
    // The worked examples: floor(players / 5) winners, none under five.
    const rows = await page
      .getByRole('table', { name: 'Number of winners for a number of players' })
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) =>
          Array.from((tr as HTMLTableRowElement).cells, (cell) => cell.textContent?.trim()).join(
            ' | ',
          ),
        ),
      );
    expect(rows).toEqual(
      expect.arrayContaining([
        '4 | None: game cancelled, fees refunded',
        '5 | 1',
        '9 | 1',
        '10 | 2',
        '100 | 20',
      ]),
    );
  });

  it('/SupportCenter: help topics, answers to common questions and the contact form', async () => {
    const page = await e2e.open('/SupportCenter');
    const text = await mainText(page);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('How can we help?');
    expect(await sectionTitles(page)).toEqual(
      expect.arrayContaining(['Frequently asked questions', 'Send us a message']),
    );
    expect(text).toContain('When will my withdrawal reach my bank?');
    // An answer folds out when its question is pressed.
    const question = page.getByText('When will my withdrawal reach my bank?');
    await question.click();
    await page.getByText(WITHDRAWAL_PROCESSING_TEXT).first().waitFor();
    for (const label of ['Full name', 'Email', 'Category', 'Subject', 'Message']) {
      expect(await page.getByLabel(label, { exact: true }).count(), label).toBe(1);
    }
  });
});

describe('the support form', () => {
  it('shows a browser alert on submit and clears every field; the only request stores the message', async () => {
    const page = await e2e.open('/SupportCenter');
    const form = page.getByRole('form', { name: 'Contact support' });
    await form.waitFor();
    // The form is in the prerendered HTML before the app runs (its fields take input already):
    // count from when the app has taken it over, its start-up requests sent.
    await waitForLiveForm(page);
    await page.waitForLoadState('networkidle');

    // Only the message leaves the page (stored for operators to answer). The app's own code
    // files may still be arriving on a slow machine, and a web font for a newly typed
    // character (₦) may load: neither carries anything of the player's.
    const requests: string[] = [];
    const appCode = `${e2e.server.url}/assets/`;
    page.on('request', (request) => {
      const code = request.method() === 'GET' && request.url().startsWith(appCode);
      if (!code && request.resourceType() !== 'font')
        requests.push(`${request.method()} ${request.url()}`);
    });
    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      alerts.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.accept();
    });

    await form.getByLabel('Full name').fill('Ada Okafor');
    await form.getByLabel('Email').fill('ada@example.ng');
    await form.getByLabel('Category').selectOption('Withdrawals');
    await form.getByLabel('Subject').fill('Withdrawal still pending');
    await form
      .getByLabel('Message')
      .fill('I asked for ₦5,000 two days ago and it is still pending.');
    await form.getByRole('button', { name: 'Send message' }).click();

    await expect.poll(() => alerts.length, { timeout: 10_000 }).toBe(1);
    expect(alerts[0]).toMatch(/^alert: /);
    expect(alerts[0]).toContain('Ada Okafor');
    for (const label of ['Full name', 'Email', 'Category', 'Subject', 'Message']) {
      await expect
        .poll(() => form.getByLabel(label).inputValue(), { message: label, timeout: 10_000 })
        .toBe('');
    }
    expect(requests).toEqual([`POST ${e2e.server.url}/api/v1/support`]);
  });

  it('does not submit an incomplete form: it names what is missing instead of alerting', async () => {
    const page = await e2e.open('/SupportCenter');
    const form = page.getByRole('form', { name: 'Contact support' });
    await form.waitFor();
    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      alerts.push(dialog.message());
      void dialog.dismiss();
    });

    await form.getByLabel('Full name').fill('Ada Okafor');
    await form.getByRole('button', { name: 'Send message' }).click();

    await form.getByText('Enter your email address').waitFor();
    expect(await form.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    expect(
      await form.getByLabel('Email').evaluate((input) => input === document.activeElement),
    ).toBe(true);
    expect(await form.getByLabel('Full name').inputValue()).toBe('Ada Okafor');
    expect(alerts).toEqual([]);
  });
});
