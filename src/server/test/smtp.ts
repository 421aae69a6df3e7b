import type { AddressInfo, Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message as the test SMTP server received it, decoded enough for assertions. */
export interface ReceivedMail {
  /** Envelope recipients (RCPT TO), lower case. */
  to: string[];
  from: string;
  subject: string;
  headers: Record<string, string>;
  text: string;
  html: string;
  /** The `/auth/validate/<token>` token of the first such link in the text, if any. */
  validateToken: string | null;
  /**
   * The first stand-alone 6-digit number in the text, if any: not part of a longer word, so
   * digits inside an e-mail address (test addresses carry random suffixes) are never taken.
   */
  code: string | null;
  raw: string;
}

export interface TestSmtpServer {
  /** For SMTP_URL: plain SMTP on loopback, no TLS, no authentication. */
  url: string;
  /** Every message received, oldest first. */
  messages: ReceivedMail[];
  /** How many connections clients have opened so far. */
  connections(): number;
  /** Hangs up on every open connection, as a mail server ending idle sessions does. */
  dropConnections(): void;
  /** Messages addressed to `to`, oldest first. */
  mailTo(to: string): ReceivedMail[];
  /**
   * The next message to `to` that no earlier `waitForMail` returned, waiting for it to arrive.
   * Each recipient has its own cursor, so a test reads its mails in order.
   */
  waitForMail(to: string, options?: { timeoutMs?: number }): Promise<ReceivedMail>;
  close(): Promise<void>;
}

type Headers = Record<string, string>;

/** Header block → lower-cased names, folded lines unfolded (later duplicates are ignored). */
function parseHeaders(block: string): Headers {
  const headers: Headers = {};
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    headers[name] ??= line.slice(colon + 1).trim();
  }
  return headers;
}

function splitHeaders(entity: string): { headers: Headers; body: string } {
  const match = /\r?\n\r?\n/.exec(entity);
  if (!match) return { headers: parseHeaders(entity), body: '' };
  return {
    headers: parseHeaders(entity.slice(0, match.index)),
    body: entity.slice(match.index + match[0].length),
  };
}

function parameter(headerValue: string | undefined, name: string): string | undefined {
  const match = new RegExp(`;\\s*${name}="?([^";]+)"?`, 'i').exec(headerValue ?? '');
  return match?.[1];
}

function decodeQuotedPrintable(body: string): Buffer {
  const softBreaksRemoved = body.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < softBreaksRemoved.length; i += 1) {
    const char = softBreaksRemoved[i];
    const hex = softBreaksRemoved.slice(i + 1, i + 3);
    if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(char ?? '', 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

function decodeBody(headers: Headers, body: string): string {
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const bytes =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(body)
        : Buffer.from(body, 'utf8');
  return bytes.toString('utf8');
}

/** RFC 2047 encoded words (=?utf-8?Q?...?= / =?utf-8?B?...?=) in a header value. */
function decodeHeaderValue(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_all, _charset, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')).toString('utf8'),
    );
}

/** Walks a MIME entity and collects its text/plain and text/html parts. */
function collectParts(entity: string, into: { text: string[]; html: string[] }): void {
  const { headers, body } = splitHeaders(entity);
  const contentType = headers['content-type'] ?? 'text/plain';
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? 'text/plain';
  if (mediaType.startsWith('multipart/')) {
    const boundary = parameter(contentType, 'boundary');
    if (!boundary) return;
    const sections = body.split(`--${boundary}`);
    // sections[0] is the preamble; the part after the closing `--boundary--` starts with `--`.
    for (const section of sections.slice(1)) {
      if (section.startsWith('--')) break;
      collectParts(section.replace(/^\r?\n/, ''), into);
    }
    return;
  }
  if (mediaType === 'text/plain') into.text.push(decodeBody(headers, body));
  else if (mediaType === 'text/html') into.html.push(decodeBody(headers, body));
}

export function parseMail(raw: string, recipients: string[], from: string): ReceivedMail {
  const { headers } = splitHeaders(raw);
  const parts = { text: [] as string[], html: [] as string[] };
  collectParts(raw, parts);
  const text = parts.text.join('\n');
  return {
    to: recipients.map((address) => address.toLowerCase()),
    from,
    subject: decodeHeaderValue(headers.subject ?? ''),
    headers,
    text,
    html: parts.html.join('\n'),
    validateToken: /\/auth\/validate\/([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? null,
    code: /(?<![\w.@-])(\d{6})(?![\w.@-])/.exec(text)?.[1] ?? null,
    raw,
  };
}

/**
 * A real SMTP server on 127.0.0.1 (free port, no TLS, no auth) that keeps what it receives.
 * Point the app at it with `SMTP_URL: smtp.url`.
 */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  const cursors = new Map<string, number>();
  const waiters = new Set<() => void>();

  const server = new SMTPServer({
    authOptional: true,
    // Any credentials in SMTP_URL are accepted; the connection stays plain text.
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? 'test' });
    },
    banner: 'pluckers test smtp',
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        const recipients = session.envelope.rcptTo.map((rcpt) => rcpt.address);
        const mailFrom = session.envelope.mailFrom;
        const sender = mailFrom ? mailFrom.address : '';
        messages.push(parseMail(Buffer.concat(chunks).toString('utf8'), recipients, sender));
        for (const wake of waiters) wake();
        callback();
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Errors after start-up (a client hanging up mid-session) are not the test's business.
  server.on('error', () => {});
  const open = new Set<Socket>();
  const hangUp = () => {
    for (const socket of open) socket.destroy();
  };
  let connections = 0;
  server.server.on('connection', (socket: Socket) => {
    connections += 1;
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  const { port } = server.server.address() as AddressInfo;

  const mailTo = (to: string) => messages.filter((mail) => mail.to.includes(to.toLowerCase()));

  async function waitForMail(to: string, options: { timeoutMs?: number } = {}) {
    const key = to.toLowerCase();
    const deadline = Date.now() + (options.timeoutMs ?? 5_000);
    for (;;) {
      const seen = cursors.get(key) ?? 0;
      const next = mailTo(key)[seen];
      if (next) {
        cursors.set(key, seen + 1);
        return next;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no mail to ${to} arrived (${messages.length} received)`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        waiters.add(wake);
      });
    }
  }

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    connections: () => connections,
    dropConnections: hangUp,
    mailTo,
    waitForMail,
    // Clients that keep connections (the app's pooled mailer) are hung up on rather than
    // waited for: smtp-server would wait up to 30 s for them.
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        hangUp();
      }),
  };
}
