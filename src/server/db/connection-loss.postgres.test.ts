import net from 'node:net';
import { sql } from 'drizzle-orm';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { openDatabase } from './client.ts';
import { isDatabaseUnavailable } from './errors.ts';

/**
 * What an instance sees when its PostgreSQL dies or fails over: every open connection drops at
 * once, whatever it was doing. Here a TCP relay in front of the test database cuts them all.
 */
interface Relay {
  url: string;
  /** Closes every connection relayed so far, as a dead server would. */
  cut: () => void;
}

async function relayToTestDatabase(): Promise<Relay> {
  const target = new URL(inject('testDatabaseUrl') ?? '');
  if (!target.host) throw new Error('this file runs only against PostgreSQL (TEST_DATABASE_URL)');
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  const url = new URL(target);
  url.host = `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return {
    url: url.toString(),
    cut: () => {
      for (const socket of sockets) socket.destroy();
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('losing the database connection', () => {
  it('fails the transaction that held the connection, keeps the process up, and the pool serves the next query', async () => {
    const relay = await relayToTestDatabase();
    const handle = await openDatabase({ databaseUrl: relay.url, dataDir: '', poolSize: 2 });
    onTestFinished(() => handle.close());

    // Checked out between two statements when the server goes: no query of its own is waiting,
    // so the driver reports the loss as an 'error' event on the client (unhandled, it would end
    // the process and this test run with it).
    const transaction = handle.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT 1`);
      relay.cut();
      await sleep(200);
      await tx.execute(sql`SELECT 2`);
    });
    // Said as such, so the API answers 503 with Retry-After rather than a bare 500.
    await expect(transaction).rejects.toSatisfy(isDatabaseUnavailable);

    const result = (await handle.db.execute(sql`SELECT 41 + 1 AS answer`)) as unknown as {
      rows: Array<{ answer: number }>;
    };
    expect(result.rows[0]?.answer).toBe(42);
    expect(handle.poolStats?.().total).toBeLessThanOrEqual(2);
  });

  it('re-opens the listening connection, says to resync, and delivers notifications again', async () => {
    const relay = await relayToTestDatabase();
    const handle = await openDatabase({ databaseUrl: relay.url, dataDir: '', poolSize: 2 });
    onTestFinished(() => handle.close());
    const channel = `connection_loss_${process.pid}_${Date.now()}`;
    const messages: string[] = [];
    let resyncs = 0;
    const unlisten = await handle.listen(channel, {
      onMessage: (payload) => messages.push(payload),
      onResync: () => {
        resyncs += 1;
      },
      onError: () => {},
    });
    onTestFinished(() => unlisten());

    relay.cut();
    const deadline = Date.now() + 10_000;
    while (resyncs === 0 && Date.now() < deadline) await sleep(50);
    expect(resyncs).toBe(1);

    await handle.db.execute(sql`SELECT pg_notify(${channel}, 'after the loss')`);
    while (messages.length === 0 && Date.now() < deadline) await sleep(50);
    expect(messages).toEqual(['after the loss']);
  });
});
