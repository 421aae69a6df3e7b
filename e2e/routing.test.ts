import { describe, expect, it } from 'vitest';
import { LOGIN_ERROR_GENERIC, LOGIN_ERRORS } from '../src/shared/login-errors.ts';
import { waitForLiveForm } from './support/browser.ts';
import { e2eSuite } from './support/fixture.ts';

const e2e = e2eSuite({ shared: true });

describe('routing without a session', () => {
  it.each(['/', '/Home', '/Profile', '/topup', '/TopUp', '/Notifications'])(
    'protected route %s lands on /login',
    async (path) => {
      const page = await e2e.open(path);
      await page.waitForURL((url) => url.pathname === '/login');
      await page.getByRole('heading', { level: 1, name: 'Welcome back, Plucker' }).waitFor();
      expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
    },
  );

  it('matches routes whatever their letter case', async () => {
    const screens = [
      { path: '/gamerules', heading: 'How Pluckers games work' },
      { path: '/GAMERULES', heading: 'How Pluckers games work' },
      { path: '/LOGIN', heading: 'Welcome back, Plucker' },
    ];
    for (const { path, heading } of screens) {
      const page = await e2e.open(path);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      expect(new URL(page.url()).pathname).toBe(path);
    }
  });

  it('shows a not-found page for an unknown route, with a way back', async () => {
    const page = await e2e.open('/topup-now');
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor({
      state: 'attached',
    });
    await page.getByText("We couldn't find that page").waitFor();
    expect(new URL(page.url()).pathname).toBe('/topup-now');
    expect(await page.getByRole('link', { name: 'Go to Home' }).getAttribute('href')).toBe('/');
  });
});

describe('/login', () => {
  it('renders the form, the Google button and the links', async () => {
    const page = await e2e.open('/login');
    await page.getByRole('heading', { level: 1, name: 'Welcome back, Plucker' }).waitFor();
    expect(await page.getByLabel('Email').getAttribute('type')).toBe('email');
    expect(await page.getByLabel('Password').getAttribute('type')).toBe('password');
    expect(await page.getByRole('button', { name: 'Log in' }).isEnabled()).toBe(true);
    expect(
      await page.getByRole('link', { name: 'Continue with Google' }).getAttribute('href'),
    ).toBe('/api/v1/auth/google');
    expect(await page.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe(
      '/ForgotPassword',
    );
    expect(await page.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe(
      '/Signup',
    );
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('shows the text of the error code in a red banner', async () => {
    const page = await e2e.open('/login?error=google_cancelled');
    const banner = page.getByRole('alert');
    await banner.waitFor();
    expect(await banner.textContent()).toBe(LOGIN_ERRORS.google_cancelled);
    const colours = await banner.evaluate((element) => {
      const style = getComputedStyle(element);
      return { border: style.borderTopColor, background: style.backgroundColor };
    });
    // Red: the red channel clearly dominates green and blue in both.
    for (const colour of Object.values(colours)) {
      const [red = 0, green = 0, blue = 0] = (colour.match(/[\d.]+/g) ?? []).map(Number);
      expect(red, colour).toBeGreaterThan(green * 1.5);
      expect(red, colour).toBeGreaterThan(blue * 1.5);
    }
  });

  it('shows a fixed text for any other error parameter, never its words', async () => {
    const hostile = `<a href="https://evil.example">Verify here</a>\n${'Call 0803 123 4567 now. '.repeat(40)}`;
    const page = await e2e.open(`/login?error=${encodeURIComponent(hostile)}`);
    const banner = page.getByRole('alert');
    await banner.waitFor();
    expect(await banner.textContent()).toBe(LOGIN_ERROR_GENERIC);
    expect(await page.locator('body').textContent()).not.toContain('0803');
    expect(await banner.locator('a').count()).toBe(0);
  });

  it('checks empty fields in the browser without calling the server', async () => {
    const page = await e2e.open('/login');
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    await waitForLiveForm(page);
    const apiCalls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/')) apiCalls.push(request.url());
    });
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Enter your email address').waitFor();
    await page.getByText('Enter your password').waitFor();
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    expect(apiCalls).toEqual([]);
  });
});
