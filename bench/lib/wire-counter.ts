/**
 * A TCP proxy between a server and PostgreSQL that counts what the server asks, from the
 * frontend messages of the wire protocol (no change to the server, nothing sampled):
 * a statement is a simple Query ('Q') or an extended-protocol Execute ('E'); a round trip is a
 * simple Query or a Sync ('S'), the two messages after which the client waits for
 * ReadyForQuery before it sends its next query. BEGIN and COMMIT count like any statement.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface WireCounts {
  statements: number;
  roundTrips: number;
}

export interface WireCounter {
  /** postgres:// URL that reaches `targetUrl`'s database through the proxy. */
  url: string;
  /** Totals so far over every connection. */
  counts(): WireCounts;
  close(): Promise<void>;
}

/** Counts the typed messages of one client's stream; the first message (startup) has no type. */
function frontendParser(onMessage: (type: number) => void) {
  let pending: Buffer = Buffer.alloc(0);
  let started = false;
  return (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    let offset = 0;
    for (;;) {
      if (!started) {
        if (pending.length - offset < 4) break;
        const length = pending.readInt32BE(offset);
        if (pending.length - offset < length) break;
        // SSLRequest and GSSENCRequest are followed by another untyped startup message.
        const code = length >= 8 ? pending.readInt32BE(offset + 4) : 0;
        if (code !== 80877103 && code !== 80877104) started = true;
        offset += length;
        continue;
      }
      if (pending.length - offset < 5) break;
      const length = pending.readInt32BE(offset + 1);
      if (pending.length - offset < length + 1) break;
      onMessage(pending[offset] as number);
      offset += length + 1;
    }
    pending = pending.subarray(offset);
  };
}

export async function startWireCounter(targetUrl: string): Promise<WireCounter> {
  const target = new URL(targetUrl);
  const host = target.hostname;
  const port = Number(target.port || 5432);
  const totals: WireCounts = { statements: 0, roundTrips: 0 };
  const sockets = new Set<Socket>();
  const Q = 'Q'.charCodeAt(0);
  const E = 'E'.charCodeAt(0);
  const S = 'S'.charCodeAt(0);

  const server: Server = createServer((client) => {
    const upstream = connect(port, host);
    sockets.add(client);
    sockets.add(upstream);
    const parse = frontendParser((type) => {
      if (type === Q || type === E) totals.statements += 1;
      if (type === Q || type === S) totals.roundTrips += 1;
    });
    client.on('data', (chunk: Buffer) => {
      parse(chunk);
      upstream.write(chunk);
    });
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const proxied = new URL(targetUrl);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(typeof address === 'object' && address ? address.port : 0);
  return {
    url: proxied.toString(),
    counts: () => ({ ...totals }),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
