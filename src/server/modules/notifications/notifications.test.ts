import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createUser } from '../../test/factories.ts';
import { notify } from './service.ts';

const database = testDatabasePerFile();

describe('notifications', () => {
  it('lists the caller’s notifications newest first with an unread count', async () => {
    const app = await buildTestApp(database());
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
