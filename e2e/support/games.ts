import type { Page } from 'playwright-core';
import { api, type Player } from './accounts.ts';

/** How long a full game's draw may take: it waits for the beacon's next round and a job run. */
const DRAW_TIMEOUT_MS = 20_000;

/**
 * A game the operator makes through the API, with a ₦500 reward and five places unless `body`
 * says otherwise; its id.
 */
export async function createGame(
  baseUrl: string,
  operator: string,
  body: { title: string } & Record<string, unknown>,
): Promise<string> {
  const created = await api<{ data: { id: string } }>(baseUrl, 'POST', '/admin/games', {
    token: operator,
    body: { reward: 500, maximumPlayers: 5, ...body },
  });
  return created.data.id;
}

/**
 * Every player answers the game through the API (player n: "Answer number n"), which fills it;
 * resolves with the winners' usernames once its draw has completed.
 */
export async function playUntilDrawn(
  baseUrl: string,
  gameId: string,
  players: Player[],
): Promise<string[]> {
  for (const [index, player] of players.entries()) {
    await api(baseUrl, 'POST', '/game/play', {
      token: player.token,
      body: { gameID: gameId, submittedAnswer: `Answer number ${index}` },
    });
  }
  const deadline = Date.now() + DRAW_TIMEOUT_MS;
  for (;;) {
    const proof = await api<{ data: { status: string; winnerUsernames: string[] } }>(
      baseUrl,
      'GET',
      `/game/${gameId}/draw`,
      { token: players[0]?.token },
    );
    if (proof.data.status === 'COMPLETED') return proof.data.winnerUsernames;
    if (Date.now() > deadline) throw new Error(`the draw did not run: ${proof.data.status}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * A player on Home plucks into the game titled `title` as in the browser: the New Challenges
 * tab, the card's "Pluck in", the game's page, "Submit Your Answer"; the answer dialog.
 */
export async function openAnswerDialog(page: Page, title: string) {
  await page.getByRole('tab', { name: 'New Challenges' }).click();
  const card = page.getByRole('article', { name: title });
  await card.getByRole('button', { name: 'Pluck in' }).click();
  await page.waitForURL((url) => url.pathname === '/GameDetails');
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  await page.getByRole('button', { name: 'Submit Your Answer' }).click();
  return page.getByRole('dialog');
}
