import { and, eq, isNull } from 'drizzle-orm';
import { STEP_UP_PASSWORD_MESSAGE } from '../../../shared/schemas/users.ts';
import { users } from '../../db/schema.ts';
import { AppError, badRequest, ErrorCode, notFound } from '../../errors.ts';
import { consumeCode, issueCode } from './codes.ts';
import { stepUpCodeMail } from './emails.ts';
import { verifyPassword } from './passwords.ts';
import type { AuthContext } from './service.ts';
import {
  assertNotThrottled,
  clearFailures,
  recordFailure,
  type ThrottlePolicy,
} from './throttle.ts';

/**
 * Re-authentication for changes a stolen token must not be able to make (e-mail, password,
 * payout account, deletion): the current password, or for an account without one a code
 * e-mailed to its current address.
 *
 * Every wrong guess (password or code, on any of those routes) counts against one per-user key
 * in the shared throttle table, so all instances see the same count: five wrong guesses are
 * answered, then the account waits 1 minute, doubling with each further wrong guess up to an
 * hour. A right answer during a wait is refused too (otherwise the wait would not slow a
 * guesser down); a right answer after it clears the count.
 */
export const STEP_UP_POLICY: ThrottlePolicy = {
  // The policy counts failures before a block starts: the fifth wrong guess starts the first wait.
  freeFailures: 4,
  windowMs: 60 * 60_000,
  firstDelayMs: 60_000,
  maxDelayMs: 60 * 60_000,
};

export const STEP_UP_MESSAGES = {
  passwordRequired: STEP_UP_PASSWORD_MESSAGE,
  passwordWrong: 'Your current password is incorrect',
  codeRequired: 'Enter the 6-digit code we sent to your e-mail',
  codeSent: 'We have sent a 6-digit code to your e-mail. Enter it to confirm this change.',
  usePassword: 'Your account has a password: confirm this change with your current password',
  throttled: 'Too many wrong attempts.',
} as const;

const throttleKey = (userId: string) => `step-up:${userId}`;

/**
 * Runs one guess of a secret under the per-user throttle: refuses with 429 while the user is
 * blocked, counts a wrong guess (`check` resolving false or throwing a 400), clears the count
 * on success.
 */
export async function guardedGuess(
  ctx: AuthContext,
  userId: string,
  check: () => Promise<boolean>,
  wrong: () => AppError,
): Promise<void> {
  const key = throttleKey(userId);
  await assertNotThrottled(ctx.db, [key], ctx.clock.now(), STEP_UP_MESSAGES.throttled);
  let right: boolean;
  let refusal: AppError;
  try {
    right = await check();
    refusal = wrong();
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== ErrorCode.BadRequest) throw error;
    right = false;
    refusal = error;
  }
  if (!right) {
    await recordFailure(ctx.db, key, STEP_UP_POLICY, ctx.clock.now());
    throw refusal;
  }
  await clearFailures(ctx.db, [key]);
}

export interface StepUpProof {
  currentPassword?: string | undefined;
  code?: string | undefined;
}

/** Proves the person holding the token is the owner: current password, or the e-mailed code. */
export async function proveOwner(
  ctx: AuthContext,
  account: { id: string; email: string; passwordHash: string | null },
  proof: StepUpProof,
): Promise<void> {
  const { passwordHash } = account;
  if (passwordHash) {
    const password = proof.currentPassword;
    if (!password) throw badRequest(STEP_UP_MESSAGES.passwordRequired, ErrorCode.ProofRefused);
    await guardedGuess(
      ctx,
      account.id,
      () => verifyPassword(passwordHash, password),
      () => badRequest(STEP_UP_MESSAGES.passwordWrong, ErrorCode.ProofRefused),
    );
    return;
  }
  const code = proof.code;
  if (!code) throw badRequest(STEP_UP_MESSAGES.codeRequired, ErrorCode.ProofRefused);
  await guardedGuess(
    ctx,
    account.id,
    async () => {
      await consumeCode(
        ctx.db,
        ctx.pepper,
        account.email.toLowerCase(),
        'step_up',
        code,
        ctx.clock.now(),
      );
      return true;
    },
    () => badRequest(STEP_UP_MESSAGES.codeRequired, ErrorCode.ProofRefused),
  );
}

/** E-mails a step-up code to the current address of an account that has no password. */
export async function sendStepUpCode(ctx: AuthContext, userId: string): Promise<string> {
  const [account] = await ctx.db
    .select({ email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .limit(1);
  if (!account) throw notFound('User not found');
  if (account.passwordHash) throw badRequest(STEP_UP_MESSAGES.usePassword, ErrorCode.ProofRefused);
  const code = await issueCode(
    ctx.db,
    ctx.pepper,
    account.email.toLowerCase(),
    'step_up',
    ctx.clock.now(),
  );
  await ctx.sendMail(stepUpCodeMail(account.email, code));
  return STEP_UP_MESSAGES.codeSent;
}
