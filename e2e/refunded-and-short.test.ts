/**
 * What a player reads when money did not go the usual way: a cancelled game's page and its
 * submission say the entry fee was refunded and nothing is won (not "✓ Paid" and "Amount to
 * win ₦500"), and the upgrade screen with too little in the wallet says what is missing and
 * offers the top-up that covers it (not "Balance after −₦1,400" in red). At a phone and a
 * laptop width, axe-clean.
 */
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  OPERATOR_ENV,
  operatorToken,
  type Player,
  topUpThroughSandbox,
} from './support/accounts.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { VIEWPORT_NAMES, type ViewportName, waitForScreen } from './support/browser.ts';
import { e2eSuite } from './support/fixture.ts';
import { createGame } from './support/games.ts';

const e2e = e2eSuite({ mail: true, env: () => OPERATOR_ENV });

let refunded: Player | undefined;
let broke: Player | undefined;
let cancelledId = '';
let cancelledTitle = '';
let planId = '';
beforeAll(async () => {
  const base = e2e.server.url;
  const operator = await operatorToken(base);
  cancelledTitle = `Called off ${Date.now().toString(36)}`;
  cancelledId = await createGame(base, operator, {
    title: cancelledTitle,
    entryFee: 100,
    reward: 500,
    maximumPlayers: 20,
  });
  [refunded, broke] = await Promise.all([
    e2e.registerPlayer('refunded'),
    e2e.registerPlayer('broke'),
  ]);
  await topUpThroughSandbox(base, refunded.token, 1000);
  await api(base, 'POST', '/game/play', {
    token: refunded.token,
    body: { gameID: cancelledId, submittedAnswer: 'Too early to tell' },
  });
  await api(base, 'POST', `/admin/games/${cancelledId}/cancel`, {
    token: operator,
    body: { reason: 'A fault in the question' },
  });
  const plans = await api<{ data: Array<{ id: string }> }>(base, 'GET', '/plan', {
    token: broke.token,
  });
  planId = plans.data[0]?.id ?? '';
});

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the set-up did not make ${what}`);
  return value;
}

async function shot(page: Page, name: string): Promise<void> {
  await mkdir('e2e/artifacts', { recursive: true });
  await page.screenshot({ path: `e2e/artifacts/refunded-and-short-${name}.png`, fullPage: true });
}

async function openAs(player: Player | undefined, path: string, viewport: ViewportName) {
  const page = await e2e.open(path, { authToken: need(player, 'a player').token, viewport });
  await waitForScreen(page);
  return page;
}

describe.each(VIEWPORT_NAMES)('at %s width', (viewport) => {
  it('a cancelled game reads refunded on its page and in My submissions', async () => {
    const page = await openAs(refunded, `/GameDetails?id=${cancelledId}`, viewport);
    await page.getByRole('status').getByText('This game was cancelled').waitFor();
    const facts = page.locator('article dl').first();
    // "↩ Refunded" beside the fee, "No draw" beside the reward; never "✓ Paid".
    await facts.getByText('Refunded').waitFor();
    await facts.getByText('No draw', { exact: true }).waitFor();
    expect(await facts.getByText('Paid').count()).toBe(0);
    await shot(page, `game-${viewport}`);
    await expectNoSeriousA11yViolations(page, `cancelled game page at ${viewport}`);

    const submissions = await openAs(refunded, '/MySubmissions', viewport);
    const card = submissions.getByRole('article', { name: `“${cancelledTitle}”` });
    await card.getByText('Entry fee refunded').waitFor();
    await card.getByText('Nothing, no draw').waitFor();
    expect(await card.getByText('₦500').count()).toBe(0);
    await shot(submissions, `submissions-${viewport}`);
    await expectNoSeriousA11yViolations(submissions, `cancelled submission at ${viewport}`);
  });

  it('the upgrade screen with ₦0 says what is missing and offers the top-up that covers it', async () => {
    const page = await openAs(broke, `/UpgradeAccount/${planId}`, viewport);
    const terms = page.locator('dl').filter({ hasText: 'Wallet balance' });
    await terms.getByText('You need', { exact: true }).waitFor();
    await terms.getByText('₦1,400 more', { exact: true }).waitFor();
    expect(await terms.getByText('Balance after').count()).toBe(0);
    const topUp = page.getByRole('main').getByRole('link', { name: 'Top up ₦1,400' });
    expect(await topUp.getAttribute('href')).toBe('/TopUp?amount=1400');
    await shot(page, `upgrade-${viewport}`);
    await expectNoSeriousA11yViolations(page, `upgrade at ₦0 at ${viewport}`);
    await topUp.click();
    await page.waitForURL((url) => url.pathname.toLowerCase() === '/topup');
    await expect.poll(() => page.getByLabel('Amount (₦)').inputValue()).toBe('1400');
  });
});
