import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { ERROR_MESSAGES } from '../../../shared/messages.ts';
import type { LoginBody, RegisterBody } from '../../../shared/schemas/auth.ts';
import type { User } from '../../../shared/schemas/users.ts';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { users, verifiedEmails } from '../../db/schema.ts';
import { AppError, badRequest, conflict, ErrorCode, forbidden } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { toE164 } from '../../lib/phone.ts';
import type { SessionOrigin } from '../../plugins/auth.ts';
import type { MailMessage } from '../../providers/mail.ts';
import { loadApiUser } from '../users/serialize.ts';
import { consumeCode, issueCode } from './codes.ts';
import { resetCodeMail, signupAttemptMail, signupCodeMail, verificationMail } from './emails.ts';
import {
  admitLoginAttempt,
  recordLoginFailure,
  recordLoginSuccess,
  recordPasswordReset,
  rememberNetwork,
} from './login-limits.ts';
import { consumeOneTimeToken, createOneTimeToken, revokeOneTimeTokens } from './one-time-tokens.ts';
import {
  COMMON_PASSWORD_MESSAGE,
  hashPassword,
  isCommonPassword,
  verifyPassword,
} from './passwords.ts';

export interface AuthContext {
  db: Database;
  clock: Clock;
  /** Server secret that keys the code hashes. */
  pepper: Uint8Array;
  publicUrl: string;
  sendMail: (message: MailMessage) => Promise<boolean>;
  /** Opens a server-side session and returns its token. */
  signToken: (
    user: { id: string; tokenVersion: number },
    origin?: SessionOrigin,
  ) => Promise<string>;
  /** After a committed change to a user's token version, suspension or deletion. */
  forgetSessions: (userId: string) => void;
  /**
   * Work done after the answer is sent (tracked; failures logged): whatever depends on whether
   * an account exists, so neither the answer nor its timing tells.
   */
  afterResponse: (name: string, task: () => Promise<unknown>) => void;
}

export const AUTH_MESSAGES = {
  registered: 'Account created. Check your e-mail for a link or code to verify it.',
  registeredVerified: 'Account created. You can log in now.',
  /** Profile e-mail changes only: sign-up never says whether an e-mail has an account. */
  emailTaken: 'An account with this e-mail already exists',
  usernameTaken: 'This username is already taken',
  unverified: 'Please verify your e-mail address to continue',
  suspended: 'Your account is suspended. Contact support for help.',
  resent: 'If this e-mail needs verifying, we have sent a new link. Check your inbox.',
  codeSent: 'We have sent a 6-digit code to your e-mail',
  emailVerified: 'E-mail verified',
  badLink: 'This link is invalid or has expired. Request a new one from the login page.',
  forgot: 'If an account exists for this e-mail, we have sent a reset code. Check your inbox.',
  reset: 'Your password has been reset. Log in with your new password.',
  loggedOut: 'You have been logged out',
  loggedOutEverywhere: 'You have been logged out of all devices',
} as const;

const byEmail = (email: string) => eq(sql`lower(${users.email})`, email.toLowerCase());
const byHandle = (handle: string) => eq(sql`lower(${users.handle})`, handle.toLowerCase());

export function assertStrongPassword(password: string): void {
  if (isCommonPassword(password)) throw badRequest(COMMON_PASSWORD_MESSAGE);
}

/** Which of a refused sign-up's handle and e-mail an account already has. */
async function signupClash(db: Database, body: RegisterBody) {
  const holders = await db
    .select({ handle: users.handle, email: users.email })
    .from(users)
    .where(or(byHandle(body.username), byEmail(body.email)));
  const handle = body.username.toLowerCase();
  return {
    handleTaken: holders.some((holder) => holder.handle.toLowerCase() === handle),
    ownerEmail: holders.find((holder) => holder.email.toLowerCase() === body.email.toLowerCase())
      ?.email,
  };
}

