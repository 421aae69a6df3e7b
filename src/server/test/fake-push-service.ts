import {
  createDecipheriv,
  createECDH,
  createHmac,
  type ECDH,
  randomBytes,
  randomUUID,
} from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeProtectedHeader, importJWK, jwtVerify } from 'jose';

/**
 * A local stand-in for a browser's push service (RFC 8030) on 127.0.0.1. It mints
 * subscriptions as a browser would (a fresh P-256 key pair and 16-byte auth secret each), and
 * on every POST to a subscription's endpoint it checks the VAPID authorization (an ES256 JWT for
 * this origin, signed by the key in `k`) and decrypts the aes128gcm body (RFC 8188 / RFC 8291)
 * with that subscription's private key, as the browser would. Tests read what arrived and can
 * make an endpoint answer 410 Gone (an expired subscription), 500 or a redirect.
 *
 * Endpoints are told apart by their path, and the JWT's audience is checked against the origin
 * the request was addressed to (its Host), so a subscription may name the service by a host
 * name that only the sender's own lookup resolves here.
 */

export interface FakeSubscription {
  /** What PushSubscription.toJSON() gives a page. */
  json: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
  endpoint: string;
}

export interface ReceivedPush {
  endpoint: string;
  /** The decrypted body, parsed as JSON. */
  payload: unknown;
  /** The VAPID public key (`k`) the request was signed with, and the JWT's subject. */
  vapidKey: string;
  subject: string;
  ttl: number;
  urgency: string | undefined;
}

export interface FakePushService {
  url: string;
  /** A new subscription; `host` names the service otherwise than 127.0.0.1 (same port). */
  subscribe(options?: { host?: string }): FakeSubscription;
  received: ReceivedPush[];
  /** Pushes that reached `endpoint`, oldest first. */
  receivedBy(endpoint: string): ReceivedPush[];
  /** Every later request to the endpoint is answered with this status (410: gone; 0: normal). */
  answer(endpoint: string, status: number): void;
  /** Every later request to the endpoint is answered 307 to `location`. */
  redirect(endpoint: string, location: string): void;
  /** TCP connections and requests the service has received, whatever their fate. */
  connections(): number;
  requests(): number;
  /** Requests refused (bad signature, undecryptable body): always empty when the sender is right. */
  rejected: string[];
  close(): Promise<void>;
}

const b64 = (buffer: Buffer) => buffer.toString('base64url');
const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** RFC 8291 §3.4 and RFC 8188 §2: one record, padding delimiter 2, then zeros. */
export function decryptAes128gcm(
  body: Buffer,
  receiver: { privateKey: Buffer; publicKey: Buffer; auth: Buffer; ecdh?: ECDH },
): Buffer {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body.readUInt8(20);
  const senderPublicKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (ciphertext.length > recordSize) throw new Error('more than one record');
  let ecdh = receiver.ecdh;
  if (!ecdh) {
    ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(receiver.privateKey);
  }
  const sharedSecret = ecdh.computeSecret(senderPublicKey);
  const prkKey = hmac(receiver.auth, sharedSecret);
  const keyInfo = Buffer.concat([
    Buffer.from('WebPush: info\0'),
    receiver.publicKey,
    senderPublicKey,
    Buffer.from([1]),
  ]);
  const ikm = hmac(prkKey, keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('no last-record padding delimiter');
  return padded.subarray(0, end);
}

type VapidKey = Awaited<ReturnType<typeof importJWK>>;

/** The sender's public key (`k`) as a verification key: one import per key, not per push. */
function vapidKeyOf(k: string, cache: Map<string, Promise<VapidKey>>): Promise<VapidKey> {
  let key = cache.get(k);
  if (!key) {
    const point = Buffer.from(k, 'base64url');
    key = importJWK(
      { kty: 'EC', crv: 'P-256', x: b64(point.subarray(1, 33)), y: b64(point.subarray(33, 65)) },
      'ES256',
    );
    cache.set(k, key);
  }
  return key;
}

type Vapid = { vapidKey: string; subject: string };

async function checkVapid(
  authorization: string | undefined,
  origin: string,
  keys: Map<string, Promise<VapidKey>>,
  verified: Map<string, Vapid>,
): Promise<Vapid> {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!match?.[1] || !match[2]) throw new Error(`not a VAPID authorization: ${authorization}`);
  const [token, k] = [match[1], match[2]];
  // A sender reuses its token for every push to this origin (push.ts): the same token, key and
  // audience verified once is verified, as a push service would remember it. Any other token
  // (another key, audience or signature) is verified in full.
  const seen = verified.get(`${origin} ${k} ${token}`);
  if (seen) return seen;
  if (decodeProtectedHeader(token).alg !== 'ES256') throw new Error('VAPID JWT is not ES256');
  const { payload } = await jwtVerify(token, await vapidKeyOf(k, keys), { audience: origin });
  if (typeof payload.sub !== 'string' || !/^(mailto:|https:)/.test(payload.sub))
    throw new Error('VAPID JWT without a mailto:/https: subject');
  const vapid = { vapidKey: k, subject: payload.sub };
  verified.set(`${origin} ${k} ${token}`, vapid);
  return vapid;
}

