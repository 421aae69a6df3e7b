/**
 * What a first-time player trips over, each reproduced in Debian Chromium at a phone
 * and a laptop width before it was fixed.
 */
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatDate } from '../src/shared/date.ts';
import {
  api,
  balanceOf,
  OPERATOR_ENV,
  operatorToken,
  PLAYER_PASSWORD,
  type Player,
  playerPhone,
  topUpThroughSandbox,
} from './support/accounts.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { VIEWPORT_NAMES, type ViewportName, waitForScreen } from './support/browser.ts';
import { e2eSuite } from './support/fixture.ts';
import { createGame as createGameAs, playUntilDrawn } from './support/games.ts';

const e2e = e2eSuite({ mail: true, env: () => ({ ...OPERATOR_ENV, JOB_POLL_MS: '250' }) });

let player: Player | undefined;
let admin: string | undefined;
beforeAll(async () => {
  player = await e2e.registerPlayer('newbie');
  admin = await operatorToken(e2e.server.url);
});

let games = 0;
/** A game made by the operator through the API; its id. */
async function createGame(body: Record<string, unknown>): Promise<string> {
  games += 1;
  return createGameAs(e2e.server.url, need(admin, 'an operator session'), {
    title: `Newcomer game ${games} ${Date.now().toString(36)}`,
    ...body,
  });
}

const newPlayer = (name: string): Promise<Player> => e2e.registerPlayer(name);

