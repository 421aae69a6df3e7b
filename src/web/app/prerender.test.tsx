import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { PRERENDERED_PAGES } from '@shared/prerendered-pages.ts';
import { act, screen, waitFor } from '@testing-library/react';
import { setSettings, setUser } from '@web/lib/session.ts';
import { StrictMode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../test/server.ts';
import { setPageUrl } from '../test/browser.ts';
import { App } from './App.tsx';

/**
 * The build's prerender and the browser's hydration of it: React adopts the HTML as
 * it is (the same heading element stays, no mismatch: a hydration error or warning goes to
 * console.error, which fails the test), then the page carries on as usual. The pages are
 * rendered as the build renders them, by scripts/prerender-web.ts in a Node process of its own
 * (no window, and not a second React renderer in this one).
 */
const server = testServerPerFile();
let root: Root | null = null;
let pages: Record<string, string> = {};

beforeAll(async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'scripts/prerender-web.ts'],
    { cwd: path.resolve(import.meta.dirname, '../../..'), maxBuffer: 64 * 1024 * 1024 },
  );
  pages = JSON.parse(stdout) as Record<string, string>;
}, 120_000);

function renderPage(path: string): string {
  const html = pages[path];
  if (html === undefined) throw new Error(`${path} was not prerendered`);
  return html;
}

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
  setUser(null);
  setSettings(null);
});

async function hydrate(path: string): Promise<HTMLElement> {
  setPageUrl(`${server().origin}${path}`);
  const html = renderPage(path);
  document.body.innerHTML = `<div id="root">${html}</div>`;
  const element = document.getElementById('root') as HTMLElement;
  await act(async () => {
    root = hydrateRoot(
      element,
      <StrictMode>
        <App hydrating />
      </StrictMode>,
    );
  });
  return element;
}

const HEADINGS: Record<string, string> = {
  '/login': 'Welcome back, Plucker',
  '/Signup': 'Create your account',
  '/ForgotPassword': 'Forgot your password?',
  '/Terms': 'The rules of the house',
  '/Privacy': 'Your data, kept to what we need',
  '/GameRules': 'How Pluckers games work',
  '/SupportCenter': 'How can we help?',
};

describe('prerendered public pages', () => {
  for (const page of PRERENDERED_PAGES.filter((candidate) => !candidate.shell)) {
    it(`${page.path}: the HTML shows the page and hydrates as it is`, async () => {
      const html = renderPage(page.path);
      expect(html).toMatch(/<h1[^>]*>/);
      expect(html).not.toContain('Loading');

      const element = await hydrate(page.path);
      const heading = element.querySelector('h1');
      expect(heading?.textContent).toBe(HEADINGS[page.path]);
      // The code of the screen arrives; the heading React adopted is still the one from the HTML.
      await waitFor(() => expect(screen.getAllByRole('link').length).toBeGreaterThan(0));
      await act(() => new Promise((resolve) => setTimeout(resolve, 200)));
      expect(element.querySelector('h1')).toBe(heading);
    });
  }
});

describe('the prerendered signed-in shell', () => {
  it('shows navigation, hero, tabs and the games loading, then the player, without a mismatch', async () => {
    const user = await server().createUser();
    localStorage.setItem('authToken', await server().tokenFor(user));

    const html = renderPage('/Home');
    for (const text of ['aria-label="Main"', 'id="hero-title"', 'role="tablist"', 'Loading']) {
      expect(html).toContain(text);
    }
    // Nothing about the player: the server cannot know who it is.
    expect(html).not.toContain('Balance');

    const element = await hydrate('/Home');
    const hero = element.querySelector('#hero-title');
    expect(hero).not.toBeNull();
    expect(
      await screen.findByRole('link', { name: /^Balance ₦/ }, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(element.querySelector('#hero-title')).toBe(hero);
  });
});
