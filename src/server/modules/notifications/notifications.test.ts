import { describe, expect, it } from 'vitest';
import { testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createUser } from '../../test/factories.ts';
import { notify } from './service.ts';

const database = testDatabasePerFile();
const testApp = testAppPerFile(database);

describe('notifications', () => {
  it('lists the caller’s notifications newest first with an unread count', async () => {
    const app = testApp();
    const user = await createUser(app.db);
    const other = await createUser(app.db);
    await notify(app.db, user.id, 'First', 'one');
    await notify(app.db, user.id, 'Second', 'two');
    await notify(app.db, other.id, 'Not yours', 'x');

    const response = await app.inject({
      url: '/api/v1/notification?page=1',
      headers: await bearerFor(app, user),
    });

    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data.notifications.map((n: { title: string }) => n.title)).toEqual(['Second', 'First']);
    expect(data.unreadCount).toBe(2);
    expect(data.pagination).toEqual({ totalResults: 2, totalPages: 1, page: 1, pageSize: 10 });
  });
});

describe('notification pages', () => {
  it('pages by 10: 15 notices give page 1 of 10 and page 2 of 5, newest first', async () => {
    const app = testApp();
    const user = await createUser(app.db);
    for (let i = 1; i <= 15; i += 1) await notify(app.db, user.id, `Notice ${i}`, `Message ${i}`);
    const headers = await bearerFor(app, user);

    const first = (await app.inject({ url: '/api/v1/notification?page=1', headers })).json().data;
    const second = (await app.inject({ url: '/api/v1/notification?page=2', headers })).json().data;
    const third = (await app.inject({ url: '/api/v1/notification?page=3', headers })).json().data;

    const titles = (page: { notifications: Array<{ title: string }> }) =>
      page.notifications.map((n) => n.title);
    expect(titles(first)).toEqual(Array.from({ length: 10 }, (_, i) => `Notice ${15 - i}`));
    expect(titles(second)).toEqual(['Notice 5', 'Notice 4', 'Notice 3', 'Notice 2', 'Notice 1']);
    expect(first.pagination).toEqual({ totalResults: 15, totalPages: 2, page: 1, pageSize: 10 });
    expect(second.pagination).toEqual({ totalResults: 15, totalPages: 2, page: 2, pageSize: 10 });
    expect(third.notifications).toEqual([]);
    expect(third.pagination).toEqual({ totalResults: 15, totalPages: 2, page: 3, pageSize: 10 });
    expect(second.unreadCount).toBe(15);
  });

  it('defaults to page 1 and answers one empty page when there is nothing', async () => {
    const app = testApp();
    const user = await createUser(app.db);

    const response = await app.inject({
      url: '/api/v1/notification',
      headers: await bearerFor(app, user),
    });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: {
        notifications: [],
        pagination: { totalResults: 0, totalPages: 1, page: 1, pageSize: 10 },
        unreadCount: 0,
      },
    });
  });

  it('sends each notice with its texts, an ISO time and a read flag', async () => {
    const app = testApp();
    const user = await createUser(app.db);
    const before = Date.now();
    await notify(
      app.db,
      user.id,
      'You won! 🎉',
      'You won ₦2,500 in “Best Nollywood line”.\nWell done.',
      '/GameDetails?id=42',
    );

    const response = await app.inject({
      url: '/api/v1/notification',
      headers: await bearerFor(app, user),
    });

    const [notice] = response.json().data.notifications;
    expect(notice).toEqual({
      id: expect.stringMatching(/^\d+$/),
      title: 'You won! 🎉',
      message: 'You won ₦2,500 in “Best Nollywood line”.\nWell done.',
      link: '/GameDetails?id=42',
      hasRead: false,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    expect(Date.parse(notice.createdAt)).toBeGreaterThanOrEqual(before - 5_000);
    expect(Date.parse(notice.createdAt)).toBeLessThanOrEqual(Date.now() + 5_000);
  });
});

describe('POST /api/v1/notification/mark-all-as-read', () => {
  it("marks only the caller's notices as read and the unread count drops to 0", async () => {
    const app = testApp();
    const user = await createUser(app.db);
    const other = await createUser(app.db);
    await notify(app.db, user.id, 'One', 'first');
    await notify(app.db, user.id, 'Two', 'second');
    await notify(app.db, other.id, 'Theirs', 'not yours');
    const mine = await bearerFor(app, user);
    const theirs = await bearerFor(app, other);

    const marked = await app.inject({
      method: 'POST',
      url: '/api/v1/notification/mark-all-as-read',
      headers: mine,
    });

    expect(marked.statusCode).toBe(200);
    expect(marked.json()).toEqual({ message: 'All notifications marked as read' });
    const after = (await app.inject({ url: '/api/v1/notification', headers: mine })).json().data;
    expect(after.unreadCount).toBe(0);
    expect(after.notifications.map((n: { hasRead: boolean }) => n.hasRead)).toEqual([true, true]);
    const untouched = (await app.inject({ url: '/api/v1/notification', headers: theirs })).json()
      .data;
    expect(untouched.unreadCount).toBe(1);
    expect(untouched.notifications).toEqual([
      expect.objectContaining({ title: 'Theirs', hasRead: false }),
    ]);
  });

  it('says so when there was nothing unread, and a new notice is unread again', async () => {
    const app = testApp();
    const user = await createUser(app.db);
    const headers = await bearerFor(app, user);
    const markAll = () =>
      app.inject({ method: 'POST', url: '/api/v1/notification/mark-all-as-read', headers });

    expect((await markAll()).json()).toEqual({ message: 'No unread notifications' });
    await notify(app.db, user.id, 'Fresh', 'news');
    expect((await markAll()).json()).toEqual({ message: 'All notifications marked as read' });
    expect((await markAll()).json()).toEqual({ message: 'No unread notifications' });
    await notify(app.db, user.id, 'Fresher', 'more news');
    const page = (await app.inject({ url: '/api/v1/notification', headers })).json().data;
    expect(page.unreadCount).toBe(1);
    expect(
      page.notifications.map((n: { title: string; hasRead: boolean }) => [n.title, n.hasRead]),
    ).toEqual([
      ['Fresher', false],
      ['Fresh', true],
    ]);
  });

  it('answers 401 without a token and with a JSON body alike', async () => {
    const app = testApp();
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/notification/mark-all-as-read',
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      message: 'Unauthorized',
      statusCode: 401,
      code: 'UNAUTHORIZED',
    });
    const user = await createUser(app.db);
    const withBody = await app.inject({
      method: 'POST',
      url: '/api/v1/notification/mark-all-as-read',
      headers: await bearerFor(app, user),
      payload: {},
    });
    expect(withBody.statusCode).toBe(200);
  });
});

describe('notify', () => {
  it('commits or rolls back with the transaction it is given', async () => {
    const app = testApp();
    const user = await createUser(app.db);
    await app.db
      .transaction(async (tx) => {
        await notify(tx, user.id, 'Rolled back', 'never seen');
        throw new Error('abort');
      })
      .catch(() => {});
    await app.db.transaction(async (tx) => notify(tx, user.id, 'Committed', 'seen'));

    const page = (
      await app.inject({ url: '/api/v1/notification', headers: await bearerFor(app, user) })
    ).json().data;
    expect(page.notifications.map((n: { title: string }) => n.title)).toEqual(['Committed']);
  });
});
