import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  api,
  balanceOf,
  OPERATOR_ENV,
  type Player,
  saveBankAccount,
  topUpThroughSandbox,
} from './support/accounts.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { VIEWPORT_NAMES, VIEWPORTS, waitForScreen } from './support/browser.ts';
import { e2eSuite } from './support/fixture.ts';

/**
 * A withdrawal is confirmed before it is sent (amount, fee, total, bank,
 * account name, when it arrives), in calm colours, and ends on a receipt whose reference the
 * server has; the histories show each withdrawal's and top-up's reference.
 */

const e2e = e2eSuite({ mail: true, env: () => OPERATOR_ENV });

const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));

/**
 * Which of an element's text, background and border are painted in a red (the design's red,
 * docs/product.md#look-and-feel, is for failures), at any transparency. Each computed colour (rgb, or the
 * color-mix() Tailwind makes for `/30`) is normalised by painting it on a canvas.
 */
async function redParts(locator: Locator): Promise<string[]> {
  return locator.evaluate((element) => {
    const canvas = document.createElement('canvas');
    canvas.width = 1;
    canvas.height = 1;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context) throw new Error('no canvas');
    const isRed = (value: string) => {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = '#000';
      context.fillStyle = value;
      context.fillRect(0, 0, 1, 1);
      const [r = 0, g = 0, b = 0, a = 0] = context.getImageData(0, 0, 1, 1).data;
      return a > 0 && r > 180 && g < 130 && b < 130;
    };
    const style = getComputedStyle(element);
    const parts: string[] = [];
    if (isRed(style.color)) parts.push('text');
    if (isRed(style.backgroundColor)) parts.push('background');
    if (
      style.borderTopWidth !== '0px' &&
      style.borderTopStyle !== 'none' &&
      isRed(style.borderTopColor)
    )
      parts.push('border');
    return parts;
  });
}

interface Funded extends Player {
  bankName: string;
  accountNumber: string;
}

async function fundedPlayer(name: string): Promise<Funded> {
  const player = await e2e.registerPlayer(name);
  await topUpThroughSandbox(e2e.server.url, player.token, 3000);
  return { ...player, ...(await saveBankAccount(e2e.server.url, player.token)) };
}

interface WithdrawalRow {
  id: string;
  reference: string;
  shortReference: string;
  amount: number;
}

async function withdrawalsOf(token: string): Promise<WithdrawalRow[]> {
  const page = await api<{ data: { withdrawals: WithdrawalRow[] } }>(
    e2e.server.url,
    'GET',
    '/withdrawal',
    { token },
  );
  return page.data.withdrawals;
}

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
}

