import { request as httpRequest } from 'node:http';
import type { Game, PlayResult } from '@shared/schemas/games.ts';
import type { TestServer } from '../../test/server.ts';
import { type RecordedRequest, startFakeServer } from './fake-server.ts';

/**
 * Games on the real test server, arranged through its public and admin API exactly as players
 * and operators would (no fixtures behind the server's back).
 */
export interface GameInput {
  title: string;
  description?: string;
  entryFee?: number;
  reward?: number;
  maximumPlayers?: number;
  isTournament?: boolean;
  startsAt?: string | null;
  categoryID?: string | null;
}

async function call<T>(
  server: TestServer,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${server.origin}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

/** An operator account and its token. */
export async function adminToken(server: TestServer): Promise<string> {
  const admin = await server.createUser({ role: 'admin' });
  return server.tokenFor(admin);
}

let titleSequence = 0;

/** A title no other test (or parallel file on a shared database) uses. */
export function uniqueTitle(prefix: string): string {
  titleSequence += 1;
  return `${prefix} ${Date.now().toString(36)}${titleSequence}`;
}

export async function createGame(
  server: TestServer,
  admin: string,
  input: GameInput,
): Promise<Game> {
  const { status, body } = await call<{ data: Game }>(server, admin, 'POST', '/admin/games', {
    description: '',
    entryFee: 0,
    reward: 500,
    maximumPlayers: 50,
    isTournament: false,
    ...input,
  });
  if (status !== 201) throw new Error(`createGame: ${status} ${JSON.stringify(body)}`);
  return body.data;
}

/** An operator's edit of a game nobody has played yet (PUT /admin/games/:id). */
export async function editGame(
  server: TestServer,
  admin: string,
  game: Game,
  changes: Partial<GameInput>,
): Promise<Game> {
  const { status, body } = await call<{ data: Game }>(
    server,
    admin,
    'PUT',
    `/admin/games/${game.id}`,
    {
      title: game.title,
      description: game.description,
      entryFee: game.entryFee,
      reward: game.reward,
      maximumPlayers: game.maximumPlayers,
      isTournament: game.isTournament,
      ...changes,
    },
  );
  if (status !== 200) throw new Error(`editGame: ${status} ${JSON.stringify(body)}`);
  return body.data;
}

/** A signed-in player (token stored as a login stores it) with an optional balance in naira. */
export async function signInPlayer(server: TestServer, balanceNaira = 0) {
  const user = await server.createUser({ accountBalance: BigInt(Math.round(balanceNaira * 100)) });
  const token = await server.tokenFor(user);
  localStorage.setItem('authToken', token);
  return { user, token };
}

/** Another player answering through the API. */
export async function playAs(
  server: TestServer,
  token: string,
  gameId: string,
  answer = 'jollof with plantain',
): Promise<PlayResult> {
  const { status, body } = await call<{ data: PlayResult }>(server, token, 'POST', '/game/play', {
    gameID: gameId,
    submittedAnswer: answer,
  });
  if (status !== 201) throw new Error(`play: ${status} ${JSON.stringify(body)}`);
  return body.data;
}

export async function closeGame(server: TestServer, admin: string, gameId: string) {
  const { status, body } = await call(server, admin, 'POST', `/admin/games/${gameId}/close`);
  if (status !== 200) throw new Error(`close: ${status} ${JSON.stringify(body)}`);
}

/** An operator's cancellation: no draw, and every entry fee refunded at once. */
export async function cancelGame(server: TestServer, admin: string, gameId: string) {
  const { status, body } = await call(server, admin, 'POST', `/admin/games/${gameId}/cancel`, {
    reason: 'A fault in the question',
  });
  if (status !== 200) throw new Error(`cancel: ${status} ${JSON.stringify(body)}`);
}

/** Waits until the server's job worker has drawn the game (JOB_POLL_MS must be on). */
export async function waitForStatus(
  server: TestServer,
  token: string,
  gameId: string,
  status: Game['status'],
  timeoutMs = 20_000,
): Promise<Game> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await call<{ data: Game }>(server, token, 'GET', `/game/${gameId}`);
    if (body.data.status === status) return body.data;
    if (Date.now() > deadline)
      throw new Error(`game ${gameId} is ${body.data.status}, not ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Fills a game with `players` fresh players' answers (each can afford ₦10,000). */
export async function fillGame(
  server: TestServer,
  gameId: string,
  players: number,
): Promise<string[]> {
  const tokens: string[] = [];
  for (let n = 0; n < players; n += 1) {
    const user = await server.createUser({ accountBalance: 1_000_000n });
    const token = await server.tokenFor(user);
    await playAs(server, token, gameId, `answer number ${n + 1}`);
    tokens.push(token);
  }
  return tokens;
}

export interface ProxyOptions {
  /** Resolve the returned promise to let this request through (to watch a slow network). */
  hold?: (request: RecordedRequest) => Promise<void> | undefined;
  /** Change the real server's answer (to show what players see when something is wrong). */
  rewrite?: (
    request: RecordedRequest,
    answer: { status: number; body: string },
  ) => { status: number; body: string };
}

/**
 * A local proxy in front of the real test server: every request reaches the real API, but a
 * test can hold one back or alter an answer, for what the real server never does on purpose.
 */
export async function startProxy(server: TestServer, options: ProxyOptions = {}) {
  return startFakeServer((request, response) => {
    void (async () => {
      await options.hold?.(request);
      const answer = await forward(server.origin, request);
      const final = options.rewrite ? options.rewrite(request, answer) : answer;
      response.writeHead(final.status, { 'content-type': 'application/json; charset=utf-8' });
      response.end(final.body);
    })().catch(() => {
      // The test finished (and closed the proxy) while this request was still on its way.
      response.destroy();
    });
  });
}

function forward(
  origin: string,
  request: RecordedRequest,
): Promise<{ status: number; body: string }> {
  // Plain bodies: the proxy reads and may rewrite them, so the server must not compress them.
  const { host: _host, 'accept-encoding': _encoding, ...headers } = request.headers;
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      `${origin}${request.url}`,
      { method: request.method, headers },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode ?? 502,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

/** A VIP player (the seeded plan: tournament access, verified badge), signed in. */
export async function signInVipPlayer(server: TestServer, balanceNaira = 0) {
  const response = await fetch(`${server.origin}/api/v1/plan`);
  const plans = ((await response.json()) as { data: Array<{ id: string }> }).data;
  const plan = plans[0];
  if (!plan) throw new Error('no plan seeded');
  const user = await server.createUser({
    planId: plan.id,
    planExpiresAt: new Date(Date.now() + 7 * 86_400_000),
    accountBalance: BigInt(Math.round(balanceNaira * 100)),
  });
  const token = await server.tokenFor(user);
  localStorage.setItem('authToken', token);
  return { user, token };
}

/**
 * A category of the test's own: lists filtered by it (the leaderboard) hold only the test's
 * games, even when parallel files share one PostgreSQL database.
 */
export async function createCategory(server: TestServer, admin: string): Promise<string> {
  const { status, body } = await call<{ data: { id: string } }>(
    server,
    admin,
    'POST',
    '/admin/categories',
    { title: uniqueTitle('Test category'), emoji: '🧪' },
  );
  if (status !== 201) throw new Error(`createCategory: ${status} ${JSON.stringify(body)}`);
  return body.data.id;
}
