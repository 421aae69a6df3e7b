import { PREFERENCE_LABELS } from '@shared/schemas/push.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DATA_SAVER_KEY, setDataSaverSwitch } from '@web/lib/data-saver.ts';
import { Toaster } from '@web/lib/toast.tsx';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import { setPageUrl } from '../../../test/browser.ts';
import { PUSH_SERVICE_PATIENCE_MS, PushServiceSilent } from '../lib/push-device.ts';
import { NO_SERVICE_TOAST, PUSH_STATE_TEXT, PushSettings } from './PushSettings.tsx';

const server = testServerPerFile();

function renderSettings() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const rendered = render(
    <QueryClientProvider client={client}>
      <PushSettings />
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...rendered, client };
}

async function signIn() {
  const user = await server().createUser();
  localStorage.setItem('authToken', await server().tokenFor(user));
  return user;
}

/**
 * The browser's PushManager stood in for (no push service is reachable from a test): it hands
 * out a subscription shaped like a real one and records the key it was asked to use.
 */
function standInPushManager() {
  const asked: Array<{ applicationServerKey: Uint8Array }> = [];
  let current: { endpoint: string; toJSON(): unknown; unsubscribe(): Promise<boolean> } | null =
    null;
  const pushManager = {
    getSubscription: async () => current,
    subscribe: async (options: { applicationServerKey: Uint8Array }) => {
      asked.push(options);
      // An endpoint of a push service the server accepts (it refuses any other host).
      const endpoint = `https://fcm.googleapis.com/fcm/send/${crypto.randomUUID()}`;
      current = {
        endpoint,
        toJSON: () => ({
          endpoint,
          expirationTime: null,
          keys: {
            p256dh: `B${'A'.repeat(86)}`,
            auth: 'AAAAAAAAAAAAAAAAAAAAAA',
          },
        }),
        unsubscribe: async () => {
          current = null;
          return true;
        },
      };
      return current;
    },
  };
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { ready: Promise.resolve({ pushManager }) },
  });
  Object.assign(window, {
    PushManager: class {},
    Notification: { permission: 'default', requestPermission: async () => 'granted' },
  });
  return { asked, current: () => current };
}

/** Notifications allowed in a browser without a push service: the worker, but no way to push. */
function browserWithoutPushService(worker: object) {
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { ready: Promise.resolve(worker), getRegistration: async () => worker },
  });
  Object.assign(window, {
    PushManager: class {},
    Notification: { permission: 'granted', requestPermission: async () => 'granted' },
  });
}

