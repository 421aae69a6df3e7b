import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { GAME_TYPES, type GameType } from '../../../shared/constants.ts';
import { gameListQuerySchema } from '../../../shared/schemas/games.ts';
import type { AppConfig } from '../../config.ts';
import { acceptsGzip, COMPRESSION_THRESHOLD_BYTES, gzipOnce } from '../../lib/compression.ts';
import { noneMatchHits } from '../../lib/etag.ts';
import { holdsUnstorableText } from '../../plugins/input-guard.ts';
import type { PreparedList } from './list-cache.ts';

/** The route of GET /game, as the metrics label it. */
export const GAME_LIST_ROUTE = '/api/v1/game';

/** What GET /game answers with a prepared list: status, the route's own headers, body. */
export interface ListAnswer {
  readonly statusCode: 200 | 304;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer | undefined;
  /** `headers` and the body's content-length as name, value, name, value… (node:http's form). */
  readonly headerList: readonly string[];
}

/** A prepared list's three answers: not modified, plain, gzip. Made when first asked for. */
const answers = new WeakMap<PreparedList, Array<ListAnswer | undefined>>();
const NOT_MODIFIED = 0;
const PLAIN = 1;
const GZIP = 2;

function makeAnswer(prepared: PreparedList, variant: number): ListAnswer {
  const headers: Record<string, string> = {
    etag: prepared.etag,
    'cache-control': 'private, no-cache',
    vary: 'accept-encoding',
  };
  let body: Buffer | undefined;
  if (variant !== NOT_MODIFIED) {
    headers['content-type'] = 'application/json; charset=utf-8';
    if (variant === GZIP) headers['content-encoding'] = 'gzip';
    body = variant === GZIP ? gzipOnce(prepared.body) : prepared.body;
  }
  const headerList = Object.entries(headers).flat();
  if (body) headerList.push('content-length', String(body.length));
  return { statusCode: variant === NOT_MODIFIED ? 304 : 200, headers, body, headerList };
}

/**
 * GET /game's answer from a prepared list, the one place that decides it for both ways of
 * sending it (the route, and `gameListReadsPlugin` below). Private: the played marks make it
 * this player's; no-cache: the browser keeps it and asks again with its tag, and a list
 * unchanged since costs a 304 of no body. Each answer, its gzip included, is made once per
 * prepared list and reused while the list lives.
 */
export function listAnswer(
  prepared: PreparedList,
  ifNoneMatch: string | undefined,
  acceptEncoding: string | undefined,
): ListAnswer {
  const variant = noneMatchHits(ifNoneMatch, prepared.etag)
    ? NOT_MODIFIED
    : prepared.body.length >= COMPRESSION_THRESHOLD_BYTES && acceptsGzip(acceptEncoding)
      ? GZIP
      : PLAIN;
  let made = answers.get(prepared);
  if (!made) {
    made = [];
    answers.set(prepared, made);
  }
  let answer = made[variant];
  if (!answer) {
    answer = makeAnswer(prepared, variant);
    made[variant] = answer;
  }
  return answer;
}

/** The request targets the fast way answers, each with the list it asks for. */
const LIST_TARGETS = new Map<string, GameType>([
  [GAME_LIST_ROUTE, gameListQuerySchema.parse({}).gameType],
  ...GAME_TYPES.map((type): [string, GameType] => [`${GAME_LIST_ROUTE}?gameType=${type}`, type]),
]);

/** As app.ts's one line per request: a successful read slower than this is logged at info. */
const SLOW_READ_MS = 1_000;

/** Known clients' addresses (Fastify's `request.ip`) by socket address and X-Forwarded-For. */
const REMEMBERED_ADDRESSES = 10_000;

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * Cached game-list reads answered on the raw request, before Fastify's request cycle: the
 * lists are the same prepared bytes for every player until a game changes, and at the read
 * path's rates Fastify's cycle and the hooks every request passes (security headers, the
 * per-client limit, the input guard, the token check, query validation, the per-request logger,
 * metrics) cost as much CPU as writing the answer. Only a request this way answers exactly as
 * the route would is taken: `GET /api/v1/game` with no query or `?gameType=<a list>` and
 * nothing else, no body, no Origin (CORS), whose token, account, session, the client's
 * rate-limit units and the list are all in memory. It then gets what the hooks would have
 * given it: the security headers, the rate-limit headers (the request counted once), the
 * route's answer (`listAnswer`), a count in the request metrics. Anything else (a refusal to
 * give, a cache to fill, a limit to claim, debug logging on, the server draining or closing)
 * goes to Fastify untouched, which then answers it the ordinary way.
 */
