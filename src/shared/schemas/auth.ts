import { z } from 'zod';
import { RULE_MESSAGES, SIGNUP_MESSAGES } from '../messages.ts';
import {
  emailSchema,
  fullnameSchema,
  handleSchema,
  newPasswordSchema,
  passwordInputSchema,
  phoneSchema,
  userSchema,
} from './users.ts';

/** Signup payload (docs/product.md#data), checked in the order of docs/product.md#validation, plus our own rules. */
const signupFields = z
  .object({
    fullname: fullnameSchema,
    username: handleSchema,
    email: emailSchema,
    phoneNumber: phoneSchema,
    password: newPasswordSchema,
    confirmPassword: passwordInputSchema(SIGNUP_MESSAGES.confirmPassword),
    ageConfirmed: z.boolean({ error: RULE_MESSAGES.ageConfirmed }).optional(),
  })
  .refine((body) => body.password === body.confirmPassword, {
    message: SIGNUP_MESSAGES.mismatch,
    path: ['confirmPassword'],
  });

/**
 * POST /auth/register. The spec's payload has no ageConfirmed, so a client that sends none (the
 * original one) signs up like a Google account does: unconfirmed, and asked to confirm 18+
 * before its first play, top-up or plan. Saying no (false) is refused.
 */
export const registerSchema = signupFields.refine((body) => body.ageConfirmed !== false, {
  message: RULE_MESSAGES.ageConfirmed,
  path: ['ageConfirmed'],
});
export type RegisterBody = z.infer<typeof registerSchema>;

/** The sign-up form: its 18+ box, the last field, must be ticked (after the spec's rules). */
export const signupFormSchema = signupFields.refine((body) => body.ageConfirmed === true, {
  message: RULE_MESSAGES.ageConfirmed,
  path: ['ageConfirmed'],
});

export const loginSchema = z.object({
  email: emailSchema,
  password: passwordInputSchema(SIGNUP_MESSAGES.password),
});
export type LoginBody = z.infer<typeof loginSchema>;

export const loginResponseSchema = z.object({
  accessToken: z.string(),
  user: userSchema,
});

export const validateTokenResponseSchema = z.object({ access_token: z.string() });

export const otpSchema = z
  .string({ error: RULE_MESSAGES.otpFormat })
  .max(20, RULE_MESSAGES.otpFormat)
  .trim()
  .regex(/^\d{6}$/, RULE_MESSAGES.otpFormat);

export const emailBodySchema = z.object({ email: emailSchema });
export const emailQuerySchema = z.object({ email: emailSchema });
export const verifyEmailSchema = z.object({ otp: otpSchema, email: emailSchema });

export const resetPasswordSchema = z
  .object({
    email: emailSchema,
    otp: otpSchema,
    password: newPasswordSchema,
    confirmPassword: passwordInputSchema(SIGNUP_MESSAGES.confirmPassword),
  })
  .refine((body) => body.password === body.confirmPassword, {
    message: SIGNUP_MESSAGES.mismatch,
    path: ['confirmPassword'],
  });
