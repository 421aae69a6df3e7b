import { z } from 'zod';
import {
  EMAIL_MAX_LENGTH,
  FULLNAME_MAX_LENGTH,
  FULLNAME_MIN_LENGTH,
  PASSWORD_MAX_LENGTH,
} from '../constants.ts';
import { RULE_MESSAGES, SIGNUP_MESSAGES, VALIDATION_MESSAGES } from '../messages.ts';
import { normalisePhone } from '../phone.ts';
import { nairaSchema } from './common.ts';

export const bankAccountSchema = z.object({
  bankID: z.string(),
  accountNumber: z.string(),
  accountName: z.string(),
});
export type BankAccount = z.infer<typeof bankAccountSchema>;

/** Whose account a bank and number are, as the payout provider says, before anything is saved. */
export const resolvedBankAccountSchema = z.object({
  accountName: z.string(),
  bankName: z.string(),
});
export type ResolvedBankAccount = z.infer<typeof resolvedBankAccountSchema>;

export const userSchema = z.object({
  id: z.string(),
  /** `plucker_<handle>` unless the user's plan carries the verified badge. */
  username: z.string(),
  fullname: z.string(),
  email: z.string(),
  phoneNumber: z.string(),
  planID: z.string().nullable(),
  planExpiresAt: z.string().nullable(),
  isVerified: z.boolean(),
  role: z.enum(['player', 'admin']),
  accountBalance: nairaSchema,
  level: z.number().int(),
  points: z.number().int(),
  totalGamesPlayed: z.number().int(),
  totalGamesWon: z.number().int(),
  totalWinningAmount: nairaSchema,
  profilePhoto: z.string().nullable(),
  hasSetPassword: z.boolean(),
  /** False until the player confirms they are 18 or older (Google sign-ups): ask before play or payment. */
  ageConfirmed: z.boolean(),
  bankAccount: bankAccountSchema.nullable(),
  /** A new e-mail waiting for the code sent to it; `email` stays in use until then. */
  pendingEmail: z.string().nullable(),
});
export type User = z.infer<typeof userSchema>;

/**
 * A required text of at most `maximum` characters as sent (before trimming, so padding cannot
 * make a body of any size pass).
 */
const required = (message: string, maximum: number, tooLong: string) =>
  z.string({ error: message }).max(maximum, tooLong).trim().min(1, message);

export const emailSchema = required(
  SIGNUP_MESSAGES.email,
  EMAIL_MAX_LENGTH,
  RULE_MESSAGES.emailTooLong,
)
  .toLowerCase()
  .pipe(z.email({ error: RULE_MESSAGES.emailFormat }));

export const USERNAME_PREFIX = 'plucker_';

export const handleSchema = required(SIGNUP_MESSAGES.username, 100, RULE_MESSAGES.usernameFormat)
  .toLowerCase()
  .regex(/^[a-z0-9_]{3,20}$/, RULE_MESSAGES.usernameFormat)
  .refine((handle) => !handle.startsWith(USERNAME_PREFIX), RULE_MESSAGES.usernamePrefix);

/** Form fields the client sends empty mean "unchanged". */
const blankToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** The profile form may echo the displayed name, prefix included; the handle is what's stored. */
const withoutPrefix = (value: unknown) =>
  typeof value === 'string' && value.trim().toLowerCase().startsWith(USERNAME_PREFIX)
    ? value.trim().slice(USERNAME_PREFIX.length)
    : blankToUndefined(value);

/**
 * A phone number as people type it (0803 123 4567, (0803) 123-4567, +234 803 123 4567),
 * normalised by the spec's rule to +<digits>. The server also checks it is a real number
 * (`toE164` in src/server/lib/phone.ts): the library that knows is too large for the web app.
 */
export const phoneSchema = z.preprocess(
  (value) => (typeof value === 'string' && value.length <= 100 ? normalisePhone(value) : value),
  required(SIGNUP_MESSAGES.phoneNumber, 100, RULE_MESSAGES.phoneFormat).regex(
    /^\+[1-9]\d{7,14}$/,
    RULE_MESSAGES.phoneFormat,
  ),
);

