import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { totpCode } from '../src/server/modules/auth/totp.ts';
import { OPERATOR, OPERATOR_ENV } from './support/accounts.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { VIEWPORT_NAMES, VIEWPORTS, type ViewportName, waitForScreen } from './support/browser.ts';
import { e2eSuite } from './support/fixture.ts';

/**
 * The operator's second factor in a real browser: the console's first login sets up an
 * authenticator (QR code and key), shows the recovery codes, and later logins ask for the
 * app's code, at 390 and 1280 px.
 */
const e2e = e2eSuite({ env: () => OPERATOR_ENV });

/** Screenshots for review (gitignored). */
const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));

/** The login page with the operator's password, then the console. */
async function openConsole(viewport: ViewportName): Promise<Page> {
  const page = await e2e.open('/login', { viewport });
  await page.getByLabel('Email').fill(OPERATOR.email);
  await page.getByLabel('Password').fill(OPERATOR.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
  await page.goto(`${e2e.server.url}/admin`);
  return page;
}

async function check(page: Page, name: string, width: number) {
  await waitForScreen(page);
  await expectNoSeriousA11yViolations(page, `${name} at ${width} px`);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: `${ARTIFACTS}${name}-${width}.png`, fullPage: true });
}

describe('operator second factor', () => {
  it('sets up an authenticator at the first console login, then asks later logins for its code', async () => {
    // The set-up screen at 1280 px, left unconfirmed: the phone's visit starts it again.
    const wide = await openConsole('desktop');
    await wide.getByRole('heading', { name: 'Set up your authenticator app' }).waitFor();
    await wide.getByRole('img', { name: /QR code/ }).waitFor();
    await check(wide, 'operator-enrol', VIEWPORTS.desktop.width);

    const phone = await openConsole('mobile');
    await phone.getByRole('heading', { name: 'Set up your authenticator app' }).waitFor();
    await phone.getByRole('img', { name: /QR code/ }).waitFor();
    expect(await phone.getByText('Operator console').count()).toBe(0);
    await check(phone, 'operator-enrol', VIEWPORTS.mobile.width);
    const secret = ((await phone.getByTestId('setup-key').textContent()) ?? '').replace(/\s/g, '');
    const field = phone.getByLabel('Authenticator code');
    expect(await field.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await field.getAttribute('inputmode')).toBe('numeric');
    await field.fill(totpCode(secret, Date.now()));
    await phone.getByRole('button', { name: 'Confirm' }).click();

    await phone.getByRole('heading', { name: 'Save your recovery codes' }).waitFor();
    expect(
      await phone.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').count(),
    ).toBe(10);
    await check(phone, 'operator-recovery-codes', VIEWPORTS.mobile.width);
    await phone.setViewportSize(VIEWPORTS.desktop);
    await check(phone, 'operator-recovery-codes', VIEWPORTS.desktop.width);
    await phone.getByLabel('I have saved my recovery codes').check();
    await phone.getByRole('button', { name: 'Open the console' }).click();
    await phone.getByText('Operator console').waitFor();

    // Later logins: the code prompt, no QR code and no key.
    const prompts: Page[] = [];
    for (const viewport of VIEWPORT_NAMES) {
      const page = await openConsole(viewport);
      await page.getByRole('heading', { name: 'Enter your authenticator code' }).waitFor();
      expect(await page.getByTestId('setup-key').count()).toBe(0);
      await check(page, 'operator-code', VIEWPORTS[viewport].width);
      prompts.push(page);
    }
    const [prompt] = prompts;
    if (!prompt) throw new Error('no prompt');
    // The enrolment used this step's code: the phone's next one is accepted.
    await prompt.getByLabel('Authenticator code').fill(totpCode(secret, Date.now() + 30_000));
    await prompt.getByRole('button', { name: 'Open the console' }).click();
    await prompt.getByText('Operator console').waitFor();
  });
});
