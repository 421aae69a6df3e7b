import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Dojah's Nigeria KYC lookups on 127.0.0.1, speaking the documented
 * shapes (providers/kyc/dojah.ts): `GET /api/v1/kyc/nin?nin=` and `GET /api/v1/kyc/bvn/full?bvn=`
 * with the `AppId` and `Authorization` headers, `{ entity: {...} }` when found, 400
 * `{ error: "... not found" }` when not. Tests register identities and can take it down.
 */
export interface FakeDojahIdentity {
  first_name: string;
  middle_name?: string;
  last_name: string;
  /** As Dojah writes it: NIN `1993-05-06`, BVN `01-January-1907`. */
  date_of_birth: string;
  /** A BVN record's NIN of the holder. */
  nin?: string;
}

export interface FakeDojah {
  url: string;
  appId: string;
  secretKey: string;
  /** KYC_* variables that point the app at this server. */
  env: Record<string, string>;
  /** Lookups received: type and whether the credentials were right (never the number kept). */
  requests: Array<{ path: string; authorised: boolean }>;
  add(idType: 'BVN' | 'NIN', idNumber: string, identity: FakeDojahIdentity): void;
  /** 'error': answers 500; 'hang-up': drops the connection; null: back up. */
  setOutage(outage: 'error' | 'hang-up' | null): void;
  close(): Promise<void>;
}

export async function startFakeDojah(): Promise<FakeDojah> {
  const appId = `app_${randomBytes(6).toString('hex')}`;
  const secretKey = `test_sk_${randomBytes(12).toString('hex')}`;
  const identities = new Map<string, FakeDojahIdentity>();
  const requests: FakeDojah['requests'] = [];
  let outage: 'error' | 'hang-up' | null = null;

  const send = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const authorised =
      request.headers.appid === appId && request.headers.authorization === secretKey;
    requests.push({ path: url.pathname, authorised });
    if (outage === 'hang-up') {
      request.socket.destroy();
      return;
    }
    if (outage === 'error') return send(response, 500, { error: 'Internal Server Error' });
    if (!authorised) return send(response, 401, { error: 'Invalid credentials' });
    const lookup =
      request.method === 'GET' && url.pathname === '/api/v1/kyc/nin'
        ? { type: 'NIN', number: url.searchParams.get('nin') }
        : request.method === 'GET' && url.pathname === '/api/v1/kyc/bvn/full'
          ? { type: 'BVN', number: url.searchParams.get('bvn') }
          : null;
    if (!lookup) return send(response, 404, { error: 'Not found' });
    const identity = identities.get(`${lookup.type}:${lookup.number}`);
    if (!identity) return send(response, 400, { error: `${lookup.type} not found` });
    const entity =
      lookup.type === 'NIN'
        ? {
            ...identity,
            middle_name: identity.middle_name ?? '',
            nin: lookup.number,
            gender: 'F',
            phone_number: '08012345678',
            image: '/9j/4AAQSkZJRg...',
          }
        : {
            ...identity,
            middle_name: identity.middle_name ?? '',
            bvn: lookup.number,
            phone_number1: '08012345678',
            phone_number2: '',
            gender: 'Female',
            reference: `dojah-${randomBytes(5).toString('hex')}`,
          };
    send(response, 200, { entity });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    appId,
    secretKey,
    env: { KYC_APP_ID: appId, KYC_SECRET_KEY: secretKey, KYC_BASE_URL: url },
    requests,
    add(idType, idNumber, identity) {
      identities.set(`${idType}:${idNumber}`, identity);
    },
    setOutage(next) {
      outage = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
