import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { api, OPERATOR_ENV, operatorToken } from './support/accounts.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { VIEWPORTS, type ViewportName } from './support/browser.ts';
import { e2eSuite } from './support/fixture.ts';

/**
 * The "Verify your identity" flow on the Wallet page, on the identity sandbox: its
 * documented outage number first (a clear "try again later"), then its adult test identity
 * (tier 2), then a document for tier 3 which the operator approves in the console.
 */
const e2e = e2eSuite({ mail: true, env: () => OPERATOR_ENV });

const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));
// Each person verifies one account (a NIN and a BVN of the same name and date of birth are one
// person): one width checks the first sandbox adult's NIN, the other the second adult's BVN.
const TEST_IDENTITY = {
  mobile: {
    type: 'NIN',
    number: '70123456789',
    fullname: 'Ada Okafor',
    verifiedName: 'Ada Ngozi Okafor',
    born: '1990-05-14',
  },
  desktop: {
    type: 'BVN',
    number: '22000000026',
    fullname: 'Bola Adeyemi',
    verifiedName: 'Bola Funke Adeyemi',
    born: '1988-03-02',
  },
} as const;
const OUTAGE = { NIN: '70000000000', BVN: '22000000000' } as const;

async function shot(page: Page, name: string) {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
}

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
}

describe.each(['mobile', 'desktop'] as ViewportName[])(
  'Verify your identity at %s width',
  (viewport) => {
    const width = VIEWPORTS[viewport].width;

    it('tier 1 → tier 2 with a BVN/NIN, then a document to tier 3 approved by an operator', async () => {
      const { type, number, fullname, verifiedName, born } = TEST_IDENTITY[viewport];
      const player = await e2e.registerPlayer(`kyc${width}`, { fullname });
      const page = await e2e.open('/wallet', {
        viewport,
        authToken: player.token,
        // The refusals below are answers the page shows; Chromium logs their status too.
        allowConsoleErrors: [/status of 503/],
      });
      const card = page.getByRole('region', { name: 'Identity and limits' });
      await card.getByText('Tier 1').waitFor();
      await card.getByText('₦300,000').waitFor();
      await card.getByText('₦50,000', { exact: true }).waitFor();
      await expectNoSeriousA11yViolations(page, `/wallet (tier 1) at ${width} px`);
      await noSidewaysScroll(page);
      await shot(page, `kyc-wallet-tier1-${width}`);

      await card.getByRole('button', { name: 'Verify your identity' }).click();
      const dialog = page.getByRole('dialog', { name: 'Verify your identity' });
      await dialog.waitFor();
      await dialog.getByRole('radio', { name: type }).check();
      // The form's own checks first: nothing is sent.
      await dialog.getByRole('button', { name: 'Verify' }).click();
      await dialog.getByText('Enter your 11-digit BVN or NIN').waitFor();

      // The identity service is down: a clear answer, and the form stays to try again later.
      await dialog.getByLabel(/\((BVN|NIN)\)$/).fill(OUTAGE[type]);
      await dialog.getByLabel('Date of birth').fill(born);
      await dialog.getByRole('button', { name: 'Verify' }).click();
      await dialog
        .getByRole('alert')
        .getByText(
          'We could not reach the identity service. Nothing was saved: please try again later.',
        )
        .waitFor();
      await expectNoSeriousA11yViolations(page, `verify dialog (refused) at ${width} px`);
      await shot(page, `kyc-verify-dialog-${width}`);

      await dialog.getByLabel(/\((BVN|NIN)\)$/).fill(number);
      const answer = page.waitForResponse((response) => response.url().endsWith('/kyc/verify'));
      await dialog.getByRole('button', { name: 'Verify' }).click();
      const answered = await answer;
      expect(answered.status(), await answered.text()).toBe(200);
      const verified = page.getByRole('dialog', { name: 'Identity verified' });
      await verified.getByText(verifiedName).waitFor();
      await shot(page, `kyc-verified-${width}`);
      await verified.getByRole('button', { name: 'Done' }).click();

      await card.getByText('Tier 2').waitFor();
      await card.getByText('₦500,000').waitFor();
      await card.getByText('₦200,000', { exact: true }).waitFor();

      // Tier 3: a document for review.
      await card.getByRole('button', { name: 'Upload a document' }).click();
      const upload = page.getByRole('dialog', { name: 'Upload a document' });
      await upload.getByLabel('Document', { exact: true }).selectOption('passport');
      const png = await sharp({
        create: { width: 320, height: 200, channels: 3, background: { r: 30, g: 90, b: 160 } },
      })
        .png()
        .toBuffer();
      await upload
        .getByLabel('Photo or scan')
        .setInputFiles({ name: 'passport.png', mimeType: 'image/png', buffer: png });
      await expectNoSeriousA11yViolations(page, `upload dialog at ${width} px`);
      await upload.getByRole('button', { name: 'Send for review' }).click();
      await card.getByText('Your international passport is waiting for review.').waitFor();
      await expectNoSeriousA11yViolations(page, `/wallet (tier 2) at ${width} px`);
      await noSidewaysScroll(page);
      await shot(page, `kyc-wallet-tier2-${width}`);

      // The operator's console: the queue, the document, the approval.
      const operatorPage = await e2e.open('/admin/kyc', {
        viewport,
        authToken: await operatorToken(e2e.server.url),
      });
      const entry = operatorPage.getByRole('listitem').filter({ hasText: player.email });
      await entry.getByRole('button', { name: 'View document' }).click();
      const viewer = operatorPage.getByRole('dialog', {
        name: new RegExp(`International passport of ${fullname}`),
      });
      await viewer
        .getByRole('img', { name: `International passport uploaded by ${fullname}` })
        .waitFor();
      await expectNoSeriousA11yViolations(operatorPage, `/admin/kyc viewer at ${width} px`);
      await shot(operatorPage, `kyc-admin-viewer-${width}`);
      await viewer.getByRole('button', { name: 'Close' }).click();
      await entry.getByRole('button', { name: 'Approve (tier 3)' }).click();
      await operatorPage
        .getByRole('dialog', { name: 'Approve this document?' })
        .getByRole('button', { name: 'Approve' })
        .click();
      await operatorPage.getByText(`${fullname} is now tier 3`).waitFor();
      await expectNoSeriousA11yViolations(operatorPage, `/admin/kyc at ${width} px`);
      await noSidewaysScroll(operatorPage);
      await shot(operatorPage, `kyc-admin-${width}`);

      // The player's page in the console shows the checks and the document.
      await operatorPage.getByRole('tab', { name: 'Approved' }).click();
      await operatorPage
        .getByRole('listitem')
        .filter({ hasText: player.email })
        .getByRole('link', { name: fullname })
        .click();
      const kyc = operatorPage.getByRole('region', { name: 'Identity (KYC)' });
      await kyc.getByText(verifiedName).waitFor();
      await kyc.getByText(`${type} ending ${number.slice(-4)}`).waitFor();
      await expectNoSeriousA11yViolations(operatorPage, `/admin/users/:id at ${width} px`);
      await noSidewaysScroll(operatorPage);
      await shot(operatorPage, `kyc-admin-user-${width}`);

      const status = await api<{ data: { tier: number } }>(e2e.server.url, 'GET', '/kyc', {
        token: player.token,
      });
      expect(status.data.tier).toBe(3);
      const notifications = await api<{ data: { notifications: Array<{ title: string }> } }>(
        e2e.server.url,
        'GET',
        '/notification',
        { token: player.token },
      );
      expect(JSON.stringify(notifications)).toContain('Documents approved');
    });
  },
);

