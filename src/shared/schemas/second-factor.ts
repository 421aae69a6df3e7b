import { z } from 'zod';

/**
 * An operator's second factor (src/server/modules/auth/second-factor.ts): a TOTP authenticator
 * enrolled at the first console login, with one-use recovery codes for a lost phone.
 */
export const SECOND_FACTOR_MESSAGES = {
  code: 'Enter the 6-digit code from your authenticator app, or a recovery code',
  enrolCode: 'Enter the 6-digit code your authenticator app shows',
  wrong: 'That code is not right, or was already used. Wait for the next one and try again.',
  alreadyEnrolled:
    'An authenticator is already set up for this account. Ask another operator to reset it if the phone is lost.',
  notStarted: 'Start the set-up again: scan the new QR code, then enter its code',
  required: 'Enter the code from your authenticator app to open the console',
  enrolmentRequired: 'Set up an authenticator app to open the console',
  fresh: 'Confirm with a fresh code from your authenticator app to do this',
} as const;

/** What people type: 6 digits from the app, or a recovery code (letters and digits, dashes). */
export const secondFactorCodeSchema = z
  .string({ error: SECOND_FACTOR_MESSAGES.code })
  .trim()
  .min(6, SECOND_FACTOR_MESSAGES.code)
  .max(40, SECOND_FACTOR_MESSAGES.code)
  .regex(/^[0-9A-Za-z\s-]+$/, SECOND_FACTOR_MESSAGES.code);

export const secondFactorCodeBodySchema = z.object({ code: secondFactorCodeSchema });
export type SecondFactorCodeBody = z.infer<typeof secondFactorCodeBodySchema>;

export const secondFactorStatusSchema = z.object({
  enrolled: z.boolean(),
  /** When this session last proved the second factor (ISO), or null. */
  provedAt: z.string().nullable(),
  recoveryCodesLeft: z.number().int(),
});
export type SecondFactorStatus = z.infer<typeof secondFactorStatusSchema>;

export const secondFactorEnrolmentSchema = z.object({
  /** Base32, for typing into an app that cannot scan; shown during enrolment only. */
  secret: z.string(),
  /** otpauth://totp/… for the QR code. */
  otpauthUri: z.string(),
});
export type SecondFactorEnrolment = z.infer<typeof secondFactorEnrolmentSchema>;

export const secondFactorConfirmedSchema = z.object({
  /** Shown once: only their hashes are kept. */
  recoveryCodes: z.array(z.string()),
  provedAt: z.string(),
});
export type SecondFactorConfirmed = z.infer<typeof secondFactorConfirmedSchema>;

export const secondFactorProvedSchema = z.object({
  provedAt: z.string(),
  recoveryCodesLeft: z.number().int(),
});
export type SecondFactorProved = z.infer<typeof secondFactorProvedSchema>;

/** `data` of a SECOND_FACTOR_REQUIRED refusal: enrol first when false. */
export const secondFactorRequiredDataSchema = z.object({ enrolled: z.boolean() });

/** How long a proof counts for payouts, wallet adjustments, lifted breaks and settings. */
export const FRESH_SECOND_FACTOR_MS = 15 * 60_000;
