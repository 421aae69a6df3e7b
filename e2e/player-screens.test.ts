/**
 * Player screens at a phone and a laptop width: the VIP welcome only for VIPs, Pricing's row
 * with one or two plans, the phone number as a Nigerian reads it, Check the draw landing on the
 * proof, and Back to a long list whose data comes back slowly. Each with axe and a screenshot.
 */
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatPhone } from '../src/shared/phone.ts';
import { api, OPERATOR_ENV, operatorToken, type Player } from './support/accounts.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { VIEWPORT_NAMES, VIEWPORTS, type ViewportName, waitForScreen } from './support/browser.ts';
import { e2eSuite } from './support/fixture.ts';
import { createGame, playUntilDrawn } from './support/games.ts';

const e2e = e2eSuite({ mail: true, env: () => ({ ...OPERATOR_ENV, JOB_POLL_MS: '250' }) });

let player: Player | undefined;
let operator: string | undefined;
beforeAll(async () => {
  [player, operator] = await Promise.all([
    e2e.registerPlayer('screens'),
    operatorToken(e2e.server.url),
  ]);
});

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the set-up did not make ${what}`);
  return value;
}

async function openAsPlayer(path: string, viewport: ViewportName): Promise<Page> {
  const page = await e2e.open(path, { authToken: need(player, 'a player').token, viewport });
  await waitForScreen(page);
  return page;
}

/**
 * What the player sees, in the page: the offset, and the element in the middle of the screen
 * with where its top is. Taps `link` afterwards when given, so nothing moves between the reading
 * and the tap.
 */
function placeOnScreen(link?: Element) {
  const element = document.elementFromPoint(window.innerWidth / 2, window.innerHeight / 2);
  const seen = element && {
    tag: element.tagName,
    text: (element.textContent ?? '').trim().slice(0, 80),
    top: Math.round(element.getBoundingClientRect().top),
  };
  const place = { y: Math.round(window.scrollY), seen };
  if (link instanceof HTMLElement) link.click();
  return place;
}

/** A screenshot to look at: e2e/artifacts/player-<name>-<width>.png (gitignored). */
async function shot(page: Page, name: string, viewport: ViewportName, fullPage = false) {
  await mkdir('e2e/artifacts', { recursive: true });
  const path = `e2e/artifacts/player-${name}-${VIEWPORTS[viewport].width}.png`;
  await page.screenshot({ path, fullPage });
}

/** The plan cards' left and right edges, and those of the row they sit in. */
async function planLayout(page: Page) {
  await page
    .getByRole('link', { name: /^Upgrade to / })
    .first()
    .waitFor();
  return page.evaluate(() => {
    const cards = [...document.querySelectorAll('article')].filter((card) =>
      card.querySelector('a[href^="/UpgradeAccount/"]'),
    );
    const section = document.querySelector('section[aria-labelledby="plans-title"]');
    if (!section) throw new Error('no plans section');
    const row = section.getBoundingClientRect();
    return {
      row: { left: row.left, right: row.right },
      cards: cards.map((card) => {
        const box = card.getBoundingClientRect();
        return { left: box.left, right: box.right, width: box.width };
      }),
    };
  });
}

let plans = 0;
/** Another active plan, made by the operator as the console makes one. */
async function createPlan(): Promise<void> {
  plans += 1;
  await api(e2e.server.url, 'POST', '/admin/plans', {
    token: need(operator, 'an operator session'),
    body: {
      planName: `Starter ${plans}`,
      amountPerDay: 100,
      features: {
        getVerifiedBadge: false,
        gamesPerDay: 10,
        tournamentAccess: false,
        earlyTournamentInvite: false,
        priorityLeaderboardPlacement: false,
        showAds: true,
      },
    },
  });
}

describe('Pricing and the VIP welcome', () => {
  it.each(VIEWPORT_NAMES)(
    'at %s width, a player without a plan opening /UpgradeSuccessful lands on Pricing, its one plan centred',
    async (viewport) => {
      const page = await e2e.open('/UpgradeSuccessful', {
        authToken: need(player, 'a player').token,
        viewport,
      });
      await page.waitForURL((url) => url.pathname === '/Pricing');
      await waitForScreen(page);
      expect(await page.getByText(/Welcome to VIP/).count()).toBe(0);

      const { row, cards } = await planLayout(page);
      expect(cards).toHaveLength(1);
      const [card] = cards;
      if (!card) throw new Error('no plan card');
      // The lone card sits in the middle of the row, not at its left with the rest empty.
      expect(Math.abs(card.left - row.left - (row.right - card.right))).toBeLessThan(2);
      expect(card.width).toBeGreaterThan(Math.min(340, row.right - row.left - 1));
      await expectNoSeriousA11yViolations(page);
      await shot(page, 'pricing-one-plan', viewport);
    },
  );

  it.each(VIEWPORT_NAMES)('at %s width, two plans share the row evenly', async (viewport) => {
    if (plans === 0) await createPlan();
    const page = await openAsPlayer('/Pricing', viewport);
    const { row, cards } = await planLayout(page);
    expect(cards).toHaveLength(2);
    const [first, second] = cards;
    if (!first || !second) throw new Error('two plan cards expected');
    expect(Math.abs(first.width - second.width)).toBeLessThan(2);
    const left = Math.min(first.left, second.left);
    const right = Math.max(first.right, second.right);
    expect(Math.abs(left - row.left - (row.right - right))).toBeLessThan(2);
    if (viewport === 'desktop') {
      // Side by side, the pair in the middle of the row.
      expect(first.left).not.toBe(second.left);
    }
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'pricing-two-plans', viewport);
  });
});

describe.each(VIEWPORT_NAMES)('at %s width', (viewport) => {
  it('Profile shows the phone number as a Nigerian reads it', async () => {
    const page = await openAsPlayer('/Profile', viewport);
    const me = await api<{ data: { phoneNumber: string } }>(e2e.server.url, 'GET', '/user', {
      token: need(player, 'a player').token,
    });
    expect(me.data.phoneNumber).toMatch(/^\+234\d{10}$/);
    const shown = formatPhone(me.data.phoneNumber);
    expect(shown).toMatch(/^0\d{3} \d{3} \d{4}$/);
    await page.getByText(shown, { exact: true }).waitFor();
    expect(await page.getByText(me.data.phoneNumber).count()).toBe(0);
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'profile', viewport);
  });

  it('Check the draw opens the game page at the proof, focused', async () => {
    const others = await Promise.all(
      [1, 2, 3, 4].map((n) => e2e.registerPlayer(`drawn${viewport}${n}`)),
    );
    const gameId = await createGame(e2e.server.url, need(operator, 'an operator session'), {
      title: `Check the draw ${viewport} ${Date.now().toString(36)}`,
      entryFee: 0,
    });
    await playUntilDrawn(e2e.server.url, gameId, [need(player, 'a player'), ...others]);

    const page = await openAsPlayer('/MySubmissions', viewport);
    const link = page.getByRole('link', { name: 'Check the draw' }).first();
    await link.click();
    await page.waitForURL((url) => url.pathname === '/GameDetails' && url.hash === '#fair-draw');
    const fairness = page.getByRole('region', { name: 'Fair draw' });
    await fairness.getByText(/^Winners \(/).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('fair-draw');
    // The proof's heading is on screen, below the sticky navigation, not hundreds of pixels down.
    const navigation = await page.getByRole('banner').boundingBox();
    const heading = await fairness.getByRole('heading', { name: 'Fair draw' }).boundingBox();
    if (!navigation || !heading) throw new Error('no navigation or proof heading');
    expect(heading.y).toBeGreaterThanOrEqual(navigation.y + navigation.height);
    expect(heading.y).toBeLessThan(VIEWPORTS[viewport].height / 3);
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'check-the-draw', viewport);
  });
});

describe('Back to a long list', () => {
  beforeAll(async () => {
    // Enough games for Home to be many screens long on a phone.
    for (let n = 1; n <= 12; n += 1) {
      await createGame(e2e.server.url, need(operator, 'an operator session'), {
        title: `Long list game ${n} ${Date.now().toString(36)}`,
        entryFee: 0,
      });
    }
  });

  it.each(VIEWPORT_NAMES)(
    'at %s width, the place is restored once the list has come back, however slowly',
    async (viewport) => {
      const page = await openAsPlayer('/Home', viewport);
      await page.getByRole('article').nth(8).waitFor();
      await page.clock.install();
      await page.evaluate(() =>
        window.scrollTo(0, document.documentElement.scrollHeight - window.innerHeight - 400),
      );
      // A tap where the list stands (a click would first scroll the footer link into view); the
      // place is read at that moment, after any layout the scroll brought: the offset, and what
      // is in the middle of the screen.
      const left = await page
        .getByRole('navigation', { name: 'Footer' })
        .getByRole('link', { name: 'Top up' })
        .evaluate(placeOnScreen);
      expect(left.y).toBeGreaterThan(VIEWPORTS[viewport].height);
      await page.waitForURL((url) => url.pathname === '/TopUp');
      await waitForScreen(page);
      // Long enough on the page for the list's saved copy to be dropped (TanStack's five
      // minutes), and a slow connection: on Back the list is held until the page's clock has
      // gone eleven seconds on, longer than a restore keeps trying once the data is in.
      await page.clock.fastForward('06:00');
      let listAsked = () => {};
      const asked = new Promise<void>((resolve) => {
        listAsked = resolve;
      });
      let releaseList = () => {};
      const released = new Promise<void>((resolve) => {
        releaseList = resolve;
      });
      await page.route(
        (url) => url.pathname === '/api/v1/game',
        async (route) => {
          listAsked();
          await released;
          await route.continue();
        },
      );

      await page.goBack();
      await page.waitForURL((url) => url.pathname === '/Home');
      await asked;
      await page.clock.fastForward('00:11');
      releaseList();
      await page.getByRole('article').nth(8).waitFor();
      // The same thing in the middle of the screen, where it was (scrolling moves by whole
      // pixels). Not the same offset: cards off screen are laid out at an estimated height until
      // they come near, so the pixels above what the player sees can differ.
      const seen = need(left.seen ?? undefined, 'what was on screen');
      await expect
        .poll(
          async () => {
            const back = (await page.evaluate(placeOnScreen, undefined)).seen;
            return back && { ...back, top: Math.abs(back.top - seen.top) <= 2 || back.top };
          },
          { timeout: 10_000 },
        )
        .toEqual({ ...seen, top: true });
      await shot(page, 'back-to-list', viewport);
    },
  );
});