describe('PushSettings', () => {
  beforeEach(() => setPageUrl(`${server().origin}/Notifications`));
  afterEach(() => {
    localStorage.removeItem(DATA_SAVER_KEY);
    Reflect.deleteProperty(navigator, 'serviceWorker');
    Reflect.deleteProperty(window, 'PushManager');
    Reflect.deleteProperty(window, 'Notification');
  });

  it('says so when the browser cannot show notifications, and still keeps the switches', async () => {
    await signIn();
    renderSettings();
    expect(await screen.findByText(PUSH_STATE_TEXT.unsupported)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Turn on' })).toBeNull();
    const results = screen.getByRole('switch', { name: PREFERENCE_LABELS.results });
    await waitFor(() => expect((results as HTMLButtonElement).disabled).toBe(false));
    expect(results.getAttribute('aria-checked')).toBe('true');
  });

  it('saves a switched-off kind and the e-mail switch to the server', async () => {
    await signIn();
    const first = renderSettings();
    const user = userEvent.setup();
    const tournaments = await screen.findByRole('switch', { name: PREFERENCE_LABELS.tournaments });
    await waitFor(() => expect((tournaments as HTMLButtonElement).disabled).toBe(false));
    await user.click(tournaments);
    await user.click(screen.getByRole('switch', { name: PREFERENCE_LABELS.emails }));
    await waitFor(() =>
      expect(
        screen.getByRole('switch', { name: PREFERENCE_LABELS.emails }).getAttribute('aria-checked'),
      ).toBe('false'),
    );
    // Saved once both saves are answered: a fresh page reads them back from the server.
    await waitFor(() => expect(first.client.isMutating()).toBe(0));
    first.unmount();
    renderSettings();
    await waitFor(async () => {
      const emails = await screen.findByRole('switch', { name: PREFERENCE_LABELS.emails });
      expect(emails.getAttribute('aria-checked')).toBe('false');
    });
    expect(
      screen
        .getByRole('switch', { name: PREFERENCE_LABELS.tournaments })
        .getAttribute('aria-checked'),
    ).toBe('false');
    expect(
      screen.getByRole('switch', { name: PREFERENCE_LABELS.results }).getAttribute('aria-checked'),
    ).toBe('true');
  });

  it('turns this device on with the server key and sends the subscription, then off', async () => {
    await signIn();
    const push = standInPushManager();
    renderSettings();
    const user = userEvent.setup();
    await screen.findByText(PUSH_STATE_TEXT.off);
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText(PUSH_STATE_TEXT.on)).toBeTruthy();
    expect(await screen.findByText('Notifications are on for this device')).toBeTruthy();
    const key = await (
      await fetch('/api/v1/notification/push/key', {
        headers: { authorization: `Bearer ${localStorage.getItem('authToken')}` },
      })
    ).json();
    const sent = push.asked[0]?.applicationServerKey;
    expect(sent && Buffer.from(sent).toString('base64url')).toBe(key.data.publicKey);

    await user.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText(PUSH_STATE_TEXT.off)).toBeTruthy();
    expect(push.current()).toBeNull();
  });

  it('says why when the browser refuses to subscribe with notifications allowed, and lets the player try again', async () => {
    await signIn();
    let tries = 0;
    browserWithoutPushService({
      pushManager: {
        getSubscription: async () => null,
        subscribe: async () => {
          tries += 1;
          throw new DOMException('Registration failed - push service not available', 'AbortError');
        },
      },
    });
    renderSettings();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText(PUSH_STATE_TEXT['no-service'])).toBeTruthy();
    expect(await screen.findByText(NO_SERVICE_TOAST)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(tries).toBe(2));
    expect(screen.getByText(PUSH_STATE_TEXT['no-service'])).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Turn on' })).toBeNull();
  });

  it('counts a push service that never answers as none, once its patience runs out, and lets the player try again', async () => {
    await signIn();
    let asked = 0;
    const silence = () => {
      asked += 1;
      return new Promise<never>(() => undefined);
    };
    browserWithoutPushService({ pushManager: { getSubscription: silence, subscribe: silence } });
    // Testing Library's own waits run on setTimeout, so only act() and vi.waitFor below.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { client } = renderSettings();
      // The preferences arrive in real time, before the clock jumps past their own timeout.
      while (client.isFetching() > 0) await new Promise((resolve) => setImmediate(resolve));
      await act(() => vi.advanceTimersByTimeAsync(PUSH_SERVICE_PATIENCE_MS - 1));
      expect(asked).toBe(1);
      expect(screen.getByText(PUSH_STATE_TEXT.checking)).toBeTruthy();
      await act(() => vi.advanceTimersByTimeAsync(1));
      expect(screen.getByText(PUSH_STATE_TEXT['no-service'])).toBeTruthy();

      fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
      // The server's push key comes over the network first, in real time.
      await vi.waitFor(() => expect(asked).toBe(2));
      await act(() => vi.advanceTimersByTimeAsync(PUSH_SERVICE_PATIENCE_MS));
      expect(screen.getByText(NO_SERVICE_TOAST)).toBeTruthy();
      expect(screen.getByText(PUSH_STATE_TEXT['no-service'])).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });

  it('turning off says so when the push service stops answering, and keeps the device on', async () => {
    await signIn();
    let asked = 0;
    const subscription = { endpoint: 'https://fcm.googleapis.com/fcm/send/kept' };
    browserWithoutPushService({
      pushManager: {
        getSubscription: () => {
          asked += 1;
          return asked === 1 ? Promise.resolve(subscription) : new Promise<never>(() => undefined);
        },
      },
    });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { client } = renderSettings();
      while (client.isFetching() > 0) await new Promise((resolve) => setImmediate(resolve));
      await act(() => vi.advanceTimersByTimeAsync(0));
      expect(screen.getByText(PUSH_STATE_TEXT.on)).toBeTruthy();

      fireEvent.click(screen.getByRole('button', { name: 'Turn off' }));
      await act(() => vi.advanceTimersByTimeAsync(PUSH_SERVICE_PATIENCE_MS));
      expect(asked).toBe(2);
      expect(screen.getByText(new PushServiceSilent().message)).toBeTruthy();
      expect(screen.getByText(PUSH_STATE_TEXT.on)).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });

  it('says why at once when the worker has no PushManager', async () => {
    await signIn();
    browserWithoutPushService({});
    renderSettings();
    expect(await screen.findByText(PUSH_STATE_TEXT['no-service'])).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('in Data saver without a worker, says Data saver keeps notifications off and links to Profile', async () => {
    await signIn();
    setDataSaverSwitch(true);
    // No worker was ever installed: ready would never settle.
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { ready: new Promise(() => {}), getRegistration: async () => undefined },
    });
    Object.assign(window, {
      PushManager: class {},
      Notification: { permission: 'granted', requestPermission: async () => 'granted' },
    });
    renderSettings();
    expect(await screen.findByText(PUSH_STATE_TEXT['data-saver'])).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open Profile' }).getAttribute('href')).toBe(
      '/Profile',
    );
    expect(screen.queryByRole('button', { name: 'Turn on' })).toBeNull();
  });
});
