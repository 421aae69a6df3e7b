import { describe, expect, it } from 'vitest';
import { e2eSuite } from './support/fixture.ts';

const e2e = e2eSuite({ mail: true });

const TOP_UP_NAIRA = 5_000;

describe('upgrading to VIP', () => {
  it('tops up through the sandbox, subscribes and shows the verified badge', async () => {
    const handle = `vip${Date.now().toString(36).slice(-6)}`;
    const email = `${handle}@example.test`;

    // Register through the API; the mailed link verifies the account and signs the player in.
    const registered = await fetch(`${e2e.server.url}/api/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        fullname: 'Grace Hopper',
        username: handle,
        email,
        phoneNumber: '+2348012345678',
        password: 'correct-horse-42',
        confirmPassword: 'correct-horse-42',
        ageConfirmed: true,
      }),
    });
    expect(registered.status, await registered.clone().text()).toBe(201);
    const linkMail = await e2e.mail.waitForMail(email);
    expect(linkMail.validateToken).toBeTruthy();

    const page = await e2e.open(`/auth/validate/${linkMail.validateToken}`, {
      viewport: 'desktop',
    });
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: 'FEED YOUR WALLET' }).waitFor();

    // Top up: the API gives the sandbox checkout, opened in the same context (session kept).
    const topUp = await page.evaluate(async (amount) => {
      const response = await fetch('/api/v1/payment/transactpay', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${localStorage.getItem('authToken')}`,
        },
        body: JSON.stringify({ amount }),
      });
      return { status: response.status, body: await response.json() };
    }, TOP_UP_NAIRA);
    expect(topUp.status, JSON.stringify(topUp.body)).toBe(200);
    const paymentUrl: string = topUp.body.data.paymentUrl;
    expect(paymentUrl).toBeTruthy();

    await page.goto(new URL(paymentUrl, e2e.server.url).href);
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForURL((url) => url.pathname === '/PaymentStatus');
    await page.getByRole('heading', { level: 1, name: 'Payment Successful' }).waitFor();

    // Choose the plan on /Pricing and confirm it.
    await page.goto(`${e2e.server.url}/Pricing`);
    const choose = page.getByRole('link', { name: /^Upgrade to / }).first();
    await choose.click();
    await page.waitForURL((url) => /^\/UpgradeAccount\/[^/]+$/.test(url.pathname));
    await page.getByRole('heading', { level: 1, name: 'Confirm your plan' }).waitFor();
    await page.getByRole('button', { name: /and upgrade$/ }).click();

    await page.waitForURL((url) => url.pathname === '/UpgradeSuccessful');
    await page.getByRole('heading', { level: 1, name: 'You are Now Verified' }).waitFor();

    // The navigation shows the bare handle with the verified tick.
    const profileLink = page.getByRole('banner').getByRole('link', { name: new RegExp(handle) });
    await profileLink.first().waitFor();
    const navText = (await profileLink.first().textContent()) ?? '';
    expect(navText).toContain(handle);
    expect(navText).not.toContain(`plucker_${handle}`);
    await profileLink.first().getByRole('img', { name: 'Verified' }).waitFor();

    // A subscribed player opening /Pricing is sent home.
    await page.goto(`${e2e.server.url}/Pricing`);
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: 'FEED YOUR WALLET' }).waitFor();
  });
});
