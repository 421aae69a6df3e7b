import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';

/**
 * A real OpenID Connect provider (oidc-provider) on 127.0.0.1, standing in for Google in tests.
 * Its login and consent pages are tiny HTTP endpoints that a test drives with plain requests
 * and a cookie jar, the way a browser would, through `authorize()`.
 */

/** The claims Google would vouch for; `sub` is the stable account id. */
export interface OidcAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** GOOGLE_* variables (and PUBLIC_URL) that point the app at this provider. */
  env: Record<string, string>;
  /** Adds or replaces an account the provider can log in as. */
  setAccount(account: OidcAccount): void;
  /**
   * Plays the browser at the provider: opens the authorisation URL, logs in as `sub` and
   * consents (or cancels with `deny`), and returns the redirect back to `redirectUri`.
   */
  authorize(authorizationUrl: string, as: { sub: string } | { deny: true }): Promise<URL>;
  close(): Promise<void>;
}

// oidc-provider ships no type declarations; these are the few parts the helper uses.
interface OidcInteraction {
  uid: string;
  prompt: { name: string; details: Record<string, unknown> };
  params: Record<string, unknown>;
  session?: { accountId?: string };
  grantId?: string;
}
interface OidcGrant {
  addOIDCScope(scope: string): void;
  addOIDCClaims(claims: string[]): void;
  save(): Promise<string>;
}
interface OidcProviderInstance {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<OidcInteraction>;
  interactionFinished(
    req: IncomingMessage,
    res: ServerResponse,
    result: Record<string, unknown>,
    options?: { mergeWithLastSubmission?: boolean },
  ): Promise<void>;
  Grant: {
    new (init: { accountId: string; clientId: string }): OidcGrant;
    find(id: string): Promise<OidcGrant | undefined>;
  };
}
interface OidcProviderModule {
  default: new (issuer: string, configuration: Record<string, unknown>) => OidcProviderInstance;
  interactionPolicy: {
    base(): { add(prompt: unknown): void };
    Prompt: new (options: { name: string; requestable: boolean }) => unknown;
  };
}

/** In-memory storage for the provider's artefacts (its default one warns on every start). */
function memoryAdapter() {
  const store = new Map<string, { payload: Record<string, unknown>; expiresAt: number }>();
  const live = (key: string) => {
    const entry = store.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt < Date.now()) {
      store.delete(key);
      return undefined;
    }
    return entry.payload;
  };
  return class MemoryAdapter {
    constructor(readonly model: string) {}
    key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: Record<string, unknown>, expiresIn: number) {
      store.set(this.key(id), { payload, expiresAt: Date.now() + expiresIn * 1000 });
    }
    async find(id: string) {
      return live(this.key(id));
    }
    async findByUid(uid: string) {
      for (const [key, entry] of store) {
        if (key.startsWith(`${this.model}:`) && entry.payload.uid === uid) return live(key);
      }
      return undefined;
    }
    async findByUserCode(userCode: string) {
      for (const [key, entry] of store) {
        if (key.startsWith(`${this.model}:`) && entry.payload.userCode === userCode) {
          return live(key);
        }
      }
      return undefined;
    }
    async consume(id: string) {
      const payload = live(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, entry] of store) {
        if (entry.payload.grantId === grantId) store.delete(key);
      }
    }
  };
}

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

/** A browser's cookie jar, simplified: one value per name, paths and domains ignored. */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const equals = pair.indexOf('=');
      if (equals <= 0) continue;
      const name = pair.slice(0, equals).trim();
      const expired = attributes.some((attribute) => {
        const [key = '', value = ''] = attribute.trim().split('=');
        if (key.toLowerCase() === 'max-age') return Number(value) <= 0;
        if (key.toLowerCase() === 'expires') return Date.parse(value) < Date.now();
        return false;
      });
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(equals + 1).trim());
    }
  }
}