export const gameListReadsPlugin = fp<{ config: AppConfig }>(
  async function gameListReads(app: FastifyInstance, { config }) {
    // Cross-origin deployments get CORS headers from @fastify/cors on every answer: left to it.
    if (config.corsOrigins.length > 0) return;
    const server = app.server;
    const [listening, ...others] = server.listeners('request') as Handler[];
    if (!listening || others.length > 0) return;
    const fastifyHandler: Handler = listening;
    // Successful reads are logged at debug (app.ts): a server logging them takes Fastify's way.
    const logsReads = ['debug', 'trace'].includes(config.logLevel);

    const securityHeaderList = Object.entries(app.documentSecurityHeaders).flat();
    let closing = false;
    app.addHook('preClose', (done) => {
      closing = true;
      done();
    });

    // With trusted proxies, a client's address is Fastify's reading of X-Forwarded-For (its
    // `trustProxy`): each one Fastify worked out is remembered for the same socket address and
    // header, and a request whose pair it has not seen yet goes to Fastify first.
    const trustsProxies = config.trustProxy !== false;
    const addresses = new Map<string, string>();
    const addressKey = (request: IncomingMessage) =>
      `${request.socket.remoteAddress ?? ''}|${request.headers['x-forwarded-for'] ?? ''}`;
    if (trustsProxies)
      app.addHook('onRequest', (request, _reply, done) => {
        if (request.url.startsWith(GAME_LIST_ROUTE)) {
          const key = addressKey(request.raw);
          if (!addresses.has(key)) {
            if (addresses.size >= REMEMBERED_ADDRESSES) addresses.clear();
            addresses.set(key, request.ip);
          }
        }
        done();
      });
    const clientAddress = (request: IncomingMessage): string | undefined =>
      trustsProxies ? addresses.get(addressKey(request)) : request.socket.remoteAddress;

    /** The answer, when every part of it is at hand; false when Fastify must answer. */
    function answerCached(
      request: IncomingMessage,
      response: ServerResponse,
      type: GameType,
      caller: { currentUser: FastifyRequest['currentUser'] },
      address: string,
      startedAt: number,
    ): boolean {
      const user = caller.currentUser;
      if (!user || closing || app.lifecycle.draining) return false;
      const prepared = app.gameLists.cachedResponse(type, user.id);
      if (!prepared) return false;
      // Last, as it counts the request: nothing may send it to Fastify after this.
      const limitHeaders = app.apiRateLimit.passAtOnce(address, Date.now());
      if (!limitHeaders) return false;
      const answer = listAnswer(
        prepared,
        request.headers['if-none-match'],
        request.headers['accept-encoding'],
      );
      response.writeHead(
        answer.statusCode,
        securityHeaderList.concat(limitHeaders, answer.headerList),
      );
      response.end(answer.body);
      const seconds = (performance.now() - startedAt) / 1000;
      app.metrics.countRequest('GET', GAME_LIST_ROUTE, answer.statusCode, seconds);
      return true;
    }

    /** Fastify's way, unless an answer was begun (then only a failure's record is left). */
    function fallBack(request: IncomingMessage, response: ServerResponse): void {
      if (response.headersSent) response.destroy();
      else fastifyHandler(request, response);
    }

    function route(request: IncomingMessage, response: ServerResponse): void {
      const type = request.method === 'GET' ? LIST_TARGETS.get(request.url ?? '') : undefined;
      const headers = request.headers;
      if (
        type === undefined ||
        closing ||
        app.lifecycle.draining ||
        headers.origin !== undefined ||
        headers['content-length'] !== undefined ||
        headers['transfer-encoding'] !== undefined ||
        logsReads ||
        holdsUnstorableText(headers)
      ) {
        fastifyHandler(request, response);
        return;
      }
      const address = clientAddress(request);
      // A client that must wait for its limit, or is refused, is no one's to authenticate here.
      if (address === undefined || !app.apiRateLimit.canPassAtOnce(address, Date.now())) {
        fastifyHandler(request, response);
        return;
      }
      authenticateAndAnswer(request, response, type, address, performance.now());
    }

    function authenticateAndAnswer(
      request: IncomingMessage,
      response: ServerResponse,
      type: GameType,
      address: string,
      startedAt: number,
    ): void {
      const caller = { headers: request.headers, currentUser: null } as unknown as FastifyRequest;
      // The token check answers at once when the token, account and session are remembered;
      // otherwise it reads them (requests of one account that arrive together share the read:
      // the auth plugin's account cache), and either way its answer is what the route's hook
      // would get.
      app.authenticate(caller, undefined as unknown as FastifyReply, (error) => {
        guarded(request, response, () => {
          if (error || !answerCached(request, response, type, caller, address, startedAt)) {
            fallBack(request, response);
            return;
          }
          const ms = performance.now() - startedAt;
          if (ms >= SLOW_READ_MS)
            app.log.info(
              { method: 'GET', path: GAME_LIST_ROUTE, statusCode: response.statusCode, ms },
              'request',
            );
        });
      });
    }

    /** A failure here must cost the request its fast way, never the process. */
    function guarded(request: IncomingMessage, response: ServerResponse, work: () => void): void {
      try {
        work();
      } catch (error) {
        app.log.error({ err: error }, 'cached game-list read failed; answered the ordinary way');
        fallBack(request, response);
      }
    }

    server.removeListener('request', fastifyHandler);
    server.on('request', (request: IncomingMessage, response: ServerResponse) =>
      guarded(request, response, () => route(request, response)),
    );
  },
  {
    name: 'game-list-reads',
    dependencies: ['game-lists', 'auth', 'rate-limits', 'security', 'lifecycle', 'metrics'],
  },
);
