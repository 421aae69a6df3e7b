import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

/**
 * src/web/public/push-sw.js, which the generated service worker imports, run in a stand-in
 * ServiceWorkerGlobalScope: a push shows the notification, a tap opens the screen it names.
 */
async function loadWorker(windows: Array<{ url: string }> = []) {
  const source = await readFile(path.resolve('src/web/public/push-sw.js'), 'utf8');
  const listeners = new Map<string, (event: unknown) => void>();
  const shown: Array<{ title: string; options: Record<string, unknown> }> = [];
  const opened: string[] = [];
  const navigated: string[] = [];
  const clients = windows.map((w) => ({
    url: w.url,
    focus: async function (this: unknown) {
      return this;
    },
    navigate: async (url: string) => {
      navigated.push(url);
    },
  }));
  const scope = {
    location: { origin: 'https://pluckers.example.ng' },
    addEventListener: (type: string, listener: (event: unknown) => void) =>
      listeners.set(type, listener),
    registration: {
      showNotification: async (title: string, options: Record<string, unknown>) => {
        shown.push({ title, options });
      },
    },
    clients: {
      matchAll: async () => clients,
      openWindow: async (url: string) => {
        opened.push(url);
      },
    },
  };
  runInNewContext(source, { self: scope, URL });
  async function fire(type: string, event: Record<string, unknown>) {
    let pending: Promise<unknown> = Promise.resolve();
    listeners.get(type)?.({
      ...event,
      waitUntil: (promise: Promise<unknown>) => (pending = promise),
    });
    await pending;
  }
  return { fire, shown, opened, navigated };
}

const pushOf = (data: unknown) => ({
  data: { json: () => data, text: () => JSON.stringify(data) },
});

describe('push-sw.js', () => {
  it('shows the pushed title and body, tagged, remembering where a tap leads', async () => {
    const worker = await loadWorker();
    await worker.fire(
      'push',
      pushOf({
        title: 'You won!',
        body: '₦2,500 has been added',
        url: '/GameDetails?id=g1',
        tag: 'game:g1',
      }),
    );
    expect(worker.shown).toEqual([
      {
        title: 'You won!',
        options: expect.objectContaining({
          body: '₦2,500 has been added',
          tag: 'game:g1',
          data: { url: '/GameDetails?id=g1' },
        }),
      },
    ]);
  });

  it('opens the screen on a tap: a new window, or the open app brought forward and moved there', async () => {
    const closed: string[] = [];
    const tap = (url: unknown) => ({
      notification: { data: { url }, close: () => closed.push('closed') },
    });
    const cold = await loadWorker();
    await cold.fire('notificationclick', tap('/wallet'));
    expect(cold.opened).toEqual(['https://pluckers.example.ng/wallet']);

    const warm = await loadWorker([{ url: 'https://pluckers.example.ng/Home' }]);
    await warm.fire('notificationclick', tap('/GameDetails?id=g1'));
    expect(warm.navigated).toEqual(['https://pluckers.example.ng/GameDetails?id=g1']);
    expect(warm.opened).toEqual([]);
    expect(closed).toHaveLength(2);
  });

  it('never opens another site, whatever a payload says', async () => {
    const worker = await loadWorker();
    await worker.fire('push', pushOf({ title: 'x', url: 'https://evil.example/' }));
    expect(worker.shown[0]?.options.data).toEqual({ url: '/Home' });
    await worker.fire('notificationclick', {
      notification: { data: { url: '//evil.example/x' }, close: () => {} },
    });
    expect(worker.opened).toEqual(['https://pluckers.example.ng/Home']);
  });
});
