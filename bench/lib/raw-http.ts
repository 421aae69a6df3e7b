/**
 * A minimal keep-alive HTTP/1.1 client for the write path's load: one socket per player, the
 * request written as one buffer, the answer read by its Content-Length. node:http's client
 * spent ~300 µs of CPU per request on this machine, as much as the server's whole play, on
 * the same two cores; pgbench's client, which the write path is compared with, is C.
 */
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  body: string;
}

const HEADER_END = Buffer.from('\r\n\r\n');

export class RawHttpConnection {
  private readonly socket: Socket;
  private received: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (answer: RawAnswer) => void; reject: (error: Error) => void } | null =
    null;
  private readonly ready: Promise<void>;

  constructor(url: string) {
    const { hostname, port } = new URL(url);
    this.socket = connect(Number(port), hostname);
    this.socket.setNoDelay(true);
    this.ready = new Promise((resolve, reject) => {
      this.socket.once('connect', () => resolve());
      this.socket.once('error', reject);
    });
    this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
    this.socket.on('error', (error) => this.fail(error));
    this.socket.on('close', () => this.fail(new Error('connection closed by the server')));
  }

  /** POSTs a JSON body; one request at a time per connection. */
  async post(path: string, headers: Record<string, string>, body: string): Promise<RawAnswer> {
    await this.ready;
    if (this.waiting) throw new Error('one request at a time on a connection');
    const head = [
      `POST ${path} HTTP/1.1`,
      'host: bench',
      'content-type: application/json',
      `content-length: ${Buffer.byteLength(body)}`,
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      '',
      '',
    ].join('\r\n');
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(head + body);
    });
  }

  close(): void {
    this.waiting = null;
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    this.received = this.received.length === 0 ? chunk : Buffer.concat([this.received, chunk]);
    const end = this.received.indexOf(HEADER_END);
    if (end < 0) return;
    const head = this.received.subarray(0, end).toString('latin1');
    const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
    if (length === undefined) {
      this.fail(new Error(`answer without content-length: ${head.slice(0, 200)}`));
      return;
    }
    const total = end + HEADER_END.length + Number(length);
    if (this.received.length < total) return;
    const body = this.received.subarray(end + HEADER_END.length, total).toString('utf8');
    this.received = this.received.subarray(total);
    const status = Number(head.slice(9, 12));
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.resolve({ status, body });
  }

  private fail(error: Error): void {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.reject(error);
  }
}
