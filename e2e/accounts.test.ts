import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { waitForLiveForm } from './support/browser.ts';
import { e2eSuite } from './support/fixture.ts';

const e2e = e2eSuite({ mail: true });

const PASSWORD = 'correct-horse-42';
let counter = 0;

/** A fresh player: handle of [a-z0-9_], 3–20 characters, and a matching e-mail. */
function newPlayer() {
  counter += 1;
  const handle = `acc${Date.now().toString(36).slice(-6)}${counter}`;
  return {
    fullname: 'Ada Lovelace',
    handle,
    email: `${handle}@example.test`,
    phone: '0801 234 5678',
  };
}
type Player = ReturnType<typeof newPlayer>;

/** Fills every signup field (the age box included), leaving the submit to the caller. */
async function fillSignup(page: Page, player: Player, password = PASSWORD) {
  await page.getByLabel('Full name').fill(player.fullname);
  await page.getByLabel('Username').fill(player.handle);
  await page.getByLabel('Email').fill(player.email);
  await page.getByLabel('Phone number').fill(player.phone);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Re-enter password').fill(password);
  await page.getByRole('checkbox').check();
}

/** Signs up through the form without the Verify button; the server mails a link and a code. */
async function signUpUnverified(page: Page, player: Player) {
  await page.getByRole('heading', { level: 1, name: 'Create your account' }).waitFor();
  await fillSignup(page, player);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.waitForURL((url) => url.pathname === '/login');
}

async function logIn(page: Page, email: string, password: string) {
  await page.getByRole('heading', { level: 1, name: 'Welcome back, Plucker' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

const home = (page: Page) =>
  page.getByRole('heading', { name: 'FEED YOUR WALLET' }).waitFor({ state: 'visible' });

describe('signing up', () => {
  it('verifies the e-mail with the mailed code, then logs in and out', async () => {
    const player = newPlayer();
    const page = await e2e.open('/Signup', { viewport: 'desktop' });
    await page.getByRole('heading', { level: 1, name: 'Create your account' }).waitFor();
    await fillSignup(page, player);

    const verify = page.getByRole('button', { name: 'Verify', exact: true });
    // The button stands level with the e-mail input beside it: same height, same bottom.
    const [button, input] = await Promise.all([
      verify.boundingBox(),
      page.getByLabel('Email').boundingBox(),
    ]);
    expect(button?.height).toBe(input?.height);
    expect((button?.y ?? 0) + (button?.height ?? 0)).toBe((input?.y ?? 0) + (input?.height ?? 0));
    await verify.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`We sent a 6-digit code to ${player.email}`).waitFor();
    const codeMail = await e2e.mail.waitForMail(player.email);
    expect(codeMail.code).toMatch(/^\d{6}$/);
    await dialog.getByLabel('Verification code').fill(codeMail.code ?? '');
    await dialog.getByRole('button', { name: 'Verify code' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const verified = page.getByRole('button', { name: 'Verified', exact: true });
    await verified.waitFor();
    expect(await verified.isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await logIn(page, player.email, PASSWORD);
    await page.waitForURL((url) => url.pathname === '/');
    await home(page);
    expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeTruthy();

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('heading', { level: 1, name: 'Welcome back, Plucker' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
  });

  it('verifies by the mailed link, which signs the player in', async () => {
    const player = newPlayer();
    const page = await e2e.open('/Signup');
    await signUpUnverified(page, player);
    const linkMail = await e2e.mail.waitForMail(player.email);
    expect(linkMail.validateToken).toBeTruthy();

    await page.goto(`${e2e.server.url}/auth/validate/${linkMail.validateToken}`);
    await page.waitForURL((url) => url.pathname === '/');
    await home(page);
    expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeTruthy();
  });

  it('shows the validation messages in the order of docs/product.md#validation', async () => {
    const page = await e2e.open('/Signup');
    await page.getByRole('heading', { level: 1, name: 'Create your account' }).waitFor();
    await waitForLiveForm(page);
    const submit = page.getByRole('button', { name: 'Sign up' });
    const expectMessage = async (message: string) => {
      await submit.click();
      await page.getByText(message, { exact: true }).waitFor();
    };

    await expectMessage('Please enter a valid fullname');
    await page.getByLabel('Full name').fill('Ada Lovelace');
    await expectMessage('Enter your username');
    await page.getByLabel('Username').fill('ada_l');
    await expectMessage('Enter your email address');
    await page.getByLabel('Email').fill('ada@example.test');
    await expectMessage('Enter your phone number');
    await page.getByLabel('Phone number').fill('08012345678');
    await expectMessage('Enter your password');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await expectMessage('Retype your password');
    await page.getByLabel('Re-enter password').fill(`${PASSWORD}x`);
    await expectMessage('Passwords does not match');
    // Nothing reached the server: still on the form, no mail sent.
    expect(new URL(page.url()).pathname).toBe('/Signup');
    expect(e2e.mail.mailTo('ada@example.test')).toHaveLength(0);
  });
});

describe('logging in and passwords', () => {
  it('sends an unverified player to /verifyemail showing the e-mail', async () => {
    const player = newPlayer();
    const page = await e2e.open('/Signup', { allowConsoleErrors: [/\b403\b/] });
    await signUpUnverified(page, player);
    await logIn(page, player.email, PASSWORD);
    await page.waitForURL((url) => url.pathname === '/verifyemail');
    await page.getByRole('heading', { level: 1, name: 'Verify your e-mail' }).waitFor();
    await page.getByText(player.email, { exact: true }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
  });

  it('resets a forgotten password with the mailed code', async () => {
    const player = newPlayer();
    const page = await e2e.open('/Signup');
    await signUpUnverified(page, player);
    await e2e.mail.waitForMail(player.email); // the verification mail

    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { level: 1, name: 'Forgot your password?' }).waitFor();
    await page.getByLabel('Email').fill(player.email);
    await page.getByRole('button', { name: 'Send reset code' }).click();
    await page.waitForURL(
      (url) => url.pathname === '/resetpassword' && url.searchParams.get('email') === player.email,
    );
    const resetMail = await e2e.mail.waitForMail(player.email);
    expect(resetMail.code).toMatch(/^\d{6}$/);

    const newPassword = 'a-brand-new-secret-7';
    await page.getByLabel('Reset code').fill(resetMail.code ?? '');
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.waitForURL((url) => url.pathname === '/login');

    await logIn(page, player.email, newPassword);
    await page.waitForURL((url) => url.pathname === '/');
    await home(page);
  });
});

describe('profile', () => {
  it('uploads a new profile photo and shows it', async () => {
    const player = newPlayer();
    const page = await e2e.open('/Signup');
    await signUpUnverified(page, player);
    const linkMail = await e2e.mail.waitForMail(player.email);
    await page.goto(`${e2e.server.url}/auth/validate/${linkMail.validateToken}`);
    await page.waitForURL((url) => url.pathname === '/');
    await home(page);

    await page.goto(`${e2e.server.url}/Profile`);
    await page.getByRole('button', { name: 'Change photo' }).waitFor();
    expect(await page.locator('img[src*="/uploads/avatars/"]').count()).toBe(0);

    const png = await sharp({
      create: { width: 64, height: 64, channels: 3, background: { r: 0, g: 218, b: 228 } },
    })
      .png()
      .toBuffer();
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });

    // The navbar's avatar is hidden on a phone; the profile's own is shown.
    const photo = page.locator('img[src*="/uploads/avatars/"] >> visible=true').first();
    await photo.waitFor({ state: 'visible' });
    // The browser fetched and decoded the stored image.
    await expect
      .poll(() => photo.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
  });
});