export const newPasswordSchema = z
  .string({ error: SIGNUP_MESSAGES.password })
  .min(1, SIGNUP_MESSAGES.password)
  .min(8, RULE_MESSAGES.passwordLength)
  .max(PASSWORD_MAX_LENGTH, RULE_MESSAGES.passwordTooLong);

/** A password as typed to be checked (current password, confirmation): bounded, not judged. */
export const passwordInputSchema = (message: string) =>
  z
    .string({ error: message })
    .min(1, message)
    .max(PASSWORD_MAX_LENGTH, RULE_MESSAGES.passwordTooLong);

export const STEP_UP_CODE_MESSAGE = 'The code is the 6 digits we e-mailed you';
export const STEP_UP_PASSWORD_MESSAGE = 'Enter your current password';

/**
 * Proof for a sensitive change (e-mail, password, payout account): the current password, or,
 * for an account without one, the 6-digit code e-mailed to its current address.
 */
const stepUpFields = {
  currentPassword: z.preprocess(
    blankToUndefined,
    passwordInputSchema(STEP_UP_PASSWORD_MESSAGE).optional(),
  ),
  code: z.preprocess(
    blankToUndefined,
    z
      .string()
      .max(20, STEP_UP_CODE_MESSAGE)
      .trim()
      .regex(/^\d{6}$/, STEP_UP_CODE_MESSAGE)
      .optional(),
  ),
};

export const updateUserSchema = z
  .object({
    email: z.preprocess(blankToUndefined, emailSchema.optional()),
    phoneNumber: z.preprocess(blankToUndefined, phoneSchema.optional()),
    username: z.preprocess(withoutPrefix, handleSchema.optional()),
    ...stepUpFields,
    password: z.preprocess(blankToUndefined, newPasswordSchema.optional()),
    confirmPassword: z.preprocess(
      blankToUndefined,
      passwordInputSchema(SIGNUP_MESSAGES.confirmPassword).optional(),
    ),
  })
  .refine((body) => body.password === undefined || body.password === body.confirmPassword, {
    message: SIGNUP_MESSAGES.mismatch,
    path: ['confirmPassword'],
  });
export type UpdateUserBody = z.infer<typeof updateUserSchema>;

export const confirmAgeSchema = z.object({
  ageConfirmed: z.literal(true, { error: RULE_MESSAGES.ageConfirmed }),
});

export const deleteUserSchema = z.object({
  password: passwordInputSchema(SIGNUP_MESSAGES.password),
});

export const confirmEmailChangeSchema = z.object({
  code: z
    .string({ error: STEP_UP_CODE_MESSAGE })
    .max(20, STEP_UP_CODE_MESSAGE)
    .trim()
    .regex(/^\d{6}$/, STEP_UP_CODE_MESSAGE),
});
export type ConfirmEmailChangeBody = z.infer<typeof confirmEmailChangeSchema>;

export const bankAccountBodySchema = z.object({
  bankID: z
    .string({ error: 'Select your bank' })
    .min(1, 'Select your bank')
    .max(100, 'Select your bank'),
  accountNumber: z
    .string({ error: 'Enter your account number' })
    .max(10, 'Account number must be 10 digits')
    .regex(/^\d{10}$/, 'Account number must be 10 digits'),
});

/** Saving: replacing an existing account also needs the step-up proof. */
export const saveBankAccountBodySchema = bankAccountBodySchema.extend(stepUpFields);
export type SaveBankAccountBody = z.infer<typeof saveBankAccountBodySchema>;

export const profilePhotoResponseSchema = z.object({ profilePhoto: z.string() });
export const PROFILE_PHOTO_MESSAGE = VALIDATION_MESSAGES.profilePhoto;

export const fullnameSchema = required(
  SIGNUP_MESSAGES.fullname,
  FULLNAME_MAX_LENGTH,
  RULE_MESSAGES.fullnameTooLong,
).min(FULLNAME_MIN_LENGTH, SIGNUP_MESSAGES.fullname);