async function accountWithEmail(db: Database, email: string) {
  const [owner] = await db
    .select({ id: users.id, email: users.email, verifiedAt: users.emailVerifiedAt })
    .from(users)
    .where(byEmail(email))
    .limit(1);
  return owner;
}

/** Someone signed up (or asked for a sign-up code) with an address that has an account. */
function tellOwnerOfSignupAttempt(ctx: AuthContext, email: string) {
  ctx.afterResponse('sign-up attempt notice', () =>
    ctx.sendMail(signupAttemptMail(email, ctx.publicUrl)),
  );
}

export async function sendVerification(
  ctx: AuthContext,
  user: { id: string; email: string; fullname: string },
  options: { ignoreCooldown?: boolean; requestedAt?: Date } = {},
) {
  const now = options.requestedAt ?? ctx.clock.now();
  // The code first: inside the resend cooldown it refuses before a link is made for nothing.
  const code = await issueCode(
    ctx.db,
    ctx.pepper,
    user.email.toLowerCase(),
    'verify_email',
    now,
    options,
  );
  // Only the newest link verifies: an older one may have gone to an address the account no
  // longer has (this also runs when the e-mail is changed).
  await revokeOneTimeTokens(ctx.db, user.id, 'validate_email', now);
  const token = await createOneTimeToken(ctx.db, user.id, 'validate_email', now);
  const link = `${ctx.publicUrl}/auth/validate/${token}`;
  await ctx.sendMail(
    verificationMail(user.email, user.fullname.split(' ')[0] ?? user.fullname, link, code),
  );
}

/**
 * One statement: it spends the address's sign-up code proof, if any, and PostgreSQL binds the
 * account to a break of the person it belongs to as it is made (users_bind_person), so sign-up
 * tells no one about the break and no crash leaves the account unbound.
 */
async function createAccount(db: Database, body: RegisterBody, passwordHash: string, now: Date) {
  const proven = db
    .$with('proven')
    .as(
      db
        .delete(verifiedEmails)
        .where(eq(verifiedEmails.email, body.email))
        .returning({ email: verifiedEmails.email }),
    );
  const [row] = await db
    .with(proven)
    .insert(users)
    .values({
      handle: body.username,
      fullname: body.fullname,
      email: body.email,
      phoneNumber: toE164(body.phoneNumber),
      passwordHash,
      emailVerifiedAt: sql`(SELECT ${now.toISOString()}::timestamptz FROM ${proven})`,
      // Without the field the account confirms 18+ before money moves (assertAgeConfirmed).
      ageConfirmedAt: body.ageConfirmed ? now : null,
      createdAt: now,
    })
    .returning({
      id: users.id,
      email: users.email,
      fullname: users.fullname,
      verified: sql<boolean>`${users.emailVerifiedAt} IS NOT NULL`,
    });
  if (!row) throw new Error('insert returned no user');
  return row;
}

/**
 * Sign-up. An e-mail that already has an account gets the very answer a new one gets (its owner
 * is e-mailed instead), so sign-up cannot tell who has an account; usernames are public, so a
 * taken one is refused.
 */
export async function register(ctx: AuthContext, body: RegisterBody): Promise<string> {
  assertStrongPassword(body.password);
  // Hashed on every path: an e-mail already in use must answer as slowly as a new one.
  const passwordHash = await hashPassword(body.password);
  let created: Awaited<ReturnType<typeof createAccount>>;
  try {
    created = await createAccount(ctx.db, body, passwordHash, ctx.clock.now());
  } catch (error) {
    // The unique indexes decide, racing sign-ups included: a known e-mail then costs the
    // database about what a new one does (a refused insert and a look-up, against an insert),
    // and no look-up beforehand answers sooner for it.
    if (!isUniqueViolation(error)) throw error;
    const clash = await signupClash(ctx.db, body);
    if (clash.handleTaken) throw conflict(AUTH_MESSAGES.usernameTaken);
    if (clash.ownerEmail) tellOwnerOfSignupAttempt(ctx, clash.ownerEmail);
    return AUTH_MESSAGES.registered;
  }
  if (created.verified) return AUTH_MESSAGES.registeredVerified;
  // A code asked for in the sign-up form moments ago must not stop the account's own mail.
  ctx.afterResponse('verification mail', () =>
    sendVerification(ctx, created, { ignoreCooldown: true }),
  );
  return AUTH_MESSAGES.registered;
}

