import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { classifyAddress, parseIPv4 } from '../../lib/internal-address.ts';

/**
 * Where the server may post a push. A browser hands the server its push endpoint, and the
 * server then posts to it on every event: any URL accepted here is a request the server makes
 * on a stranger's say-so. So an endpoint must be https on a known push service (the configured
 * host names), and every connection goes to an address checked at that moment by the lookup
 * that makes it: never this machine, its network or a cloud metadata service, even when the
 * name pointed elsewhere at subscribe time.
 *
 * `allowLocal` (PUSH_ALLOW_LOCAL_ENDPOINTS, refused in production) also lets through endpoints
 * on loopback, over http too, on any port: the tests' local push service. Private, link-local
 * and metadata addresses stay refused even then.
 */
export interface PushEndpointRules {
  /** Host names, or `*.suffix` for any name under the suffix (not the suffix itself). */
  serviceHosts: readonly string[];
  allowLocal: boolean;
}

export type Resolve = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

/** The endpoint may not be posted to: a subscription that leads nowhere the server may go. */
export class RefusedPushEndpoint extends Error {}

const systemResolve: Resolve = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** A name that does not answer at subscribe time is let through: the send checks it again. */
const VET_TIMEOUT_MS = 3_000;

export function matchesServiceHost(hostname: string, patterns: readonly string[]): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return patterns.some((pattern) =>
    pattern.startsWith('*.') ? name.endsWith(pattern.slice(1)) : name === pattern,
  );
}

/** The URL's host without IPv6 brackets. */
const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** An IP address written as the host (URL parsing turns 2130706433 into 127.0.0.1 already). */
const isAddressHost = (host: string) => host.includes(':') || parseIPv4(host) !== null;

/**
 * What can be told from the URL alone. Push services are reached by name on the default https
 * port, with no credentials in the URL; an address as host is never a push service's.
 */
export function checkEndpointUrl(endpoint: string, rules: PushEndpointRules): URL {
  if (!URL.canParse(endpoint)) throw new RefusedPushEndpoint('not a URL');
  const url = new URL(endpoint);
  if (url.username || url.password) throw new RefusedPushEndpoint('credentials in the URL');
  const host = bareHost(url);
  if (rules.allowLocal && (url.protocol === 'http:' || url.protocol === 'https:')) {
    if (isAddressHost(host) && classifyAddress(host) === 'loopback') return url;
    if (matchesServiceHost(host, rules.serviceHosts)) return url;
  }
  if (url.protocol !== 'https:') throw new RefusedPushEndpoint(`${url.protocol} is not https`);
  if (url.port !== '') throw new RefusedPushEndpoint(`port ${url.port}`);
  if (isAddressHost(host))
    throw new RefusedPushEndpoint(`${host} is an address, not a push service`);
  if (!matchesServiceHost(host, rules.serviceHosts))
    throw new RefusedPushEndpoint(`${host} is not a known push service`);
  return url;
}

/**
 * The one address to connect to among a name's answers. Any answer inside refuses the name as
 * a whole: a push service has no business resolving there, and trying the next answer would let
 * a name mix a public address with an internal one.
 */
export function pickAddress(
  hostname: string,
  answers: Array<{ address: string; family: number }>,
  rules: PushEndpointRules,
): { address: string; family: number } {
  const first = answers[0];
  if (!first) throw new Error(`${hostname} resolves to no address`);
  for (const { address } of answers) {
    const kind = classifyAddress(address);
    if (kind === 'public' || (kind === 'loopback' && rules.allowLocal)) continue;
    throw new RefusedPushEndpoint(
      `${hostname} resolves to ${kind ?? 'an unknown'} address ${address}`,
    );
  }
  return first;
}

export interface PushEndpoints {
  rules: PushEndpointRules;
  /** At subscribe time: the URL, then where its name points now. Throws RefusedPushEndpoint. */
  vet(endpoint: string): Promise<void>;
  /**
   * Posts to the endpoint through the pinned lookup, following no redirect. Resolves to the
   * status; throws RefusedPushEndpoint for an endpoint that may not be reached, any other error
   * for a network failure.
   */
  post(
    endpoint: string,
    request: { method: string; headers: Record<string, string>; body: Buffer | null },
    timeoutMs: number,
  ): Promise<number>;
}

export function pushEndpoints(
  rules: PushEndpointRules,
  resolve: Resolve = systemResolve,
): PushEndpoints {
  /**
   * The lookup of every connection: resolves, checks and hands the socket the address it
   * checked, so no second resolution (a DNS rebind between check and connect) can lead inside.
   */
  const lookup: LookupFunction = (hostname, options, callback) => {
    resolve(hostname)
      .then((answers) => {
        const { address, family } = pickAddress(hostname, answers, rules);
        if (options.all) callback(null, [{ address, family }]);
        else callback(null, address, family);
      })
      .catch((error: Error) => callback(error as NodeJS.ErrnoException, ''));
  };
  // Kept alive: a page of 500 pushes to one push service is a few connections, not 500.
  const agents = {
    'http:': new http.Agent({ keepAlive: true, lookup }),
    'https:': new https.Agent({ keepAlive: true, lookup }),
  };

  return {
    rules,
    async vet(endpoint) {
      const host = bareHost(checkEndpointUrl(endpoint, rules));
      if (isAddressHost(host)) {
        pickAddress(host, [{ address: host, family: host.includes(':') ? 6 : 4 }], rules);
        return;
      }
      let timer: NodeJS.Timeout | undefined;
      const answers = await Promise.race([
        resolve(host),
        new Promise<null>((done) => {
          timer = setTimeout(() => done(null), VET_TIMEOUT_MS);
        }),
      ])
        .catch(() => null)
        .finally(() => clearTimeout(timer));
      if (answers && answers.length > 0) pickAddress(host, answers, rules);
    },
    post(endpoint, request, timeoutMs) {
      const url = checkEndpointUrl(endpoint, rules);
      const host = bareHost(url);
      // A socket given an address as host never calls its lookup: checked here instead.
      if (isAddressHost(host))
        pickAddress(host, [{ address: host, family: host.includes(':') ? 6 : 4 }], rules);
      const protocol = url.protocol as 'http:' | 'https:';
      const client = protocol === 'https:' ? https : http;
      return new Promise<number>((done, fail) => {
        const outgoing = client.request(
          url,
          {
            method: request.method,
            headers: request.headers,
            agent: agents[protocol],
            lookup,
            signal: AbortSignal.timeout(timeoutMs),
          },
          (response) => {
            // The body says nothing we act on; a redirect's Location is not followed.
            response.resume();
            done(response.statusCode ?? 0);
          },
        );
        outgoing.on('error', fail);
        outgoing.end(request.body ?? undefined);
      });
    },
  };
}