export async function startFakePushService(): Promise<FakePushService> {
  /** By path: the receiver's keys, and the endpoint as the subscription spelled it. */
  const keys = new Map<
    string,
    { privateKey: Buffer; publicKey: Buffer; auth: Buffer; ecdh: ECDH }
  >();
  const endpoints = new Map<string, string>();
  const statuses = new Map<string, number>();
  const redirects = new Map<string, string>();
  let connections = 0;
  let requests = 0;
  const vapidKeys = new Map<string, Promise<VapidKey>>();
  const verifiedTokens = new Map<string, Vapid>();
  const received: ReceivedPush[] = [];
  /** The same pushes by endpoint: tests look up thousands of devices one by one. */
  const receivedByEndpoint = new Map<string, ReceivedPush[]>();
  const rejected: string[] = [];
  let origin = '';

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      requests += 1;
      const path = request.url ?? '';
      const endpoint = endpoints.get(path) ?? `${origin}${path}`;
      const receiver = keys.get(path);
      const status = statuses.get(endpoint);
      const location = redirects.get(endpoint);
      if (!receiver || request.method !== 'POST') {
        response.writeHead(404).end();
        return;
      }
      if (location) {
        response.writeHead(307, { location }).end();
        return;
      }
      if (status) {
        response.writeHead(status).end();
        return;
      }
      try {
        if (request.headers['content-encoding'] !== 'aes128gcm')
          throw new Error(`content-encoding ${request.headers['content-encoding']}`);
        const audience = `http://${request.headers.host}`;
        const vapid = await checkVapid(
          request.headers.authorization,
          audience,
          vapidKeys,
          verifiedTokens,
        );
        const plaintext = decryptAes128gcm(Buffer.concat(chunks), receiver);
        const push = {
          endpoint,
          payload: JSON.parse(plaintext.toString('utf8')),
          ...vapid,
          ttl: Number(request.headers.ttl),
          urgency: request.headers.urgency as string | undefined,
        };
        received.push(push);
        const byEndpoint = receivedByEndpoint.get(endpoint);
        if (byEndpoint) byEndpoint.push(push);
        else receivedByEndpoint.set(endpoint, [push]);
        response.writeHead(201, { location: `${origin}/message/${randomUUID()}` }).end();
      } catch (error) {
        rejected.push(`${endpoint}: ${(error as Error).message}`);
        response.writeHead(400).end();
      }
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  // Push services keep a sender's connection open for minutes. Node's default of 5 s lets an
  // app that the file's tests share find its idle connection closed just as it reuses it, and
  // that push fail as a network error.
  server.keepAliveTimeout = 5 * 60 * 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;

  return {
    url: origin,
    subscribe(options = {}) {
      const ecdh = createECDH('prime256v1');
      const publicKey = ecdh.generateKeys();
      const auth = randomBytes(16);
      const path = `/push/${randomUUID()}`;
      const endpoint = `${options.host ? `http://${options.host}:${port}` : origin}${path}`;
      keys.set(path, { privateKey: ecdh.getPrivateKey(), publicKey, auth, ecdh });
      endpoints.set(path, endpoint);
      return {
        endpoint,
        json: { endpoint, expirationTime: null, keys: { p256dh: b64(publicKey), auth: b64(auth) } },
      };
    },
    received,
    receivedBy: (endpoint) => [...(receivedByEndpoint.get(endpoint) ?? [])],
    answer: (endpoint, status) => statuses.set(endpoint, status),
    redirect: (endpoint, location) => redirects.set(endpoint, location),
    connections: () => connections,
    requests: () => requests,
    rejected,
    close: () =>
      new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      ),
  };
}
