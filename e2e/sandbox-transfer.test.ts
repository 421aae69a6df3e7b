/**
 * The payments sandbox's "a transfer arrives", at a phone and a laptop width: the player gets a
 * sandbox account number on Top up, "Send a test transfer" opens the sandbox's page with the
 * number filled in, and a transfer sent from it lands in the wallet (then one past a deposit
 * limit is held, and the page says why). Axe and screenshots of both pages at each width.
 */
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, balanceOf, OPERATOR_ENV, type Player } from './support/accounts.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { VIEWPORTS, type ViewportName, waitForScreen } from './support/browser.ts';
import { e2eSuite } from './support/fixture.ts';

const e2e = e2eSuite({ mail: true, env: () => OPERATOR_ENV });

let player: Player | undefined;
beforeAll(async () => {
  player = await e2e.registerPlayer('sbxtransfer', { fullname: 'Bola Adeyemi' });
});

function thePlayer(): Player {
  if (!player) throw new Error('the set-up did not make a player');
  return player;
}

/** A screenshot to look at: e2e/artifacts/sandbox-transfer-<name>-<width>.png (gitignored). */
async function shot(page: Page, name: string, viewport: ViewportName) {
  await mkdir('e2e/artifacts', { recursive: true });
  await page.screenshot({
    path: `e2e/artifacts/sandbox-transfer-${name}-${VIEWPORTS[viewport].width}.png`,
    fullPage: true,
  });
}

/** Top up's bank-transfer card, with the account number (made on the first visit). */
async function accountCard(viewport: ViewportName) {
  const page = await e2e.open('/topup', { authToken: thePlayer().token, viewport });
  await waitForScreen(page);
  const card = page.getByRole('region', { name: 'Top up by bank transfer' });
  const get = card.getByRole('button', { name: 'Get my account number' });
  const number = card.locator('dd.font-mono');
  await Promise.race([get.waitFor(), number.waitFor()]);
  if (await get.isVisible()) await get.click();
  await number.waitFor();
  return { page, card, accountNumber: (await number.textContent()) ?? '' };
}

/** Presses "Send a test transfer" and fills the sandbox page's form in the tab it opens. */
async function sendTestTransfer(page: Page, naira: string, sender: string, bank: string) {
  const [tab] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByRole('link', { name: 'Send a test transfer' }).click(),
  ]);
  await tab.waitForURL(/\/api\/v1\/payment\/sandbox\/transfer\?account=\d{10}$/);
  await tab.getByText('SANDBOX: no real money moves').waitFor();
  await tab.getByLabel('Amount (₦)').fill(naira);
  await tab.getByLabel("Sender's name").fill(sender);
  await tab.getByLabel("Sender's bank").fill(bank);
  await tab.getByRole('button', { name: 'Send the transfer' }).click();
  await tab.waitForURL(/transfer=SBX-TRF-/);
  return tab;
}

describe('a sandbox transfer arrives', () => {
  it('at phone width: Top up shows the account number, and a test transfer lands in the wallet', async () => {
    const { page, card, accountNumber } = await accountCard('mobile');
    expect(accountNumber).toMatch(/^\d{10}$/);
    await card.getByText('PLUCKERS/BOLA ADEYEMI').waitFor();
    await card.getByText('Pluckers Sandbox Bank').waitFor();
    await card.getByText(/Transfers usually arrive within a minute/).waitFor();
    await card.getByRole('button', { name: 'Copy the account number' }).waitFor();
    await expectNoSeriousA11yViolations(page, 'top up with an account number (390)');
    await shot(page, 'topup', 'mobile');

    const tab = await sendTestTransfer(page, '5000', 'CHIDI EZE', 'Access Bank');
    await tab
      .getByText(`₦5,000 arrived at ${accountNumber} and is in the player's wallet.`)
      .waitFor();
    await expectNoSeriousA11yViolations(tab, 'sandbox transfer page (390)');
    await shot(tab, 'page', 'mobile');
    expect(await balanceOf(e2e.server.url, thePlayer().token)).toBe(5000);

    const history = await e2e.open('/topup', { authToken: thePlayer().token, viewport: 'mobile' });
    await history.getByText('Bank transfer from CHIDI EZE (Access Bank)').waitFor();
  });

  it('at laptop width: a transfer past the deposit limit is held, and the page says why', async () => {
    await api(e2e.server.url, 'PUT', '/responsible-play/limits', {
      token: thePlayer().token,
      body: { kind: 'deposit', period: 'day', amount: 6000 },
    });
    const { page, accountNumber } = await accountCard('desktop');
    await shot(page, 'topup', 'desktop');
    const tab = await sendTestTransfer(page, '2500', 'NGOZI ABA', 'Zenith Bank');
    await tab
      .getByText(
        `₦2,500 arrived at ${accountNumber} and is on hold: it would have taken you past your daily deposit limit of ₦6,000.`,
        { exact: false },
      )
      .waitFor();
    await expectNoSeriousA11yViolations(tab, 'sandbox transfer page, held (1280)');
    await shot(tab, 'page', 'desktop');
    expect(await balanceOf(e2e.server.url, thePlayer().token)).toBe(5000);
  });
});
