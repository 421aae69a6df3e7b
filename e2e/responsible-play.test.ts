import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { api, OPERATOR_ENV, operatorToken, topUpThroughSandbox } from './support/accounts.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { VIEWPORT_NAMES, VIEWPORTS, waitForScreen } from './support/browser.ts';
import { e2eSuite } from './support/fixture.ts';

const e2e = e2eSuite({ mail: true, env: () => OPERATOR_ENV });

/** Screenshots for review (gitignored). */
const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));

describe.each(VIEWPORT_NAMES)('Responsible play page at %s width', (viewport) => {
  const { width } = VIEWPORTS[viewport];

  it('sets a limit, saves reminders, downloads the statement and starts a break after confirming', async () => {
    const player = await e2e.registerPlayer('limits');
    await topUpThroughSandbox(e2e.server.url, player.token, 3000);
    await mkdir(ARTIFACTS, { recursive: true });
    const shot = (name: string) =>
      page.screenshot({
        path: `${ARTIFACTS}responsible-play-${name}-${width}.png`,
        fullPage: true,
      });

    // Reached from Profile.
    const page = await e2e.open('/Profile', { viewport, authToken: player.token });
    await page.getByRole('link', { name: 'Open responsible play' }).click();
    await page.waitForURL((url) => url.pathname === '/ResponsiblePlay');
    await page.getByRole('heading', { level: 1, name: 'Responsible play' }).waitFor();
    await page.getByRole('row', { name: /₦3,000/ }).waitFor();
    await waitForScreen(page);
    await expectNoSeriousA11yViolations(page, `/ResponsiblePlay at ${width} px`);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
    await shot('start');

    // A daily deposit limit, by keyboard-reachable labelled fields.
    const deposits = page.getByRole('region', { name: 'Deposit limits' });
    // The rule the server enforces, in the page's words: the money that lands decides.
    await deposits
      .getByText(
        'The most you can top up, counted when the money lands in your wallet. A checkout you have not paid yet counts for its first 30 minutes. Money that lands past your limit is not added: it is refunded to you, or held until our team returns it or your limit allows.',
      )
      .waitFor();
    await page
      .getByRole('region', { name: 'Spend limits' })
      .getByText(/entry fees and plans \(a renewal past it ends the plan, charging nothing\)/)
      .waitFor();
    await deposits.getByLabel('Limit in naira').fill('5000');
    await deposits.getByRole('button', { name: 'Save deposit limit' }).click();
    await page.getByText('Your new limit applies now.').waitFor();
    await deposits.getByText('₦3,000 used, ₦2,000 left').waitFor();
    // Raising waits 24 hours and the page says from when.
    await deposits.getByLabel('Limit in naira').fill('9000');
    await deposits.getByRole('button', { name: 'Save deposit limit' }).click();
    await deposits.getByText(/^Change to ₦9,000 applies from /).waitFor();

    // Reminders and the marketing switch save as they change.
    await page.getByLabel('Reality check').selectOption('30');
    const marketing = page.getByRole('switch', { name: 'Tournament news and offers' });
    await expect.poll(() => marketing.getAttribute('aria-checked')).toBe('true');
    await marketing.click();
    await expect.poll(() => marketing.getAttribute('aria-checked')).toBe('false');

    // The statement as CSV, from the server.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^pluckers-statement-\d{4}-\d{2}-\d{2}\.csv$/);
    await shot('limits');

    // A break asks first; Cancel changes nothing.
    const breaks = page.getByRole('region', { name: 'Take a break' });
    await breaks.getByRole('radio', { name: '7 days' }).check();
    await breaks.getByRole('button', { name: 'Start a 7-day break' }).click();
    const dialog = page.getByRole('dialog', { name: 'Start a 7-day break?' });
    await dialog.waitFor();
    await expectNoSeriousA11yViolations(page, `break confirmation at ${width} px`);
    await shot('confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await breaks.getByRole('button', { name: 'Start a 7-day break' }).click();
    await dialog.getByRole('button', { name: 'Yes, start my break' }).click();
    await page.getByRole('heading', { name: 'You are on a time-out' }).waitFor();
    await page.getByText(/^Your break has started\. It ends on /).waitFor();
    await shot('on-break');

    // The footer links here too.
    await page
      .getByRole('navigation', { name: 'Footer' })
      .getByRole('link', { name: 'Responsible play' })
      .waitFor();
  });
});

describe.each(VIEWPORT_NAMES)(
  'A break and the same player’s other account at %s width',
  (viewport) => {
    const { width } = VIEWPORTS[viewport];

    it('holds the other account to the break, and shows the operator both accounts linked', async () => {
      const base = e2e.server.url;
      const ada = await e2e.registerPlayer('ada');
      await api(base, 'POST', '/responsible-play/exclusion', {
        token: ada.token,
        body: { duration: '7d', confirm: true },
      });
      // The same mailbox, plus-addressed: a second account of the same person.
      const again = await e2e.registerPlayer('again', {
        email: ada.email.replace('@', '+again@'),
      });
      const topUp = await fetch(`${base}/api/v1/payment/transactpay`, {
        method: 'POST',
        headers: { authorization: `Bearer ${again.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ amount: 1000 }),
      });
      expect(topUp.status).toBe(403);
      expect(((await topUp.json()) as { message: string }).message).toMatch(
        /^You are taking a break until /,
      );

      const { data: adaUser } = await api<{ data: { id: string } }>(base, 'GET', '/user', {
        token: ada.token,
      });
      const page = await e2e.open(`/admin/users/${adaUser.id}`, {
        viewport,
        authToken: await operatorToken(base),
      });
      const section = page.getByRole('region', { name: 'Responsible play' });
      await section.getByRole('heading', { name: 'Linked accounts' }).waitFor();
      const linked = section.getByRole('listitem').filter({ hasText: again.handle });
      await linked.getByText('is held to this player’s break').waitFor();
      await linked.getByText('Shared: e-mail.').waitFor();
      await waitForScreen(page);
      await expectNoSeriousA11yViolations(page, `linked accounts at ${width} px`);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
      await mkdir(ARTIFACTS, { recursive: true });
      await section.screenshot({ path: `${ARTIFACTS}linked-accounts-${width}.png` });
    });
  },
);