/** `path` as the file's first player sees it at `viewport`, once the screen has rendered. */
async function openAsPlayer(path: string, viewport: ViewportName): Promise<Page> {
  const page = await e2e.open(path, { authToken: need(player, 'a player').token, viewport });
  await waitForScreen(page);
  return page;
}

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the set-up did not make ${what}`);
  return value;
}

/** A screenshot to look at: e2e/artifacts/first-time-player-<name>.png (gitignored). */
async function shot(page: Page, name: string): Promise<void> {
  await mkdir('e2e/artifacts', { recursive: true });
  await page.screenshot({ path: `e2e/artifacts/first-time-player-${name}.png` });
}

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

/**
 * Scrolls to the end as a player does, with a key: a scroll by script is not the player's, so a
 * Forward's restore that has not finished yet would put the page back where it was.
 */
async function scrollToBottom(page: Page): Promise<number> {
  await page.keyboard.press('End');
  // Until two reads agree: the browser may animate a scroll by key.
  let last = -1;
  await expect
    .poll(async () => {
      const [previous, now] = [last, await scrollY(page)];
      last = now;
      return now > 0 && now === previous;
    })
    .toBe(true);
  return last;
}

describe.each(VIEWPORT_NAMES)('scroll position at %s width', (viewport) => {
  it('a new screen opens at the top and Back returns to where the player was', async () => {
    const page = await openAsPlayer('/Home', viewport);
    await page.getByRole('article').first().waitFor();
    const homeScroll = await scrollToBottom(page);
    expect(homeScroll).toBeGreaterThan(300);

    await page
      .getByRole('navigation', { name: 'Footer' })
      .getByRole('link', { name: 'Top up' })
      .click();
    await page.waitForURL((url) => url.pathname === '/TopUp');
    await waitForScreen(page);
    expect(await scrollY(page)).toBe(0);

    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/Home');
    await page.getByRole('article').first().waitFor();
    // Within a few pixels: cards far off screen are laid out at an estimated height
    // (content-visibility) until they come near, so the page can be a little shorter.
    await expect.poll(async () => Math.abs((await scrollY(page)) - homeScroll)).toBeLessThan(80);

    // The same from a scrolled Top up page to Pricing, through the footer.
    await page.goForward();
    await page.waitForURL((url) => url.pathname === '/TopUp');
    await expect.poll(() => scrollY(page)).toBe(0);
    await scrollToBottom(page);
    await page
      .getByRole('navigation', { name: 'Footer' })
      .getByRole('link', { name: 'Pricing' })
      .click();
    await page.waitForURL((url) => url.pathname === '/Pricing');
    await waitForScreen(page);
    expect(await scrollY(page)).toBe(0);
  });
});

describe('offline', () => {
  it("an answer sent offline comes back to the form with the spec's message and is never sent later", async () => {
    const gameId = await createGame({ entryFee: 100 });
    const payer = await newPlayer('offline');
    await topUpThroughSandbox(e2e.server.url, payer.token, 1000);
    const page = await e2e.open(`/GameDetails?id=${gameId}`, {
      authToken: payer.token,
      allowConsoleErrors: [/ERR_INTERNET_DISCONNECTED|Failed to load resource/],
    });
    await waitForScreen(page);
    await page.getByRole('button', { name: 'Submit Your Answer' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Your answer').fill('Sent from a bus with no signal');

    await page.context().setOffline(true);
    const started = Date.now();
    await dialog.getByRole('button', { name: 'Submit', exact: true }).click();
    await page
      .getByText('Something went wrong playing game, please try again', { exact: true })
      .waitFor({ timeout: 21_000 });
    await dialog.getByLabel('Your answer').waitFor();
    await shot(page, 'offline-answer');
    expect(Date.now() - started).toBeLessThan(20_500);
    expect(await dialog.getByLabel('Your answer').inputValue()).toBe(
      'Sent from a bus with no signal',
    );

    // Back online: nothing goes out by itself and nothing is charged.
    await page.context().setOffline(false);
    await page.waitForTimeout(3_000);
    expect(await balanceOf(e2e.server.url, payer.token)).toBe(1000);
    const played = await api<{ data: unknown[] }>(e2e.server.url, 'GET', '/game/played', {
      token: payer.token,
    });
    expect(played.data).toHaveLength(0);
  });

  it.each(VIEWPORT_NAMES)(
    'a list opened offline says so with Retry instead of spinning (%s)',
    async (viewport) => {
      const page = await e2e.open('/Home', {
        authToken: need(player, 'a player').token,
        viewport,
        allowConsoleErrors: [/ERR_INTERNET_DISCONNECTED|Failed to load resource/],
      });
      await waitForScreen(page);
      await page.getByRole('article').first().waitFor();
      await page.context().setOffline(true);
      await page.getByRole('tab', { name: 'Highest Payouts' }).click();
      const offline = page.getByText("You're offline", { exact: true });
      await offline.waitFor({ timeout: 3_000 });
      await shot(page, `offline-${viewport}`);
      await expectNoSeriousA11yViolations(page, `offline ${viewport}`);

      // Retry while still offline says so; back online, the list loads by itself.
      await page.getByRole('button', { name: 'Retry' }).click();
      await page.getByText('Still offline.', { exact: false }).waitFor();
      await page.context().setOffline(false);
      await page.getByRole('tabpanel').getByRole('article').first().waitFor();
      expect(await offline.count()).toBe(0);
    },
  );
});

describe.each(VIEWPORT_NAMES)('games a player cannot enter yet, at %s width', (viewport) => {
  it('a paid game says what the wallet lacks before any typing and offers that top-up', async () => {
    const gameId = await createGame({ entryFee: 500 });
    const page = await openAsPlayer(`/GameDetails?id=${gameId}`, viewport);
    const submit = page.getByRole('button', { name: 'Submit Your Answer' });
    await submit.waitFor();
    expect(await submit.isDisabled()).toBe(true);
    const why = page.getByText('This game needs ₦500 and your wallet has ₦0.');
    await why.waitFor();
    expect(await submit.getAttribute('aria-describedby')).toBe(await why.getAttribute('id'));
    await shot(page, `needs-top-up-${viewport}`);
    await expectNoSeriousA11yViolations(page, `needs top-up ${viewport}`);

    await page.getByRole('link', { name: 'Top up ₦500' }).click();
    await page.waitForURL((url) => url.pathname === '/TopUp');
    await waitForScreen(page);
    expect(await page.getByLabel('Amount (₦)').inputValue()).toBe('500');
  });

  it('a tournament says it is part of VIP and offers Go VIP', async () => {
    const gameId = await createGame({ isTournament: true });
    const page = await openAsPlayer(`/GameDetails?id=${gameId}`, viewport);
    const submit = page.getByRole('button', { name: 'Submit Your Answer' });
    await submit.waitFor();
    expect(await submit.isDisabled()).toBe(true);
    await page.getByText('Tournaments are part of VIP.').waitFor();
    await shot(page, `needs-vip-${viewport}`);
    await page.getByRole('link', { name: 'Go VIP' }).last().click();
    await page.waitForURL((url) => url.pathname === '/Pricing');
  });
});

describe.each(VIEWPORT_NAMES)('/verifyemail at %s width', (viewport) => {
  it('Resend waits out a countdown with the button disabled, and speaks of a link', async () => {
    const handle = `unverified_${Date.now().toString(36).slice(-6)}${viewport[0]}`;
    const email = `${handle}@players.test`;
    await api(e2e.server.url, 'POST', '/auth/register', {
      body: {
        fullname: 'Unverified Tester',
        username: handle,
        email,
        phoneNumber: playerPhone(),
        password: PLAYER_PASSWORD,
        confirmPassword: PLAYER_PASSWORD,
        ageConfirmed: true,
      },
    });
    const page = await e2e.open('/login', { viewport, allowConsoleErrors: [/403/] });
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PLAYER_PASSWORD);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/verifyemail');
    await waitForScreen(page);

    const resend = page.getByRole('button', { name: 'Resend Verification Link' });
    await resend.click();
    const sent = page.getByText('we have sent a new link', { exact: false }).first();
    await sent.waitFor();
    const wait = page.getByText(/You can ask for another link in 0:[0-5]\d\./);
    await wait.waitFor();
    expect(await resend.isDisabled()).toBe(true);
    expect(await resend.getAttribute('aria-describedby')).toBe(await wait.getAttribute('id'));
    // The page also takes the mail's code; what Resend answers speaks of the link it sends.
    for (const answer of [sent, wait]) expect(await answer.textContent()).not.toMatch(/\bcode\b/i);
    await shot(page, `verify-email-${viewport}`);
    await expectNoSeriousA11yViolations(page, `verify e-mail ${viewport}`);

    // The wait survives a reload (sessionStorage), then the button comes back.
    await page.clock.install();
    await page.reload();
    await page.getByText(/You can ask for another link in 0:[0-5]\d\./).waitFor();
    expect(await resend.isDisabled()).toBe(true);
    await page.clock.fastForward(61_000);
    await expect.poll(() => resend.isDisabled()).toBe(false);
  });
});

describe('dates', () => {
  it('a notification written by the server shows its date like every other date (en-GB, Lagos)', async () => {
    const vip = await newPlayer('vipdates');
    await topUpThroughSandbox(e2e.server.url, vip.token, 20_000);
    const plans = await api<{ data: { id: string }[] }>(e2e.server.url, 'GET', '/plan', {
      token: vip.token,
    });
    const plan = need(plans.data[0], 'a plan');
    await api(e2e.server.url, 'POST', `/plan/subscribe/${plan.id}`, { token: vip.token });

    for (const viewport of VIEWPORT_NAMES) {
      const page = await e2e.open('/Notifications', { authToken: vip.token, viewport });
      await waitForScreen(page);
      const message = page.getByText(/plan is active until/);
      await message.waitFor();
      const text = (await message.textContent()) ?? '';
      // e.g. "… active until 02 Dec 2026, 5:51 pm."
      expect(text).toMatch(/until \d{2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2} [ap]m\./);
      expect(text).not.toMatch(/(Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} \d{2} \d{4}/);
      await shot(page, `notification-date-${viewport}`);
    }
  });
});

/** Players of a drawn game (on the leaderboard), filled in by 'after the draw'. */
const rankedPlayers: Player[] = [];
let drawnGameId: string | undefined;

describe('after the draw', () => {
  let finished: { gameId: string; players: Player[]; winners: string[] } | undefined;
  beforeAll(async () => {
    const gameId = await createGame({ entryFee: 0, maximumPlayers: 5 });
    const players = await Promise.all(
      Array.from({ length: 5 }, (_, index) => newPlayer(`drawn${index}`)),
    );
    const winners = await playUntilDrawn(e2e.server.url, gameId, players);
    finished = { gameId, players, winners };
    rankedPlayers.push(...players);
    drawnGameId = gameId;
  });

  it.each(VIEWPORT_NAMES)(
    'a free game shows Free, and its page is about the result and the proof (%s)',
    async (viewport) => {
      const { gameId, players, winners } = need(finished, 'a finished game');
      const loser = need(
        players.find((one) => !winners.includes(one.username)),
        'a player who was not picked',
      );
      const page = await e2e.open(`/GameDetails?id=${gameId}`, {
        authToken: loser.token,
        viewport,
      });
      await waitForScreen(page);
      const fee = page
        .getByRole('definition')
        .filter({ hasText: /Free|₦0/ })
        .first();
      await fee.waitFor();
      expect(await fee.textContent()).not.toMatch(/₦0|Paid/i);
      await page.getByText('Not picked this time', { exact: false }).waitFor();
      // The main action is the proof; the spec's View game status stays, second.
      const main = page.getByRole('link', { name: 'Check the proof' });
      await main.waitFor();
      await page.getByRole('link', { name: 'View game status' }).waitFor();
      await main.click();
      await expect
        .poll(() =>
          page.evaluate(() => {
            const box = document.getElementById('fair-draw')?.getBoundingClientRect();
            return box ? box.top >= -1 && box.top < window.innerHeight : false;
          }),
        )
        .toBe(true);
      await page.getByText('Verified: the draw matches.').waitFor();
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, `finished-game-${viewport}`);
      await expectNoSeriousA11yViolations(page, `finished game ${viewport}`);

      await page.goto(`${e2e.server.url}/MySubmissions`);
      const card = page.getByRole('article').first();
      await card.waitFor();
      expect(await card.textContent()).not.toMatch(/₦0/);
      await card.getByText('Free', { exact: true }).waitFor();
      await shot(page, `submission-free-${viewport}`);
    },
  );
});

/** The colour a button is painted with, and whether it looks like the enabled accent button. */
async function looksEnabled(page: Page, name: string): Promise<boolean> {
  return page.getByRole('button', { name, exact: true }).evaluate((button) => {
    const style = getComputedStyle(button);
    return style.backgroundColor === 'rgb(0, 218, 228)' && Number(style.opacity) > 0.5;
  });
}

async function describedBy(page: Page, name: string): Promise<string> {
  const ids = await page
    .getByRole('button', { name, exact: true })
    .getAttribute('aria-describedby');
  if (!ids) return '';
  const texts = await Promise.all(
    ids.split(' ').map((id) => page.locator(`[id="${id}"]`).textContent()),
  );
  return texts.join(' ');
}

describe.each(VIEWPORT_NAMES)('disabled buttons at %s width', (viewport) => {
  it('look disabled and say why: an empty or 21-word answer, a game not open yet', async () => {
    const openGame = await createGame({ entryFee: 0 });
    const page = await openAsPlayer(`/GameDetails?id=${openGame}`, viewport);
    expect(await looksEnabled(page, 'Submit Your Answer')).toBe(true);
    await page.getByRole('button', { name: 'Submit Your Answer' }).click();
    const dialog = page.getByRole('dialog');
    const submit = dialog.getByRole('button', { name: 'Submit', exact: true });
    await submit.waitFor();
    expect(await submit.isDisabled()).toBe(true);
    await expect.poll(() => looksEnabled(page, 'Submit')).toBe(false);
    expect(await describedBy(page, 'Submit')).toContain('Type your answer to submit.');
    // What Submit takes from the wallet is read out with it: here, nothing.
    expect(await describedBy(page, 'Submit')).toContain(
      'This game is free: submitting takes nothing from your wallet.',
    );
    await shot(page, `disabled-empty-answer-${viewport}`);

    await dialog
      .getByLabel('Your answer')
      .fill(Array.from({ length: 21 }, (_, index) => `word${index}`).join(' '));
    expect(await submit.isDisabled()).toBe(true);
    expect(await describedBy(page, 'Submit')).toContain('Too many words');
    await dialog.getByLabel('Your answer').fill('Just right');
    expect(await submit.isDisabled()).toBe(false);
    // Colours change with a short transition.
    await expect.poll(() => looksEnabled(page, 'Submit')).toBe(true);

    const later = await createGame({
      entryFee: 0,
      startsAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    await page.goto(`${e2e.server.url}/GameDetails?id=${later}`);
    await waitForScreen(page);
    const upcoming = page.getByRole('button', { name: 'Submit Your Answer' });
    await upcoming.waitFor();
    expect(await upcoming.isDisabled()).toBe(true);
    await expect.poll(() => looksEnabled(page, 'Submit Your Answer')).toBe(false);
    expect(await describedBy(page, 'Submit Your Answer')).toMatch(/^This game opens on /);
    await shot(page, `disabled-upcoming-${viewport}`);
    await expectNoSeriousA11yViolations(page, `upcoming game ${viewport}`);
  });
});

async function logInThroughForm(page: Page, who: Player): Promise<void> {
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(PLAYER_PASSWORD);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
}

describe.each(VIEWPORT_NAMES)('after logging in, at %s width', (viewport) => {
  it('goes back to the page that was asked for', async () => {
    const who = need(player, 'a player');
    const page = await e2e.open('/Notifications?page=1', { viewport });
    await page.waitForURL((url) => url.pathname === '/login');
    await logInThroughForm(page, who);
    await page.waitForURL((url) => url.pathname === '/Notifications' && url.search === '?page=1');
    await waitForScreen(page);
  });

  it('goes back to the page whose call got a 401 (an expired session)', async () => {
    const who = need(player, 'a player');
    const page = await e2e.open('/MySubmissions', {
      viewport,
      authToken: 'expired.token.value',
      allowConsoleErrors: [/401/],
    });
    await page.waitForURL((url) => url.pathname === '/login');
    await logInThroughForm(page, who);
    await page.waitForURL((url) => url.pathname === '/MySubmissions');
    await waitForScreen(page);
  });

  it('never leaves the site, whatever the address asks for', async () => {
    const who = need(player, 'a player');
    for (const next of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
    ]) {
      const page = await e2e.open(`/login?next=${encodeURIComponent(next)}`, { viewport });
      await waitForScreen(page);
      await logInThroughForm(page, who);
      await page.waitForURL((url) => url.pathname === '/' || url.pathname === '/Home');
      expect(new URL(page.url()).origin).toBe(e2e.server.url);
      await page.close();
    }
  });
});

describe('small mismatches', () => {
  it('the balance chart draws a ₦2,500 top-up at ₦2,500, then the game entry, from the ledger', async () => {
    const payer = await newPlayer('chart');
    await topUpThroughSandbox(e2e.server.url, payer.token, 2_500);
    const gameId = await createGame({ entryFee: 50 });
    await api(e2e.server.url, 'POST', '/game/play', {
      token: payer.token,
      body: { gameID: gameId, submittedAnswer: 'A quick one' },
    });
    for (const viewport of VIEWPORT_NAMES) {
      const page = await e2e.open('/wallet', { authToken: payer.token, viewport });
      await waitForScreen(page);
      const chart = page.getByRole('figure');
      await chart.locator('circle').first().waitFor();
      const titles = await chart.locator('circle title').allTextContents();
      expect(titles).toEqual([
        'Balance before: ₦0',
        expect.stringMatching(/^Top-up \+₦2,500, balance ₦2,500, /),
        expect.stringMatching(/^Game entry -₦50, balance ₦2,450, /),
      ]);
      await chart.getByText('The line ends at your balance now', { exact: false }).waitFor();
      await chart.scrollIntoViewIfNeeded();
      await shot(page, `balance-chart-${viewport}`);
    }
  });

  it.each(VIEWPORT_NAMES)(
    "the hub's Live tournaments holds no upcoming card (%s)",
    async (viewport) => {
      const title = `Later cup ${Date.now().toString(36)}`;
      await api(e2e.server.url, 'POST', '/admin/games', {
        token: admin,
        body: {
          title,
          reward: 500,
          maximumPlayers: 5,
          isTournament: true,
          startsAt: new Date(Date.now() + 86_400_000).toISOString(),
        },
      });
      const page = await openAsPlayer('/Tournament', viewport);
      const card = page.getByRole('article', { name: title });
      await card.waitFor();
      const section = await card.evaluate(
        (element) => element.closest('section')?.querySelector('h2, h3')?.textContent ?? '',
      );
      expect(section).toBe('Starting soon');
      await card.scrollIntoViewIfNeeded();
      await shot(page, `tournament-hub-${viewport}`);
    },
  );

  it('Pricing offers no USSD top-up, which the Top up page does not have', async () => {
    const page = await e2e.open('/Pricing', { authToken: need(player, 'a player').token });
    await waitForScreen(page);
    await page.getByText('Top up your wallet').first().waitFor();
    expect(await page.locator('main').textContent()).not.toMatch(/USSD/i);
  });

  it('every Pricing question opens on a press and wears the same + marker', async () => {
    const page = await e2e.open('/Pricing', { authToken: need(player, 'a player').token });
    await waitForScreen(page);
    const questions = page.locator('main details');
    const count = await questions.count();
    expect(count).toBeGreaterThan(5);
    for (let index = 0; index < count; index += 1) {
      const question = questions.nth(index);
      const summary = question.locator('summary');
      expect(await summary.locator('[aria-hidden="true"]').last().textContent()).toBe('+');
      // A list-item summary would draw the browser's own triangle beside the +.
      expect(await summary.evaluate((element) => getComputedStyle(element).display)).toBe('flex');
      const isOpen = () => question.evaluate((element) => (element as HTMLDetailsElement).open);
      const before = await isOpen();
      await summary.click();
      expect(await isOpen()).toBe(!before);
    }
  });

  it('the 1280 px navigation shows the whole username', async () => {
    const long = await newPlayer('abcdefghijklm');
    const page = await e2e.open('/Home', { authToken: long.token, viewport: 'desktop' });
    await waitForScreen(page);
    const name = page.getByRole('banner').getByText(long.username, { exact: true });
    await name.waitFor();
    const clipped = await name.evaluate((element) => element.scrollWidth > element.clientWidth);
    expect(clipped).toBe(false);
    await shot(page, 'navbar-desktop');
    // Nothing in the bar overflows it either.
    const overflow = await page
      .getByRole('banner')
      .evaluate((bar) => bar.scrollWidth > bar.clientWidth);
    expect(overflow).toBe(false);
  });
});

describe('beyond the spec', () => {
  it.each(VIEWPORT_NAMES)(
    'a pending answer says how full the game is and when the draw runs (%s)',
    async (viewport) => {
      const endsAt = new Date(Date.now() + 2 * 86_400_000);
      const gameId = await createGame({ entryFee: 0, endsAt: endsAt.toISOString() });
      const others = await Promise.all([newPlayer('filler0'), newPlayer('filler1')]);
      const who = await newPlayer('pending');
      for (const one of [...others, who]) {
        await api(e2e.server.url, 'POST', '/game/play', {
          token: one.token,
          body: { gameID: gameId, submittedAnswer: 'Waiting for the draw' },
        });
      }
      const expected = `3 of 5 places filled — the draw runs when the game is full or at ${formatDate(endsAt)}.`;
      const page = await e2e.open('/MySubmissions', { authToken: who.token, viewport });
      await waitForScreen(page);
      await page.getByRole('article').first().getByText(expected).waitFor();
      await shot(page, `pending-submission-${viewport}`);
      await expectNoSeriousA11yViolations(page, `pending submission ${viewport}`);

      await page.goto(`${e2e.server.url}/GameDetails?id=${gameId}`);
      await waitForScreen(page);
      await page.getByText(expected).waitFor();
    },
  );
});

describe.each(VIEWPORT_NAMES)('notifications at %s width', (viewport) => {
  it('open the game or the wallet they are about', async () => {
    const drawn = need(rankedPlayers[0], 'a player of a drawn game');
    await topUpThroughSandbox(e2e.server.url, drawn.token, 1_000);
    const page = await e2e.open('/Notifications', { authToken: drawn.token, viewport });
    await waitForScreen(page);
    const result = page.getByRole('listitem').filter({ hasText: /Results are in|You won!/ });
    await result.getByRole('link', { name: 'Open the game' }).click();
    await page.waitForURL((url) => url.pathname === '/GameDetails');
    expect(new URL(page.url()).searchParams.get('id')).toBe(need(drawnGameId, 'the drawn game'));
    await waitForScreen(page);

    await page.goBack();
    await waitForScreen(page);
    const topUp = page.getByRole('listitem').filter({ hasText: 'Top-up successful' });
    await shot(page, `notification-links-${viewport}`);
    await expectNoSeriousA11yViolations(page, `notifications ${viewport}`);
    await topUp.first().getByRole('link', { name: 'Open your wallet' }).click();
    await page.waitForURL((url) => url.pathname === '/wallet');
  });
});

describe.each(VIEWPORT_NAMES)('the leaderboard at %s width', (viewport) => {
  it("always shows the player's own rank, or that they are not on the board yet", async () => {
    const page = await openAsPlayer('/LeaderBoard', viewport);
    await page.getByRole('heading', { name: 'Your rank: not on the board yet' }).waitFor();

    // A player of a drawn game: the same place as on the full board.
    const board = await api<{ data: { username: string }[] }>(
      e2e.server.url,
      'GET',
      '/leaderboard?pageSize=100',
      { token: need(player, 'a player').token },
    );
    const ranked = need(board.data.at(-1), 'a ranked player');
    const rank = board.data.length;
    const who = need(
      rankedPlayers.find((one) => one.username === ranked.username),
      'their account',
    );
    const mine = await e2e.open('/LeaderBoard', { authToken: who.token, viewport });
    await waitForScreen(mine);
    await mine.getByRole('heading', { name: `Your rank: #${rank}` }).waitFor();
    await shot(mine, `leaderboard-rank-${viewport}`);
    await expectNoSeriousA11yViolations(mine, `leaderboard ${viewport}`);
  });
});