export async function startOidcProvider(options: {
  /** The app's PUBLIC_URL; the client's redirect URI is its Google callback. */
  publicUrl: string;
}): Promise<TestOidcProvider> {
  // A non-literal specifier: the package has no types, the interfaces above describe it.
  const moduleName = 'oidc-provider';
  const { default: Provider, interactionPolicy } = (await import(moduleName)) as OidcProviderModule;

  const accounts = new Map<string, OidcAccount>();
  const clientId = `pluckers-test-${randomBytes(4).toString('hex')}`;
  const clientSecret = randomBytes(24).toString('base64url');
  const redirectUri = `${options.publicUrl.replace(/\/$/, '')}/api/v1/auth/google/callback`;

  let provider: OidcProviderInstance | undefined;
  let handleProtocol: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server = createServer((req, res) => {
    if (!provider || !handleProtocol) {
      res.writeHead(503).end();
      return;
    }
    if (req.url?.startsWith('/interaction/')) {
      handleInteraction(provider, req, res).catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
      });
      return;
    }
    handleProtocol(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'test' };

  // Google accepts prompt=select_account; the provider must too, resolved with the login.
  const policy = interactionPolicy.base();
  policy.add(new interactionPolicy.Prompt({ name: 'select_account', requestable: true }));

  provider = new Provider(issuer, {
    adapter: memoryAdapter(),
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name'],
    },
    // Like Google: the ID token itself carries the e-mail and name claims.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: {
      policy,
      url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    async findAccount(_ctx: unknown, sub: string) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        async claims() {
          return { ...account };
        },
      };
    },
  });

  handleProtocol = provider.callback();

  async function handleInteraction(
    oidc: OidcProviderInstance,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    const details = await oidc.interactionDetails(req, res);
    if (req.method === 'GET') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ uid: details.uid, prompt: details.prompt.name }));
      return;
    }
    const form = await readForm(req);
    const action = form.get('action');
    if (action === 'abort') {
      await oidc.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'End-User aborted interaction' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (details.prompt.name === 'login' || details.prompt.name === 'select_account') {
      const sub = form.get('sub') ?? details.session?.accountId;
      if (!sub || !accounts.has(sub)) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(`unknown account ${sub}`);
        return;
      }
      await oidc.interactionFinished(
        req,
        res,
        { login: { accountId: sub }, select_account: {} },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (details.prompt.name === 'consent') {
      const accountId = details.session?.accountId;
      const clientIdParam = String(details.params.client_id);
      const grant =
        (details.grantId ? await oidc.Grant.find(details.grantId) : undefined) ??
        new oidc.Grant({ accountId: accountId ?? '', clientId: clientIdParam });
      const missingScope = details.prompt.details.missingOIDCScope;
      if (Array.isArray(missingScope)) grant.addOIDCScope(missingScope.join(' '));
      const missingClaims = details.prompt.details.missingOIDCClaims;
      if (Array.isArray(missingClaims)) grant.addOIDCClaims(missingClaims.map(String));
      await oidc.interactionFinished(
        req,
        res,
        { consent: { grantId: await grant.save() } },
        { mergeWithLastSubmission: true },
      );
      return;
    }
    res.writeHead(501, { 'content-type': 'text/plain' }).end(`prompt ${details.prompt.name}`);
  }

  async function authorize(
    authorizationUrl: string,
    as: { sub: string } | { deny: true },
  ): Promise<URL> {
    const jar = new CookieJar();
    const go = async (url: URL, init: RequestInit = {}) => {
      const response = await fetch(url, {
        ...init,
        redirect: 'manual',
        headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
      });
      jar.store(response);
      return response;
    };
    let response = await go(new URL(authorizationUrl));
    for (let step = 0; step < 12; step += 1) {
      const location = response.headers.get('location');
      if (!location) {
        throw new Error(
          `the provider answered ${response.status} without a redirect: ${await response.text()}`,
        );
      }
      const next = new URL(location, issuer);
      if (`${next.origin}${next.pathname}` === redirectUri) return next;
      if (!next.pathname.startsWith('/interaction/')) {
        response = await go(next);
        continue;
      }
      const interaction = (await (await go(next)).json()) as { prompt: string };
      const form = new URLSearchParams(
        'deny' in as ? { action: 'abort' } : { action: interaction.prompt, sub: as.sub },
      );
      response = await go(next, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      });
    }
    throw new Error('the provider kept redirecting');
  }

  return {
    issuer,
    clientId,
    clientSecret,
    redirectUri,
    env: {
      PUBLIC_URL: options.publicUrl,
      GOOGLE_ISSUER: issuer,
      GOOGLE_CLIENT_ID: clientId,
      GOOGLE_CLIENT_SECRET: clientSecret,
    },
    setAccount(account) {
      accounts.set(account.sub, account);
    },
    authorize,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
