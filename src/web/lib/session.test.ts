import type { ServerResponse } from 'node:http';
import type { Settings } from '@shared/schemas/settings.ts';
import type { User } from '@shared/schemas/users.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testServerPerFile } from '../../test/server.ts';
import { setPageUrl } from '../test/browser.ts';
import { type RecordedRequest, sendJson, startFakeServer } from '../test/fake-server.ts';
import { samplePlayer, sampleSettings } from '../test/sample-data.ts';
import { ApiError, http } from './http.ts';
import {
  getSession,
  LOGOUT_TIMEOUT_MS,
  logout,
  restoreSession,
  setCurrentGame,
  setSettings,
  setUser,
  shouldRestoreSession,
} from './session.ts';

const server = testServerPerFile();

afterEach(() => {
  setUser(null);
  setSettings(null);
  setCurrentGame(null);
});

/** A signed-in player of the real server, with the token stored as a login would store it. */
async function signedInPlayer() {
  const user = await server().createUser();
  localStorage.setItem('authToken', await server().tokenFor(user));
  return user;
}

describe('session restore against the real server', () => {
  it('with a token on /Home, loads the user and the settings', async () => {
    const user = await signedInPlayer();
    setPageUrl(`${server().origin}/Home`);

    await restoreSession('/Home');

    const session = getSession();
    expect(session.restoring).toBe(false);
    expect(session.user).toMatchObject({ id: user.id, email: user.email, level: 1 });
    const published = (await (await fetch('/api/v1/settings')).json()) as { data: Settings };
    expect(session.settings).toEqual(published.data);
  });

  it('mirrors the user in sessionStorage under "user"', async () => {
    await signedInPlayer();
    setPageUrl(`${server().origin}/Notifications`);

    await restoreSession('/Notifications');

    const copy = sessionStorage.getItem('user');
    expect(copy).not.toBeNull();
    expect(JSON.parse(copy ?? 'null')).toEqual(getSession().user);
  });

  it('fails silently with a token the server refuses: no user, no throw', async () => {
    localStorage.setItem('authToken', 'expired-or-forged');
    setPageUrl(`${server().origin}/Home`);

    await expect(restoreSession('/Home')).resolves.toBeUndefined();

    expect(getSession()).toMatchObject({ restoring: false, user: null });
    // The 401 rule still applies: the token is forgotten and the player is sent to log in.
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(sessionStorage.getItem('user')).toBeNull();
    expect(window.location.pathname).toBe('/login');
  });

  it('logout forgets the user, the session copy and the token, then goes to /login', async () => {
    await signedInPlayer();
    setPageUrl(`${server().origin}/Profile`);
    await restoreSession('/Profile');
    expect(getSession().user).not.toBeNull();

    await logout();

    expect(getSession().user).toBeNull();
    expect(sessionStorage.getItem('user')).toBeNull();
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(window.location.pathname).toBe('/login');
  });

  it("logout first removes this browser's push subscription, on the server and in the browser", async () => {
    const fake = await startFakeServer((_request, response) =>
      sendJson(response, 200, { message: 'ok' }),
    );
    setPageUrl(`${fake.origin}/Profile`);
    localStorage.setItem('authToken', 'token-abc');
    const unsubscribed: string[] = [];
    const endpoint = 'https://push.example.test/send/abc';
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: {
        getRegistration: async () => ({
          pushManager: {
            getSubscription: async () => ({
              endpoint,
              unsubscribe: async () => unsubscribed.push(endpoint),
            }),
          },
        }),
      },
    });
    try {
      await logout();
    } finally {
      Reflect.deleteProperty(navigator, 'serviceWorker');
      await fake.close();
    }
    expect(fake.requests.map((r) => [r.method, r.url, r.body])).toEqual([
      ['DELETE', '/api/v1/notification/push/subscription', JSON.stringify({ endpoint })],
      ['POST', '/api/v1/auth/logout', ''],
    ]);
    expect(unsubscribed).toEqual([endpoint]);
    expect(localStorage.getItem('authToken')).toBeNull();
  });

  it("logout goes on when the browser's push lookup never answers, revoking the token after its patience", async () => {
    const fake = await startFakeServer((_request, response) =>
      sendJson(response, 200, { message: 'ok' }),
    );
    setPageUrl(`${fake.origin}/Profile`);
    localStorage.setItem('authToken', 'token-abc');
    let askedForRegistration = false;
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: {
        getRegistration: () => {
          askedForRegistration = true;
          return new Promise(() => undefined);
        },
      },
    });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const loggingOut = logout();
      await vi.waitFor(() => expect(askedForRegistration).toBe(true));
      await vi.advanceTimersByTimeAsync(LOGOUT_TIMEOUT_MS - 1);
      expect(fake.requests).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      await loggingOut;
    } finally {
      vi.useRealTimers();
      Reflect.deleteProperty(navigator, 'serviceWorker');
      await fake.close();
    }
    expect(fake.requests.map((r) => [r.method, r.url])).toEqual([['POST', '/api/v1/auth/logout']]);
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(window.location.pathname).toBe('/login');
  });

  it('logout revokes the token on the server: a copy of it no longer works', async () => {
    await signedInPlayer();
    const token = localStorage.getItem('authToken') as string;
    setPageUrl(`${server().origin}/Profile`);
    await restoreSession('/Profile');

    await logout();

    const reused = await fetch('/api/v1/user', { headers: { authorization: `Bearer ${token}` } });
    expect(reused.status).toBe(401);
  });

  it('logout lets the calls on their way finish before revoking the token, and sends none meanwhile', async () => {
    // Like the real server: once the token is revoked, every call with it answers 401.
    let revoked = false;
    const held: ServerResponse[] = [];
    const fake = await startFakeServer((request, response) => {
      if (request.url === '/api/v1/auth/logout') {
        revoked = true;
        sendJson(response, 200, { message: 'Logged out' });
      } else if (revoked) sendJson(response, 401, { message: 'Unauthorized', statusCode: 401 });
      else held.push(response);
    });
    localStorage.setItem('authToken', 'token-abc');
    setPageUrl(`${fake.origin}/Home`);
    const onItsWay = http.get<{ data: User }>('/user');
    await expect.poll(() => held.length).toBe(1);

    const loggingOut = logout();
    const startedMeanwhile = expect(
      http.get('/responsible-play/reality-check'),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fake.requests.map((request) => request.url)).toEqual(['/api/v1/user']);
    sendJson(held[0] as ServerResponse, 200, { data: samplePlayer });
    await loggingOut;

    await expect(onItsWay).resolves.toEqual({ data: samplePlayer });
    await startedMeanwhile;
    expect(fake.requests.map((request) => [request.method, request.url])).toEqual([
      ['GET', '/api/v1/user'],
      ['POST', '/api/v1/auth/logout'],
    ]);
    // Logged out by the button, not by a 401: straight to /login, with no way back.
    expect(window.location.pathname + window.location.search).toBe('/login');
    expect(localStorage.getItem('authToken')).toBeNull();

    // The next player's calls go out again.
    localStorage.setItem('authToken', 'token-next');
    revoked = false;
    const next = http.get('/user');
    await expect.poll(() => held.length).toBe(2);
    sendJson(held[1] as ServerResponse, 200, { data: samplePlayer });
    await expect(next).resolves.toEqual({ data: samplePlayer });
  });

  it('logout abandons a call still on its way when its patience runs out, before revoking the token', async () => {
    let revoked = false;
    const held: ServerResponse[] = [];
    let hungUpBeforeAnswer = false;
    const fake = await startFakeServer((request, response) => {
      if (request.url === '/api/v1/auth/logout') {
        revoked = true;
        sendJson(response, 200, { message: 'Logged out' });
        return;
      }
      held.push(response);
      response.on('close', () => {
        hungUpBeforeAnswer = !response.writableEnded;
      });
    });
    localStorage.setItem('authToken', 'token-slow');
    setPageUrl(`${fake.origin}/Home`);
    const onItsWay = http.get('/responsible-play');
    const settled = expect(onItsWay).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect.poll(() => held.length).toBe(1);

    const startedAt = Date.now();
    await logout();

    await settled;
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(LOGOUT_TIMEOUT_MS);
    expect(revoked).toBe(true);
    // Abandoned, so the answer the revoked token would now get never reaches the page.
    await expect.poll(() => hungUpBeforeAnswer).toBe(true);
    // Logged out by the button: no "session expired" detour with a way back.
    expect(window.location.pathname + window.location.search).toBe('/login');
  }, 15_000);

  it('a 401 on any later call forgets the signed-in user', async () => {
    await signedInPlayer();
    setPageUrl(`${server().origin}/Home`);
    await restoreSession('/Home');
    expect(getSession().user).not.toBeNull();
    localStorage.setItem('authToken', 'revoked-elsewhere');

    await expect(http.get('/notification')).rejects.toBeInstanceOf(ApiError);

    expect(getSession().user).toBeNull();
    expect(sessionStorage.getItem('user')).toBeNull();
    expect(window.location.pathname).toBe('/login');
  });
});