describe('the e-mail is already filled in on the login page', () => {
  it('after signing up (390 px)', async () => {
    const handle = `fresh_${Date.now().toString(36).slice(-6)}`;
    const email = `${handle}@players.test`;
    const page = await e2e.open('/Signup', { viewport: 'mobile' });
    await waitForScreen(page);
    await page.getByLabel('Full name').fill('Fresh Tester');
    await page.getByLabel('Username').fill(handle);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Phone number').fill(playerPhone().replace('+234', '0'));
    await page.getByLabel('Password', { exact: true }).fill(PLAYER_PASSWORD);
    await page.getByLabel('Re-enter password').fill(PLAYER_PASSWORD);
    await page.locator('#signup-ageConfirmed').check();
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await waitForScreen(page);
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    await shot(page, 'login-prefilled-mobile');
  });

  it('after resetting the password (1280 px)', async () => {
    const who = await newPlayer('forgetful');
    const page = await e2e.open('/ForgotPassword', { viewport: 'desktop' });
    await waitForScreen(page);
    await page.getByLabel('Email').fill(who.email);
    await page.getByRole('button', { name: 'Send reset code' }).click();
    await page.waitForURL((url) => url.pathname.toLowerCase() === '/resetpassword');
    // The sign-up mail was read when the player was made: the next one is the reset code.
    const mail = await e2e.mail.waitForMail(who.email, { timeoutMs: 15_000 });
    await page.getByLabel('Reset code').fill(need(mail.code ?? undefined, 'a reset code'));
    await page.getByLabel('New password', { exact: true }).fill(PLAYER_PASSWORD);
    await page.getByLabel('Confirm new password').fill(PLAYER_PASSWORD);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await waitForScreen(page);
    expect(await page.getByLabel('Email').inputValue()).toBe(who.email);
  });
});

