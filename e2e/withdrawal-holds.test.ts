import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  OPERATOR_ENV,
  operatorToken,
  type Player,
  saveBankAccount,
  topUpThroughSandbox,
} from './support/accounts.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { VIEWPORT_NAMES, VIEWPORTS, waitForScreen } from './support/browser.ts';
import { e2eSuite } from './support/fixture.ts';

const e2e = e2eSuite({ mail: true, env: () => OPERATOR_ENV });

/** Screenshots for review (gitignored). */
const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));

/** A player who topped up and asks for most of it back at once, to an account just saved. */
async function playerWithHeldWithdrawal(name: string): Promise<Player> {
  const baseUrl = e2e.server.url;
  const player = await e2e.registerPlayer(name);
  await topUpThroughSandbox(baseUrl, player.token, 3000);
  await saveBankAccount(baseUrl, player.token);
  await api(baseUrl, 'POST', '/withdrawal', { token: player.token, body: { amount: 2000 } });
  return player;
}

let operator: string | undefined;
const held: Player[] = [];
beforeAll(async () => {
  operator = await operatorToken(e2e.server.url);
  held.push(await playerWithHeldWithdrawal('held'));
});

describe.each(VIEWPORT_NAMES)('Withdrawals queue at %s width', (viewport) => {
  const { width } = VIEWPORTS[viewport];

  it('marks the held withdrawal with its reasons, filters to held ones, and asks for a review note', async () => {
    const [player] = held;
    if (!player || !operator) throw new Error('the held withdrawal was not set up');
    const page = await e2e.open('/admin/withdrawals', { viewport, authToken: operator });
    await page.getByRole('heading', { level: 1, name: 'Withdrawals' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: player.handle });
    await row.getByText('Held for review').waitFor();
    await row.getByText('Little play · New account').waitFor();

    await page.getByLabel('Held for review only').check();
    await page.waitForURL((url) => url.searchParams.get('held') === '1');
    await row.getByText('Held for review').waitFor();
    await waitForScreen(page);
    await expectNoSeriousA11yViolations(page, `/admin/withdrawals at ${width} px`);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}withdrawal-holds-${width}.png`, fullPage: true });

    // The approve dialog explains the hold and wants the operator's note before paying.
    await row.getByRole('button', { name: /^Approve ₦2,000/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve this withdrawal?' });
    await dialog.getByText(/^Deposit then withdraw with little play/).waitFor();
    await dialog.getByRole('button', { name: 'Send ₦2,000' }).click();
    await dialog.getByText('Write a review note of at least 3 characters').waitFor();
    await expectNoSeriousA11yViolations(page, `approve dialog at ${width} px`);
    await page.screenshot({
      path: `${ARTIFACTS}withdrawal-holds-approve-${width}.png`,
      fullPage: true,
    });
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // The dashboard counts held withdrawals per reason and links to them.
    const dashboard = await e2e.open('/admin', { viewport, authToken: operator });
    const holds = dashboard.getByRole('region', { name: 'Held for review' });
    await holds.getByText('Little play', { exact: true }).waitFor();
    await waitForScreen(dashboard);
    await expectNoSeriousA11yViolations(dashboard, `/admin at ${width} px`);
    await dashboard.screenshot({
      path: `${ARTIFACTS}withdrawal-holds-dashboard-${width}.png`,
      fullPage: true,
    });
  });
});