describe.each(VIEWPORT_NAMES)('Withdrawing at %s width', (viewport) => {
  const { width } = VIEWPORTS[viewport];

  it('asks to confirm amount, fee, total, bank and timing, then shows a receipt with the reference', async () => {
    const player = await fundedPlayer(`wconf${width}`);
    const accountName = player.fullname.toUpperCase();
    const page = await e2e.open('/wallet', { viewport, authToken: player.token });
    const form = page.getByRole('form', { name: 'Withdraw to your bank' });
    await form.waitFor();

    // Calm before anything is typed: the total box is neutral and the button is not red.
    const total = form.locator('dl > div').filter({ hasText: 'Total to be debited' });
    expect(await total.locator('dd').textContent()).toBe('—');
    expect(await redParts(total)).toEqual([]);
    expect(await redParts(total.locator('dd'))).toEqual([]);
    const submit = form.getByRole('button', { name: 'Withdraw', exact: true });
    expect(await redParts(submit)).toEqual([]);
    await waitForScreen(page);
    await noSidewaysScroll(page);
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}withdraw-form-${width}.png`, fullPage: true });

    await form.getByLabel('Amount to withdraw (₦)').fill('1000');
    await total.getByText('₦1,050').waitFor();
    expect(await redParts(total.locator('dd'))).toEqual([]);
    await form.getByRole('button', { name: 'Withdraw ₦1,000' }).click();

    // One tap only opens the confirmation: nothing has moved yet.
    const confirm = page.getByRole('dialog', { name: 'Confirm your withdrawal' });
    await confirm.waitFor();
    const facts = confirm.locator('dl');
    const fact = (label: string) =>
      facts.locator('div').filter({ has: page.getByText(label, { exact: true }) });
    await fact('Amount').getByText('₦1,000').waitFor();
    await fact('Transaction fee').getByText('₦50').waitFor();
    await fact('Total to be debited').getByText('₦1,050').waitFor();
    await fact('Bank').getByText(player.bankName).waitFor();
    await fact('Account name').getByText(accountName).waitFor();
    await fact('Account number').getByText(player.accountNumber).waitFor();
    await confirm.getByText('Withdrawals are processed within 24–48 hours.').waitFor();
    const send = confirm.getByRole('button', { name: 'Confirm withdrawal' });
    expect(await redParts(send)).toEqual([]);
    expect(await withdrawalsOf(player.token)).toEqual([]);
    expect(await balanceOf(e2e.server.url, player.token)).toBe(3000);
    await expectNoSeriousA11yViolations(page, `withdrawal confirmation at ${width} px`);
    await page.screenshot({ path: `${ARTIFACTS}withdraw-confirm-${width}.png` });

    // Cancel leaves everything as it was.
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await withdrawalsOf(player.token)).toEqual([]);

    await form.getByRole('button', { name: 'Withdraw ₦1,000' }).click();
    await confirm.getByRole('button', { name: 'Confirm withdrawal' }).click();

    // The receipt names the short reference the server keeps: ten characters on one line, easy
    // to read out to support; the long one stays the provider's.
    const receipt = page.getByRole('dialog', { name: 'Your withdrawal receipt' });
    await receipt.waitFor();
    const [made] = await withdrawalsOf(player.token);
    if (!made) throw new Error('no withdrawal was made');
    expect(made.reference).toBe(`wd-${made.id}`);
    expect(made.shortReference).toMatch(/^[0-9A-HJKMNP-TV-Z]{10}$/);
    const shown = receipt.getByText(made.shortReference, { exact: true });
    await shown.waitFor();
    expect(await receipt.getByText(made.reference).count()).toBe(0);
    const lines = await shown.evaluate((element) => element.getClientRects().length);
    expect(lines, 'the reference wraps').toBe(1);
    await receipt.getByText('₦1,050').waitFor();
    await receipt.getByText('Total debited', { exact: true }).waitFor();
    await receipt.getByText(accountName).waitFor();
    await expectNoSeriousA11yViolations(page, `withdrawal receipt at ${width} px`);
    await page.screenshot({ path: `${ARTIFACTS}withdraw-receipt-${width}.png` });
    await receipt.getByRole('button', { name: 'Done' }).click();
    await receipt.waitFor({ state: 'hidden' });
    expect(await balanceOf(e2e.server.url, player.token)).toBe(1950);
    expect(await withdrawalsOf(player.token)).toHaveLength(1);

    // The history keeps the receipt: the row opens to its reference and where the money went.
    const history = page.getByRole('list', { name: 'Withdrawal history' });
    const entry = history.getByRole('listitem').filter({ hasText: '₦1,000' });
    await entry.getByText('Pending').waitFor();
    await entry.getByText('Receipt', { exact: true }).click();
    await entry.getByText(made.shortReference, { exact: true }).waitFor();
    await entry.getByText(accountName).waitFor();
    await waitForScreen(page);
    await noSidewaysScroll(page);
    await expectNoSeriousA11yViolations(page, `/wallet with a receipt open at ${width} px`);
    await page.screenshot({ path: `${ARTIFACTS}withdraw-history-${width}.png`, fullPage: true });
    await page
      .getByRole('region', { name: 'Withdrawal history' })
      .screenshot({ path: `${ARTIFACTS}withdraw-history-card-${width}.png` });

    // Top-ups too: each payment's receipt carries its reference.
    const payments = await api<{ data: { payments: { reference: string; amount: number }[] } }>(
      e2e.server.url,
      'GET',
      '/payment',
      { token: player.token },
    );
    const [topUp] = payments.data.payments;
    if (!topUp) throw new Error('no top-up recorded');
    const topUpPage = await e2e.open('/topup', { viewport, authToken: player.token });
    const paymentRow = topUpPage
      .getByRole('list', { name: 'Payment history' })
      .getByRole('listitem')
      .filter({ hasText: '₦3,000' });
    await paymentRow.getByText('Receipt', { exact: true }).click();
    await paymentRow.getByText(topUp.reference, { exact: true }).waitFor();
    await waitForScreen(topUpPage);
    await noSidewaysScroll(topUpPage);
    await expectNoSeriousA11yViolations(topUpPage, `/topup with a receipt open at ${width} px`);
    await topUpPage
      .getByRole('region', { name: 'Payment history' })
      .screenshot({ path: `${ARTIFACTS}topup-receipt-${width}.png` });
  });
});
