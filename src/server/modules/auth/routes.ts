import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loginErrorPath } from '../../../shared/login-errors.ts';
import {
  emailBodySchema,
  emailQuerySchema,
  loginResponseSchema,
  loginSchema,
  registerSchema,
  resetPasswordSchema,
  validateTokenResponseSchema,
  verifyEmailSchema,
} from '../../../shared/schemas/auth.ts';
import { envelope, messageSchema, redirectSchema } from '../../../shared/schemas/common.ts';
import type { AppConfig } from '../../config.ts';
import { AppError, ErrorCode } from '../../errors.ts';
import { describeWait } from '../../lib/describe-wait.ts';
import { originOf, requireUser } from '../../plugins/auth.ts';
import { createGoogleClient, GoogleLoginError } from './google.ts';
import {
  AUTH_MESSAGES,
  authContextOf,
  forgotPassword,
  login,
  register,
  resendVerificationLink,
  resetPassword,
  sendSignupCode,
  validateOneTimeLink,
  verifyEmailCode,
} from './service.ts';

const MINUTE = 60_000;

/**
 * Per-client and per-e-mail limits of the routes that send mail or check codes, counted in
 * memory per instance (password login has its own limits, shared by every instance:
 * login-limits.ts). The per-e-mail limits protect a person (no flood of mail, no run of code
 * guesses; a code also locks after 5 wrong tries). The per-client limits only have to stop
 * one machine spraying many addresses, and a client address can be a mobile carrier's NAT
 * with hundreds of subscribers behind it: 60 mails and 100 code checks per 15 minutes leave
 * room for a busy network's sign-ups and typos, while a spray from one address stays small
 * (60 sign-ups are ~3 s of password hashing).
 */
const LIMITS = {
  code: { perIp: 100, perEmail: 10 },
  resend: { perIp: 60, perEmail: 5 },
} as const;

function emailOf(request: FastifyRequest): string {
  const body = request.body as { email?: unknown } | undefined;
  const query = request.query as { email?: unknown } | undefined;
  const email = body?.email ?? query?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : '';
}

function tooMany(_request: FastifyRequest, context: { after: string }) {
  return {
    statusCode: 429,
    code: ErrorCode.TooManyRequests,
    message: `Too many attempts. Please try again in ${context.after}.`,
  };
}