describe('Home for a returning player', () => {
  it('on a phone the hero is compact, so the first game and its Pluck in are on the first screen', async () => {
    const back = await newPlayer('returning');
    const page = await e2e.open('/Home', { authToken: back.token, viewport: 'mobile' });
    await waitForScreen(page);
    // The first visit has the full hero; the next one (same device) is compact.
    expect(
      await page.getByRole('heading', { level: 1 }).evaluate((h1) => getComputedStyle(h1).fontSize),
    ).toBe('40px');
    // Home has been shown (and marked as seen on this device) once its games are in: the hero
    // alone is in the prerendered HTML before the app runs.
    await page.getByRole('article').first().waitFor();
    await page.reload();
    await waitForScreen(page);
    const pluckIn = page.getByRole('article').first().getByRole('button', { name: 'Pluck in' });
    await pluckIn.waitFor();
    const box = await pluckIn.boundingBox();
    expect(need(box ?? undefined, 'the button box').y + (box?.height ?? 0)).toBeLessThanOrEqual(
      844,
    );
    await page.getByText('Welcome, Pluckers!', { exact: false }).waitFor();
    await shot(page, 'home-returning-mobile');
    await expectNoSeriousA11yViolations(page, 'compact hero');

    // A laptop keeps the full hero, and so does a first-time player on a phone.
    const laptop = await e2e.open('/Home', { authToken: back.token, viewport: 'desktop' });
    await waitForScreen(laptop);
    expect(
      await laptop
        .getByRole('heading', { level: 1 })
        .evaluate((h1) => getComputedStyle(h1).fontSize),
    ).toBe('72px');
    const first = await e2e.open('/Home', { authToken: need(player, 'a player').token });
    await waitForScreen(first);
    expect(
      await first
        .getByRole('heading', { level: 1 })
        .evaluate((h1) => getComputedStyle(h1).fontSize),
    ).toBe('40px');
  });
});