export async function login(
  ctx: AuthContext,
  body: LoginBody,
  /** The client's address (login limits, known networks) and user agent (its session). */
  origin: SessionOrigin & { ipAddress: string },
): Promise<{ accessToken: string; user: User }> {
  const now = ctx.clock.now();
  const [user] = await ctx.db
    .select()
    .from(users)
    .where(and(byEmail(body.email), isNull(users.deletedAt)))
    .limit(1);
  const attempt = await admitLoginAttempt(
    ctx.db,
    body.email,
    user?.id ?? null,
    origin.ipAddress,
    now,
  );
  const passwordOk = await verifyPassword(user?.passwordHash ?? null, body.password);
  if (!user || !passwordOk) {
    await recordLoginFailure(ctx.db, attempt, now);
    throw badRequest(ERROR_MESSAGES.invalidCredentials);
  }
  await recordLoginSuccess(ctx.db, attempt);
  if (!user.emailVerifiedAt) throw forbidden(AUTH_MESSAGES.unverified, ErrorCode.EmailUnverified);
  if (user.suspendedAt) {
    const reason = user.suspendedReason ? ` Reason: ${user.suspendedReason}.` : '';
    throw new AppError(ErrorCode.AccountSuspended, `${AUTH_MESSAGES.suspended}${reason}`);
  }
  await rememberNetwork(ctx.db, user.id, origin.ipAddress, now);
  return {
    accessToken: await ctx.signToken(user, origin),
    user: await loadApiUser(ctx.db, user.id),
  };
}

/** Inside the 60 s cooldown the earlier mail still works: nothing more to send. */
function ignoringCooldown(error: unknown): void {
  if (!(error instanceof AppError && error.code === ErrorCode.TooManyRequests)) throw error;
}

/**
 * Re-sends the verification link (and code) to an unverified account. Answers at once and
 * alike for every address; the lookup and the mail happen after the answer.
 */
export function resendVerificationLink(ctx: AuthContext, email: string): string {
  // The cooldown counts from when the request was answered, not from when its work ran.
  const requestedAt = ctx.clock.now();
  ctx.afterResponse('verification link resend', async () => {
    const [user] = await ctx.db
      .select({
        id: users.id,
        email: users.email,
        fullname: users.fullname,
        verifiedAt: users.emailVerifiedAt,
      })
      .from(users)
      .where(and(byEmail(email), isNull(users.deletedAt)))
      .limit(1);
    if (user && !user.verifiedAt)
      await sendVerification(ctx, user, { requestedAt }).catch(ignoringCooldown);
  });
  return AUTH_MESSAGES.resent;
}

/**
 * Signup modal: a code for an address that has no verified account yet; the owner of a
 * verified one is told instead. The code is issued for every address (a verified one's is
 * never sent), so the 60 s cooldown answers alike too; the rest happens after the answer.
 */
export async function sendSignupCode(ctx: AuthContext, email: string): Promise<string> {
  const code = await issueCode(ctx.db, ctx.pepper, email, 'verify_email', ctx.clock.now());
  ctx.afterResponse('sign-up code', async () => {
    const owner = await accountWithEmail(ctx.db, email);
    if (owner?.verifiedAt) await ctx.sendMail(signupAttemptMail(owner.email, ctx.publicUrl));
    else await ctx.sendMail(signupCodeMail(email, code));
  });
  return AUTH_MESSAGES.codeSent;
}

