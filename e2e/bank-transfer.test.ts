/**
 * Top up by bank transfer on the wallet page (and the same card on Top up), at a phone and a
 * laptop width: "Get my account number" shows the number, bank and name with a copy button; a
 * transfer sent to it (a fake Paystack's signed webhook) lands in the wallet and in the payment
 * history with its sender.
 * Axe and a screenshot at each width.
 */
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakePaystack, startFakePaystack } from '../src/server/test/fake-paystack.ts';
import { balanceOf, OPERATOR_ENV, type Player } from './support/accounts.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { VIEWPORTS, type ViewportName, waitForScreen } from './support/browser.ts';
import { e2eSuite } from './support/fixture.ts';

let paystack: FakePaystack | undefined;
const e2e = e2eSuite({
  mail: true,
  env: async () => {
    paystack = await startFakePaystack();
    return { ...OPERATOR_ENV, ...paystack.env };
  },
});
afterAll(() => paystack?.close());

let player: Player | undefined;
beforeAll(async () => {
  player = await e2e.registerPlayer('transfer', { fullname: 'Adaeze Okafor' });
});

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the set-up did not make ${what}`);
  return value;
}

async function openWallet(viewport: ViewportName, path = '/wallet'): Promise<Page> {
  const page = await e2e.open(path, { authToken: need(player, 'a player').token, viewport });
  await waitForScreen(page);
  return page;
}

/** A screenshot to look at: e2e/artifacts/bank-transfer-<name>-<width>.png (gitignored). */
async function shot(page: Page, name: string, viewport: ViewportName) {
  await mkdir('e2e/artifacts', { recursive: true });
  await page.screenshot({
    path: `e2e/artifacts/bank-transfer-${name}-${VIEWPORTS[viewport].width}.png`,
    fullPage: true,
  });
}

/** Top up shows the same account number as the wallet, with its copy button and promise. */
async function expectAccountOnTopUp(page: Page, accountNumber: string) {
  const card = page.getByRole('region', { name: 'Top up by bank transfer' });
  expect(await card.locator('dd.font-mono').textContent()).toBe(accountNumber);
  await card.getByRole('button', { name: 'Copy the account number' }).waitFor();
  await card.getByText(/Transfers usually arrive within a minute/).waitFor();
  // A live provider: no sandbox link.
  expect(await card.getByRole('link', { name: 'Send a test transfer' }).count()).toBe(0);
}

describe('top up by bank transfer', () => {
  it('gets an account number at phone width, copies it, and a transfer lands with its sender', async () => {
    const page = await openWallet('mobile');
    const card = page.getByRole('region', { name: 'Top up by bank transfer' });
    await card.getByRole('button', { name: 'Get my account number' }).click();
    const number = card.locator('dd.font-mono');
    await number.waitFor();
    const accountNumber = (await number.textContent()) ?? '';
    expect(accountNumber).toMatch(/^\d{10}$/);
    await card.getByText('PLUCKERS/ADAEZE OKAFOR').waitFor();
    await card.getByText('Test Bank').waitFor();
    await card.getByText(/Transfers usually arrive within a minute/).waitFor();

    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: e2e.server.url,
    });
    await card.getByRole('button', { name: 'Copy the account number' }).click();
    await card.getByRole('button', { name: 'Copied the account number' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(accountNumber);
    await expectNoSeriousA11yViolations(page, 'wallet with an account number (390)');
    await shot(page, 'wallet', 'mobile');

    const fake = need(paystack, 'the fake Paystack');
    const transfer = fake.receiveTransfer(accountNumber, 1_250_000, {
      name: 'CHIDI EZE',
      bank: 'Access Bank',
    });
    const delivered = await fake.deliver(
      `${e2e.server.url}/api/v1/payment/webhook/paystack`,
      fake.dedicatedTransferWebhook(transfer.reference),
    );
    expect(delivered.status).toBe(200);
    expect(await balanceOf(e2e.server.url, need(player, 'a player').token)).toBe(12_500);

    const history = await openWallet('mobile', '/topup');
    await history.getByText('Bank transfer from CHIDI EZE (Access Bank)').waitFor();
    await expectAccountOnTopUp(history, accountNumber);
    await expectNoSeriousA11yViolations(history, 'payment history with a transfer (390)');
    await shot(history, 'history', 'mobile');
  });

  it('shows the same account number at laptop width', async () => {
    const page = await openWallet('desktop');
    const card = page.getByRole('region', { name: 'Top up by bank transfer' });
    await card.getByText('PLUCKERS/ADAEZE OKAFOR').waitFor();
    await expect(card.getByRole('button', { name: 'Get my account number' }).count()).resolves.toBe(
      0,
    );
    await expectNoSeriousA11yViolations(page, 'wallet with an account number (1280)');
    await shot(page, 'wallet', 'desktop');
    const history = await openWallet('desktop', '/topup');
    await history.getByText('Bank transfer from CHIDI EZE (Access Bank)').waitFor();
    await expectAccountOnTopUp(history, (await card.locator('dd.font-mono').textContent()) ?? '');
    await shot(history, 'history', 'desktop');
  });
});