describe.each(VIEWPORT_NAMES)('support at %s width', (viewport) => {
  it('keeps the alert and the clearing, stores the message and e-mails its reference', async () => {
    const email = `helpme_${Date.now().toString(36)}${viewport[0]}@players.test`;
    const page = await e2e.open('/SupportCenter', { viewport });
    await waitForScreen(page);
    const form = page.getByRole('form', { name: 'Contact support' });
    await form.getByLabel('Full name').fill('Ada Obi');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Category').selectOption('Withdrawals');
    await form.getByLabel('Subject').fill('Withdrawal still pending');
    await form.getByLabel('Message').fill('I withdrew ₦5,000 two days ago.');
    const alerted = page.waitForEvent('dialog').then(async (dialog) => {
      const text = dialog.message();
      await dialog.accept();
      return text;
    });
    await form.getByRole('button', { name: 'Send message' }).click();
    expect(await alerted).toContain('Thank you, Ada Obi!');
    const reference = await form.locator('strong.font-mono').textContent();
    expect(reference).toMatch(/^SUP-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect(await form.getByLabel('Full name').inputValue()).toBe('');
    await shot(page, `support-${viewport}`);

    const mail = await e2e.mail.waitForMail(email, { timeoutMs: 15_000 });
    expect(mail.subject).toBe(`Pluckers support: ticket ${reference}`);
    const stored = await api<{ data: { reference: string; email: string }[] }>(
      e2e.server.url,
      'GET',
      '/admin/support-tickets',
      { token: admin },
    );
    expect(stored.data.find((row) => row.reference === reference)?.email).toBe(email);
  });
});
