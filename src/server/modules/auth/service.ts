import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { ERROR_MESSAGES } from '../../../shared/messages.ts';
import type { LoginBody, RegisterBody } from '../../../shared/schemas/auth.ts';
import type { User } from '../../../shared/schemas/users.ts';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { users, verifiedEmails } from '../../db/schema.ts';
import { AppError, badRequest, conflict, ErrorCode, forbidden } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { MailMessage } from '../../providers/mail.ts';
import { loadApiUser } from '../users/serialize.ts';
import { consumeCode, issueCode } from './codes.ts';
import { resetCodeMail, signupCodeMail, verificationMail } from './emails.ts';
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
  signToken: (user: { id: string; tokenVersion: number }) => Promise<string>;
  /** After a committed change to a user's token version, suspension or deletion. */
  forgetSessions: (userId: string) => void;
}

export const AUTH_MESSAGES = {
  registered: 'Account created. Check your e-mail for a link or code to verify it.',
  registeredVerified: 'Account created. You can log in now.',
  emailTaken: 'An account with this e-mail already exists',
  usernameTaken: 'This username is already taken',
  unverified: 'Please verify your e-mail address to continue',
  suspended: 'Your account is suspended. Contact support for help.',
  resent: 'If this e-mail needs verifying, we have sent a new link. Check your inbox.',
  codeSent: 'We have sent a 6-digit code to your e-mail',
  alreadyRegistered: 'This e-mail is already verified on an account. Log in instead.',
  emailVerified: 'E-mail verified',
  badLink: 'This link is invalid or has expired. Request a new one from the login page.',
  forgot: 'If an account exists for this e-mail, we have sent a reset code. Check your inbox.',
  reset: 'Your password has been reset. Log in with your new password.',
} as const;

const byEmail = (email: string) => eq(sql`lower(${users.email})`, email.toLowerCase());
const byHandle = (handle: string) => eq(sql`lower(${users.handle})`, handle.toLowerCase());

export function assertStrongPassword(password: string): void {
  if (isCommonPassword(password)) throw badRequest(COMMON_PASSWORD_MESSAGE);
}

async function duplicateMessage(
  db: Database,
  email: string,
  handle: string,
): Promise<string | null> {
  const [emailOwner] = await db.select({ id: users.id }).from(users).where(byEmail(email)).limit(1);
  if (emailOwner) return AUTH_MESSAGES.emailTaken;
  const [handleOwner] = await db
    .select({ id: users.id })
    .from(users)
    .where(byHandle(handle))
    .limit(1);
  return handleOwner ? AUTH_MESSAGES.usernameTaken : null;
}

export async function sendVerification(
  ctx: AuthContext,
  user: { id: string; email: string; fullname: string },
  options: { ignoreCooldown?: boolean } = {},
) {
  const now = ctx.clock.now();
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

export async function register(ctx: AuthContext, body: RegisterBody): Promise<string> {
  assertStrongPassword(body.password);
  const duplicate = await duplicateMessage(ctx.db, body.email, body.username);
  if (duplicate) throw conflict(duplicate);

  const now = ctx.clock.now();
  const passwordHash = await hashPassword(body.password);
  let created: { id: string; email: string; fullname: string; verified: boolean };
  try {
    created = await ctx.db.transaction(async (tx) => {
      const proven = await tx
        .delete(verifiedEmails)
        .where(eq(verifiedEmails.email, body.email))
        .returning({ email: verifiedEmails.email });
      const verified = proven.length > 0;
      const [row] = await tx
        .insert(users)
        .values({
          handle: body.username,
          fullname: body.fullname,
          email: body.email,
          phoneNumber: body.phoneNumber,
          passwordHash,
          emailVerifiedAt: verified ? now : null,
          ageConfirmedAt: body.ageConfirmed ? now : null,
          createdAt: now,
        })
        .returning({ id: users.id, email: users.email, fullname: users.fullname });
      if (!row) throw new Error('insert returned no user');
      return { ...row, verified };
    });
  } catch (error) {
    // Two sign-ups racing for the same e-mail or handle: the unique index decides.
    if (isUniqueViolation(error)) {
      throw conflict(
        (await duplicateMessage(ctx.db, body.email, body.username)) ?? AUTH_MESSAGES.emailTaken,
      );
    }
    throw error;
  }
  if (created.verified) return AUTH_MESSAGES.registeredVerified;
  // A code asked for in the sign-up form moments ago must not stop the account's own mail.
  await sendVerification(ctx, created, { ignoreCooldown: true });
  return AUTH_MESSAGES.registered;
}

export async function login(
  ctx: AuthContext,
  body: LoginBody,
): Promise<{ accessToken: string; user: User }> {
  const [user] = await ctx.db
    .select()
    .from(users)
    .where(and(byEmail(body.email), isNull(users.deletedAt)))
    .limit(1);
  const passwordOk = await verifyPassword(user?.passwordHash ?? null, body.password);
  if (!user || !passwordOk) throw badRequest(ERROR_MESSAGES.invalidCredentials);
  if (!user.emailVerifiedAt) throw forbidden(AUTH_MESSAGES.unverified);
  if (user.suspendedAt) {
    const reason = user.suspendedReason ? ` Reason: ${user.suspendedReason}.` : '';
    throw new AppError(ErrorCode.AccountSuspended, `${AUTH_MESSAGES.suspended}${reason}`);
  }
  return { accessToken: await ctx.signToken(user), user: await loadApiUser(ctx.db, user.id) };
}

/** Re-sends the verification link (and code) to an unverified account; silent otherwise. */
export async function resendVerificationLink(ctx: AuthContext, email: string): Promise<string> {
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
  if (user && !user.verifiedAt) await sendVerification(ctx, user);
  return AUTH_MESSAGES.resent;
}

/** Signup modal: a code for an address that has no verified account yet. */
export async function sendSignupCode(ctx: AuthContext, email: string): Promise<string> {
  const [owner] = await ctx.db
    .select({ verifiedAt: users.emailVerifiedAt })
    .from(users)
    .where(and(byEmail(email), isNull(users.deletedAt)))
    .limit(1);
  if (owner?.verifiedAt) throw conflict(AUTH_MESSAGES.alreadyRegistered);
  const code = await issueCode(ctx.db, ctx.pepper, email, 'verify_email', ctx.clock.now());
  await ctx.sendMail(signupCodeMail(email, code));
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
export async function validateOneTimeLink(ctx: AuthContext, token: string): Promise<string> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
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
    return ctx.signToken(user);
  });
}

export async function forgotPassword(ctx: AuthContext, email: string): Promise<string> {
  const [user] = await ctx.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(byEmail(email), isNull(users.deletedAt)))
    .limit(1);
  if (user) {
    try {
      const code = await issueCode(ctx.db, ctx.pepper, email, 'reset_password', ctx.clock.now());
      await ctx.sendMail(resetCodeMail(user.email, code));
    } catch (error) {
      // Inside the cooldown the earlier code still works; answering alike hides whether the account exists.
      if (!(error instanceof AppError && error.code === ErrorCode.TooManyRequests)) throw error;
    }
  }
  return AUTH_MESSAGES.forgot;
}

export async function resetPassword(
  ctx: AuthContext,
  body: { email: string; otp: string; password: string },
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
  for (const user of reset) ctx.forgetSessions(user.id);
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
  };
}
