import { z } from 'zod';
import { FULLNAME_MIN_LENGTH } from '../constants.ts';
import { RULE_MESSAGES, SIGNUP_MESSAGES, VALIDATION_MESSAGES } from '../messages.ts';
import { nairaSchema } from './common.ts';

export const bankAccountSchema = z.object({
  bankID: z.string(),
  accountNumber: z.string(),
  accountName: z.string(),
});
export type BankAccount = z.infer<typeof bankAccountSchema>;

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
  bankAccount: bankAccountSchema.nullable(),
});
export type User = z.infer<typeof userSchema>;

const required = (message: string) => z.string({ error: message }).trim().min(1, message);

export const emailSchema = required(SIGNUP_MESSAGES.email)
  .toLowerCase()
  .pipe(z.email({ error: RULE_MESSAGES.emailFormat }));

export const USERNAME_PREFIX = 'plucker_';

export const handleSchema = required(SIGNUP_MESSAGES.username)
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

export const phoneSchema = required(SIGNUP_MESSAGES.phoneNumber).regex(
  /^\+[1-9]\d{7,14}$/,
  RULE_MESSAGES.phoneFormat,
);

export const newPasswordSchema = z
  .string({ error: SIGNUP_MESSAGES.password })
  .min(1, SIGNUP_MESSAGES.password)
  .min(8, RULE_MESSAGES.passwordLength)
  .max(200, 'Password must be at most 200 characters');

export const updateUserSchema = z
  .object({
    email: z.preprocess(blankToUndefined, emailSchema.optional()),
    phoneNumber: z.preprocess(blankToUndefined, phoneSchema.optional()),
    username: z.preprocess(withoutPrefix, handleSchema.optional()),
    currentPassword: z.preprocess(blankToUndefined, z.string().optional()),
    password: z.preprocess(blankToUndefined, newPasswordSchema.optional()),
    confirmPassword: z.preprocess(blankToUndefined, z.string().optional()),
  })
  .refine((body) => body.password === undefined || body.password === body.confirmPassword, {
    message: SIGNUP_MESSAGES.mismatch,
    path: ['confirmPassword'],
  });
export type UpdateUserBody = z.infer<typeof updateUserSchema>;

export const deleteUserSchema = z.object({
  password: z.string({ error: 'Enter your password' }).min(1, 'Enter your password'),
});

export const bankAccountBodySchema = z.object({
  bankID: z.string({ error: 'Select your bank' }).min(1, 'Select your bank'),
  accountNumber: z
    .string({ error: 'Enter your account number' })
    .regex(/^\d{10}$/, 'Account number must be 10 digits'),
});

export const profilePhotoResponseSchema = z.object({ profilePhoto: z.string() });
export const PROFILE_PHOTO_MESSAGE = VALIDATION_MESSAGES.profilePhoto;

export const fullnameSchema = required(SIGNUP_MESSAGES.fullname).min(
  FULLNAME_MIN_LENGTH,
  SIGNUP_MESSAGES.fullname,
);