describe('session restore rules', () => {
  /** A fake API that records every call and answers user and settings. */
  async function recordingApi() {
    return startFakeServer((request, response) => {
      if (request.url === '/api/v1/user') sendJson(response, 200, { data: samplePlayer });
      else if (request.url === '/api/v1/settings')
        sendJson(response, 200, { data: sampleSettings });
      else sendJson(response, 404, { message: 'not here', statusCode: 404, code: 'NOT_FOUND' });
    });
  }

  it('loads user and settings in parallel: each request is sent before either answers', async () => {
    const waiting: { request: RecordedRequest; response: ServerResponse }[] = [];
    let giveUp: ReturnType<typeof setTimeout> | undefined;
    const answer = () => {
      clearTimeout(giveUp);
      for (const { request, response } of waiting.splice(0)) {
        if (request.url === '/api/v1/user') sendJson(response, 200, { data: samplePlayer });
        else sendJson(response, 200, { data: sampleSettings });
      }
    };
    const fake = await startFakeServer((request, response) => {
      waiting.push({ request, response });
      // Hold the first call until the second arrives; a one-after-the-other client would wait
      // here forever, so after a second give up with an error instead (and the test fails).
      if (waiting.length === 2) answer();
      else
        giveUp = setTimeout(() => {
          for (const held of waiting.splice(0)) sendJson(held.response, 503, { message: 'alone' });
        }, 1_000);
    });
    localStorage.setItem('authToken', 'token-abc');
    setPageUrl(`${fake.origin}/Home`);

    const restoring = restoreSession('/Home');
    expect(getSession().restoring).toBe(true);
    await restoring;

    expect(fake.requests.map((request) => request.url).sort()).toEqual([
      '/api/v1/settings',
      '/api/v1/user',
    ]);
    expect(fake.requests.every((r) => r.headers.authorization === 'Bearer token-abc')).toBe(true);
    expect(getSession()).toMatchObject({
      restoring: false,
      user: samplePlayer,
      settings: sampleSettings,
    });
  });

  it('without a token loads nothing', async () => {
    const fake = await recordingApi();
    setPageUrl(`${fake.origin}/Home`);

    await restoreSession('/Home');

    expect(fake.requests).toEqual([]);
    expect(getSession()).toMatchObject({ restoring: false, user: null, settings: null });
  });

  it.each([
    '/login',
    '/Login',
    '/auth/validate/abc123',
    '/AUTH',
    '/Auth/validate/xyz',
    '/oauth-callback',
  ])('does not restore on %s', async (path) => {
    const fake = await recordingApi();
    localStorage.setItem('authToken', 'token-abc');
    setPageUrl(`${fake.origin}${path}`);

    await restoreSession(path);

    expect(fake.requests).toEqual([]);
    expect(getSession().user).toBeNull();
    expect(shouldRestoreSession(path)).toBe(false);
  });

  it.each(['/', '/Home', '/Notifications', '/GameRules', '/login-help'])(
    'restores on %s',
    (path) => {
      expect(shouldRestoreSession(path)).toBe(true);
    },
  );

  it('keeps going when the server fails: a 500 and a dropped call are ignored', async () => {
    const fake = await startFakeServer((request, response) => {
      if (request.url === '/api/v1/user') sendJson(response, 500, { message: 'db down' });
      else response.socket?.destroy();
    });
    localStorage.setItem('authToken', 'token-abc');
    setPageUrl(`${fake.origin}/Home`);

    await expect(restoreSession('/Home')).resolves.toBeUndefined();

    expect(getSession()).toMatchObject({ restoring: false, user: null, settings: null });
    // Not a 401: the token stays and nobody is sent anywhere.
    expect(localStorage.getItem('authToken')).toBe('token-abc');
    expect(window.location.pathname).toBe('/Home');
  });

  it('logout still logs out locally when the server cannot be reached', async () => {
    const fake = await startFakeServer((request, response) => {
      if (request.url === '/api/v1/user') sendJson(response, 200, { data: samplePlayer });
      else response.socket?.destroy();
    });
    localStorage.setItem('authToken', 'token-abc');
    setPageUrl(`${fake.origin}/Profile`);
    await restoreSession('/Profile');
    expect(getSession().user).not.toBeNull();

    await logout();

    expect(fake.requests.map((request) => `${request.method} ${request.url}`)).toContain(
      'POST /api/v1/auth/logout',
    );
    expect(getSession().user).toBeNull();
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(window.location.pathname).toBe('/login');
  });

  it('keeps what did load when only one of the two calls fails', async () => {
    const fake = await startFakeServer((request, response) => {
      if (request.url === '/api/v1/user') sendJson(response, 200, { data: samplePlayer });
      else
        sendJson(response, 500, {
          message: 'settings unavailable',
          statusCode: 500,
          code: 'INTERNAL',
        });
    });
    localStorage.setItem('authToken', 'token-abc');
    setPageUrl(`${fake.origin}/Home`);

    await restoreSession('/Home');

    expect(getSession()).toMatchObject({ user: samplePlayer, settings: null });
    expect(JSON.parse(sessionStorage.getItem('user') ?? 'null')).toEqual(samplePlayer);
  });
});
