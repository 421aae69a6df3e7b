/**
 * A player on a break is told before acting: every screen that takes money in or plays shows
 * the break and its end instead of the action, Home says it with a way to Responsible play, and
 * nothing offers a top-up. At a phone and a laptop width, axe-clean.
 */
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatDate } from '../src/shared/date.ts';
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

let resting: Player | undefined;
let endsAt = '';
let affordable = '';
let tooDear = '';
let planId = '';
beforeAll(async () => {
  const base = e2e.server.url;
  const operator = await operatorToken(base);
  const stamp = Date.now().toString(36);
  affordable = await createGame(base, operator, { title: `Break game ${stamp}`, entryFee: 100 });
  tooDear = await createGame(base, operator, {
    title: `Dear game ${stamp}`,
    entryFee: 5000,
    reward: 20000,
  });
  resting = await e2e.registerPlayer('resting');
  await topUpThroughSandbox(base, resting.token, 1000);
  const started = await api<{ data: { endsAt: string } }>(
    base,
    'POST',
    '/responsible-play/exclusion',
    { token: resting.token, body: { duration: '7d', confirm: true } },
  );
  endsAt = started.data.endsAt;
  const plans = await api<{ data: Array<{ id: string }> }>(base, 'GET', '/plan', {
    token: resting.token,
  });
  planId = plans.data[0]?.id ?? '';
});

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the set-up did not make ${what}`);
  return value;
}

async function shot(page: Page, name: string): Promise<void> {
  await mkdir('e2e/artifacts', { recursive: true });
  await page.screenshot({ path: `e2e/artifacts/on-a-break-${name}.png`, fullPage: true });
}

async function openResting(path: string, viewport: ViewportName): Promise<Page> {
  const page = await e2e.open(path, { authToken: need(resting, 'a player').token, viewport });
  await waitForScreen(page);
  return page;
}

describe.each(VIEWPORT_NAMES)('a player on a break, at %s width', (viewport) => {
  const breakText = () => `You are taking a break until ${formatDate(endsAt)}.`;

  it('sees the break on Home with a link to Responsible play', async () => {
    const page = await openResting('/Home', viewport);
    await page.getByText(breakText(), { exact: false }).first().waitFor();
    await page.getByRole('main').getByRole('link', { name: 'Responsible play' }).first().waitFor();
    await shot(page, `home-${viewport}`);
    await expectNoSeriousA11yViolations(page, `home on a break ${viewport}`);
  });

  it('sees the break instead of Submit on a game it could pay for, and no top-up on one it could not', async () => {
    for (const id of [affordable, tooDear]) {
      const page = await openResting(`/GameDetails?id=${id}`, viewport);
      await page.getByText(breakText(), { exact: false }).waitFor();
      expect(await page.getByRole('button', { name: 'Submit Your Answer' }).count()).toBe(0);
      expect(
        await page
          .getByRole('main')
          .getByRole('link', { name: /^Top up/ })
          .count(),
      ).toBe(0);
      await shot(page, `game-${id === affordable ? 'affordable' : 'too-dear'}-${viewport}`);
      await expectNoSeriousA11yViolations(page, `game on a break ${viewport}`);
    }
  });

  it('sees the break instead of the top-up form, and the wallet offers no top-up', async () => {
    const page = await openResting('/TopUp', viewport);
    await page.getByText(breakText(), { exact: false }).waitFor();
    expect(await page.getByRole('button', { name: /^Top up/ }).count()).toBe(0);
    await shot(page, `topup-${viewport}`);
    await expectNoSeriousA11yViolations(page, `top-up on a break ${viewport}`);

    const wallet = await openResting('/wallet', viewport);
    await wallet.getByText(breakText(), { exact: false }).waitFor();
    await shot(wallet, `wallet-${viewport}`);
    expect(await wallet.getByRole('main').getByRole('link', { name: 'Top up' }).count()).toBe(0);
  });

  it('sees the break on Pricing and on the upgrade screen instead of a way to pay', async () => {
    const pricing = await openResting('/Pricing', viewport);
    await pricing.getByText(breakText(), { exact: false }).waitFor();
    expect(await pricing.getByRole('link', { name: /^Upgrade to/ }).count()).toBe(0);
    expect(await pricing.getByRole('link', { name: 'Top up wallet' }).count()).toBe(0);
    await shot(pricing, `pricing-${viewport}`);
    await expectNoSeriousA11yViolations(pricing, `pricing on a break ${viewport}`);

    const upgrade = await openResting(`/UpgradeAccount/${planId}`, viewport);
    await upgrade.getByText(breakText(), { exact: false }).waitFor();
    expect(await upgrade.getByRole('button', { name: /^Pay / }).count()).toBe(0);
    expect(
      await upgrade
        .getByRole('main')
        .getByRole('link', { name: /^Top up/ })
        .count(),
    ).toBe(0);
    await shot(upgrade, `upgrade-${viewport}`);
    await expectNoSeriousA11yViolations(upgrade, `upgrade on a break ${viewport}`);
  });
});
