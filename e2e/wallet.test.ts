import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, balanceOf, OPERATOR_ENV, type Player } from './support/accounts.ts';
import { e2eSuite } from './support/fixture.ts';

const e2e = e2eSuite({ mail: true, env: () => OPERATOR_ENV });

let player: Player | undefined;
async function thePlayer(): Promise<Player> {
  player ??= await e2e.registerPlayer('wallet');
  return player;
}

/** Fills the top-up form, submits it and returns the checkout tab it opened. */
async function startTopUp(page: Page, amount: string): Promise<Page> {
  await page.getByLabel('Amount (₦)').fill(amount);
  const [checkout] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByRole('button', { name: /^Top up ₦/ }).click(),
  ]);
  await checkout.waitForURL(/\/api\/v1\/payment\/sandbox\//);
  return checkout;
}

const navBalance = (page: Page, amount: string) =>
  page.getByRole('link', { name: `Balance ${amount}, withdraw funds` });

describe('wallet', () => {
  it('tops up through the sandbox checkout and shows the new balance', async () => {
    const { token } = await thePlayer();
    const page = await e2e.open('/topup', { authToken: token });
    await navBalance(page, '₦0').waitFor();

    const checkout = await startTopUp(page, '5000');
    await checkout.getByText('₦5,000').first().waitFor();
    await checkout.getByRole('button', { name: /^Pay ₦5,000/ }).click();
    await checkout.waitForURL((url) => url.pathname === '/PaymentStatus');
    await checkout.getByRole('heading', { level: 1, name: 'Payment Successful' }).waitFor();
    await navBalance(checkout, '₦5,000').waitFor();

    // The tab the player started from learns it too when they come back to it (headless
    // Chromium does not switch the focus by itself, so the test tells the page).
    await page.bringToFront();
    await page.evaluate(() => {
      window.dispatchEvent(new Event('visibilitychange'));
      window.dispatchEvent(new Event('focus'));
    });
    await page.getByText('Payment received').waitFor();
    await navBalance(page, '₦5,000').waitFor();
    expect(await balanceOf(e2e.server.url, token)).toBe(5000);
  });

  it('a cancelled checkout ends on Payment Failed and leaves the balance alone', async () => {
    const { token } = await thePlayer();
    const page = await e2e.open('/topup', { authToken: token });
    await navBalance(page, '₦5,000').waitFor();

    const checkout = await startTopUp(page, '2500');
    await checkout.getByRole('button', { name: 'Cancel' }).click();
    await checkout.waitForURL((url) => url.pathname === '/PaymentStatus');
    await checkout.getByRole('heading', { level: 1, name: 'Payment Failed' }).waitFor();
    await navBalance(checkout, '₦5,000').waitFor();
    expect(await balanceOf(e2e.server.url, token)).toBe(5000);

    const payments = await api<{ data: { payments: { amount: number; status: string }[] } }>(
      e2e.server.url,
      'GET',
      '/payment',
      { token },
    );
    expect(payments.data.payments.map((p) => [p.amount, p.status.toUpperCase()])).toEqual([
      [2500, expect.stringMatching(/FAIL|CANCEL/)],
      [5000, 'SUCCESSFUL'],
    ]);
  });

  it('saves a bank account, then a withdrawal shows in the history as pending', async () => {
    const { token, fullname } = await thePlayer();
    const page = await e2e.open('/wallet', { authToken: token });

    const bank = page.getByLabel('Bank', { exact: true });
    // The list of banks comes in after the page: wait for the bank itself, however long it takes.
    await bank.locator('option', { hasText: 'Guaranty Trust Bank' }).waitFor({ state: 'attached' });
    await bank.selectOption({ label: 'Guaranty Trust Bank' });
    await page.getByLabel('Account number').fill('0123456785');
    const accountName = fullname.toUpperCase();
    await page.getByText(`Account name: ${accountName}`).waitFor();
    await page.getByRole('button', { name: 'Save bank account' }).click();
    await page.getByText('Saved. Check that this is your name.').waitFor();
    const saved = page.locator('dl').filter({ hasText: 'Account number' });
    await saved.getByText(accountName, { exact: true }).waitFor();
    await saved.getByText('0123456785').waitFor();

    await page.getByLabel('Amount to withdraw (₦)').fill('1000');
    await page.getByRole('button', { name: 'Withdraw ₦1,000' }).click();
    await page
      .getByRole('dialog', { name: 'Confirm your withdrawal' })
      .getByRole('button', { name: 'Confirm withdrawal' })
      .click();
    await page
      .getByRole('dialog', { name: 'Your withdrawal receipt' })
      .getByRole('button', { name: 'Done' })
      .click();
    const history = page.getByRole('list', { name: 'Withdrawal history' });
    const entry = history.getByRole('listitem').filter({ hasText: '₦1,000' });
    await entry.getByText('Pending').waitFor();
    // ₦1,000 plus the ₦50 fee left the balance.
    await navBalance(page, '₦3,950').waitFor();
    expect(await balanceOf(e2e.server.url, token)).toBe(3950);
  });
});