export async function authRoutes(app: FastifyInstance, { config }: { config: AppConfig }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const context = authContextOf(app, config.publicUrl);

  // Per-address counters, one per kind, shared by every route of that kind. They are checked
  // by hand: a second `app.rateLimit()` handler on a route is skipped once the route's own
  // per-IP limit has run for the request, so it would never refuse anything.
  const emailLimiters = new Map<keyof typeof LIMITS, ReturnType<typeof app.createRateLimit>>();
  const limitPerEmail = (kind: keyof typeof LIMITS) => {
    let limiter = emailLimiters.get(kind);
    if (!limiter) {
      limiter = app.createRateLimit({
        max: LIMITS[kind].perEmail,
        timeWindow: 15 * MINUTE,
        keyGenerator: (request) => `${kind}:${emailOf(request)}`,
      });
      emailLimiters.set(kind, limiter);
    }
    const check = limiter;
    return async (request: FastifyRequest, reply: FastifyReply) => {
      if (!emailOf(request)) return;
      const result = await check(request);
      if (result.isAllowed || !result.isExceeded) return;
      reply.header('retry-after', result.ttlInSeconds);
      throw new AppError(
        ErrorCode.TooManyRequests,
        `Too many attempts. Please try again in ${describeWait(result.ttlInSeconds)}.`,
      );
    };
  };

  const limits = (kind: keyof typeof LIMITS) => ({
    config: {
      rateLimit: {
        max: LIMITS[kind].perIp,
        timeWindow: 15 * MINUTE,
        errorResponseBuilder: tooMany,
      },
    },
    preHandler: limitPerEmail(kind),
  });

  typed.post(
    '/auth/register',
    {
      ...limits('resend'),
      schema: {
        tags: ['auth'],
        summary: 'Sign up; sends a verification link and code',
        description:
          'An e-mail that already has an account gets the same answer as a new one, and its owner is e-mailed instead. A taken username answers 409. ageConfirmed: false answers 400; without the field the account must confirm 18+ (POST /user/confirm-age) before its first play, top-up or plan.',
        body: registerSchema,
        response: { 201: messageSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ message: await register(context, request.body) }),
  );

  typed.post(
    '/auth/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Log in with e-mail and password',
        description:
          'Failed logins are limited per e-mail and client, per e-mail from clients its owner has not signed in from, and per client; a limited attempt answers 429 with Retry-After.',
        body: loginSchema,
        response: { 200: envelope(loginResponseSchema) },
      },
    },
    async (request) => ({
      message: 'Welcome back',
      data: await login(context, request.body, originOf(request)),
    }),
  );

  typed.post(
    '/auth/resend-token',
    {
      ...limits('resend'),
      schema: {
        tags: ['auth'],
        summary: 'Re-send the verification link to an unverified account',
        querystring: emailQuerySchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => ({ message: resendVerificationLink(context, request.query.email) }),
  );

  typed.post(
    '/auth/resend-token/email',
    {
      ...limits('resend'),
      schema: {
        tags: ['auth'],
        summary: 'Send a 6-digit code to verify an e-mail before signing up',
        description:
          'Answers alike for every address; the owner of an address already verified on an account is told instead of getting a code.',
        body: emailBodySchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => ({ message: await sendSignupCode(context, request.body.email) }),
  );

  typed.post(
    '/auth/verify-email',
    {
      ...limits('code'),
      schema: {
        tags: ['auth'],
        summary: 'Verify an e-mail address with its 6-digit code',
        body: verifyEmailSchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => ({
      message: await verifyEmailCode(context, request.body.email, request.body.otp),
    }),
  );

  typed.get(
    '/auth/validate-user/:token',
    {
      config: {
        rateLimit: {
          max: LIMITS.code.perIp,
          timeWindow: 15 * MINUTE,
          errorResponseBuilder: tooMany,
        },
      },
      schema: {
        tags: ['auth'],
        summary: 'Use a one-time link (e-mail verification or Google hand-off)',
        params: z.object({ token: z.string().min(1).max(200) }),
        response: { 200: envelope(validateTokenResponseSchema) },
      },
    },
    async (request) => ({
      message: 'Your account is verified',
      data: {
        access_token: await validateOneTimeLink(context, request.params.token, originOf(request)),
      },
    }),
  );

  typed.post(
    '/auth/forgot-password',
    {
      ...limits('resend'),
      schema: {
        tags: ['auth'],
        summary: 'Send a password reset code (always answers 200)',
        body: emailBodySchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => ({ message: forgotPassword(context, request.body.email) }),
  );

  typed.post(
    '/auth/reset-password',
    {
      ...limits('code'),
      schema: {
        tags: ['auth'],
        summary: 'Choose a new password with the reset code',
        body: resetPasswordSchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => ({ message: await resetPassword(context, request.body, request.ip) }),
  );

  const google = config.google
    ? createGoogleClient(config.google, `${config.publicUrl}/api/v1/auth/google/callback`)
    : null;
  // Ties a Google login to the browser that started it (login CSRF): the callback must come
  // with the state handed out here. Lax: the provider's redirect back is a top-level GET.
  const STATE_COOKIE = 'pluckers_google_state';
  const stateCookie = (value: string, maxAgeSeconds: number) =>
    [
      `${STATE_COOKIE}=${value}`,
      'Path=/api/v1/auth/google',
      'HttpOnly',
      'SameSite=Lax',
      `Max-Age=${maxAgeSeconds}`,
      ...(config.publicUrl.startsWith('https://') ? ['Secure'] : []),
    ].join('; ');
  const stateFromCookie = (request: FastifyRequest): string | undefined => {
    for (const pair of (request.headers.cookie ?? '').split(';')) {
      const [name, ...value] = pair.trim().split('=');
      if (name === STATE_COOKIE) return value.join('=');
    }
    return undefined;
  };

  typed.get(
    '/auth/google',
    {
      schema: {
        tags: ['auth'],
        summary: "Redirects to Google's sign-in page",
        response: { 302: redirectSchema("Google's sign-in page, or /login with an error") },
      },
    },
    async (_request, reply) => {
      if (!google) return reply.redirect(loginErrorPath('google_unavailable'));
      try {
        const { url, state } = await google.authorizationUrl(app.db, app.clock.now());
        reply.header('set-cookie', stateCookie(state, 600));
        return reply.redirect(url);
      } catch (error) {
        app.log.warn({ err: error }, 'google login: could not reach the provider');
        return reply.redirect(loginErrorPath('google_unavailable'));
      }
    },
  );

  typed.get(
    '/auth/google/callback',
    {
      schema: {
        tags: ['auth'],
        summary: 'Where Google sends the player back',
        response: {
          302: redirectSchema('/auth/validate/<one-time token>, or /login with an error'),
        },
      },
    },
    async (request, reply) => {
      if (!google) return reply.redirect(loginErrorPath('google_unavailable'));
      reply.header('set-cookie', stateCookie('', 0));
      try {
        const { userId, oneTimeToken } = await google.complete(
          app.db,
          new URL(request.url, config.publicUrl),
          app.clock.now(),
          stateFromCookie(request),
        );
        // Linking by e-mail may have revoked an unproven password's sessions.
        app.tokens.forgetUser(userId);
        return reply.redirect(`/auth/validate/${oneTimeToken}`);
      } catch (error) {
        const code = error instanceof GoogleLoginError ? error.code : 'google_failed';
        if (!(error instanceof GoogleLoginError))
          app.log.warn({ err: error }, 'google login failed');
        return reply.redirect(loginErrorPath(code));
      }
    },
  );
}

/** A signed-in player's own sessions (registered in the players' scope: api.ts). */
export async function sessionRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/auth/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'Log out: revokes this token on the server',
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      await app.tokens.revokeSession(requireUser(request).sessionId);
      return { message: AUTH_MESSAGES.loggedOut };
    },
  );

  typed.post(
    '/auth/logout-all',
    {
      schema: {
        tags: ['auth'],
        summary: 'Log out of all devices: revokes every token of the account, this one included',
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      await app.tokens.revokeAllSessions(requireUser(request).id);
      return { message: AUTH_MESSAGES.loggedOutEverywhere };
    },
  );
}