describe('tier caps in the console Settings', () => {
  it.each(['mobile', 'desktop'] as ViewportName[])(
    'at %s width: checked with the shared rules, saved, and what players are held to',
    async (viewport) => {
      const width = VIEWPORTS[viewport].width;
      const token = await operatorToken(e2e.server.url);
      const page = await e2e.open('/admin/settings', { viewport, authToken: token });
      const tier1 = page.getByLabel('Tier 1 balance cap (₦)');
      const tier2 = page.getByLabel('Tier 2 balance cap (₦)');
      await tier2.waitFor();
      // Whatever the other width saved: start from known values.
      await tier1.fill('300000');
      await tier2.fill('200000');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('The tier 2 balance cap must be at least the tier 1 one').waitFor();
      expect(await tier2.evaluate((input) => input === document.activeElement)).toBe(true);
      await expectNoSeriousA11yViolations(page, `/admin/settings (refused) at ${width} px`);
      await shot(page, `kyc-settings-${width}`);

      const cap = viewport === 'mobile' ? '250000' : '280000';
      await tier2.fill('500000');
      await tier1.fill(cap);
      await page.getByLabel('Tier 3 balance cap (₦)').fill('');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Settings saved').waitFor();
      await noSidewaysScroll(page);

      const saved = await api<{ data: { tier1BalanceCap: number; tier3BalanceCap: null } }>(
        e2e.server.url,
        'GET',
        '/admin/settings',
        { token },
      );
      expect(saved.data).toMatchObject({ tier1BalanceCap: Number(cap), tier3BalanceCap: null });
      const player = await e2e.registerPlayer(`caps${width}`);
      const status = await api<{ data: { tiers: Array<{ balanceCap: number | null }> } }>(
        e2e.server.url,
        'GET',
        '/kyc',
        { token: player.token },
      );
      expect(status.data.tiers.map((tier) => tier.balanceCap)).toEqual([
        Number(cap),
        500_000,
        null,
      ]);
    },
  );
});