export async function verifyEmailCode(
  ctx: AuthContext,
  email: string,
  otp: string,
): Promise<string> {
  const now = ctx.clock.now();
  // Outside the transaction: a wrong guess must still count after the refusal rolls back.
  await consumeCode(ctx.db, ctx.pepper, email, 'verify_email', otp, now);
  await ctx.db.transaction(async (tx) => {
    const updated = await tx
      .update(users)
      .set({ emailVerifiedAt: now })
      .where(and(byEmail(email), isNull(users.emailVerifiedAt), isNull(users.deletedAt)))
      .returning({ id: users.id });
    if (updated.length === 0) {
      await tx
        .insert(verifiedEmails)
        .values({ email, verifiedAt: now })
        .onConflictDoUpdate({
          target: verifiedEmails.email,
          set: { verifiedAt: now },
        });
    }
  });
  return AUTH_MESSAGES.emailVerified;
}

/** The link in the e-mail (or the Google hand-off): one use, then an access token. */
export async function validateOneTimeLink(
  ctx: AuthContext,
  token: string,
  origin: SessionOrigin = {},
): Promise<string> {
  const now = ctx.clock.now();
  const user = await ctx.db.transaction(async (tx) => {
    const used = await consumeOneTimeToken(tx, token, now);
    if (!used) throw badRequest(AUTH_MESSAGES.badLink);
    const [user] = await tx
      .update(users)
      .set({
        emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now.toISOString()}::timestamptz)`,
      })
      .where(and(eq(users.id, used.userId), isNull(users.deletedAt)))
      .returning({
        id: users.id,
        tokenVersion: users.tokenVersion,
        suspendedAt: users.suspendedAt,
      });
    if (!user) throw badRequest(AUTH_MESSAGES.badLink);
    if (user.suspendedAt) throw new AppError(ErrorCode.AccountSuspended, AUTH_MESSAGES.suspended);
    return user;
  });
  // After the commit: the session row is written outside the link's transaction.
  return ctx.signToken(user, origin);
}

/** Always the same answer at once; the code is issued and mailed after it, for accounts only. */
export function forgotPassword(ctx: AuthContext, email: string): string {
  // The cooldown counts from when the request was answered, not from when its work ran.
  const requestedAt = ctx.clock.now();
  ctx.afterResponse('password reset code', async () => {
    const [user] = await ctx.db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(and(byEmail(email), isNull(users.deletedAt)))
      .limit(1);
    if (!user) return;
    try {
      const code = await issueCode(ctx.db, ctx.pepper, email, 'reset_password', requestedAt);
      await ctx.sendMail(resetCodeMail(user.email, code));
    } catch (error) {
      ignoringCooldown(error);
    }
  });
  return AUTH_MESSAGES.forgot;
}

export async function resetPassword(
  ctx: AuthContext,
  body: { email: string; otp: string; password: string },
  address: string,
): Promise<string> {
  assertStrongPassword(body.password);
  const now = ctx.clock.now();
  const passwordHash = await hashPassword(body.password);
  await consumeCode(ctx.db, ctx.pepper, body.email, 'reset_password', body.otp, now);
  // A reset proves the address; it also revokes every token issued before it.
  const reset = await ctx.db
    .update(users)
    .set({
      passwordHash,
      tokenVersion: sql`${users.tokenVersion} + 1`,
      emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now.toISOString()}::timestamptz)`,
    })
    .where(and(byEmail(body.email), isNull(users.deletedAt)))
    .returning({ id: users.id });
  for (const user of reset) {
    ctx.forgetSessions(user.id);
    // The mailbox proved who this is: their network is theirs from now on, so a stranger's
    // storm of guesses does not keep them out of their new password.
    await recordPasswordReset(ctx.db, body.email, user.id, address, now);
  }
  return AUTH_MESSAGES.reset;
}

/** The auth services' dependencies, taken once from the app's decorations. */
export function authContextOf(app: FastifyInstance, publicUrl: string): AuthContext {
  return {
    db: app.db,
    clock: app.clock,
    pepper: app.secrets.jwt,
    publicUrl,
    sendMail: app.sendMailSafely,
    signToken: app.tokens.sign,
    forgetSessions: app.tokens.forgetUser,
    afterResponse: app.background.run,
  };
}
