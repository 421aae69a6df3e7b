import { describe, expect, it } from 'vitest';
import { RULE_MESSAGES, SIGNUP_MESSAGES } from '../messages.ts';
import { registerSchema, signupFormSchema } from './auth.ts';

const valid = {
  fullname: 'Ada Obi',
  username: 'ada_obi',
  email: 'ada@example.com',
  phoneNumber: '+2348012345678',
  password: 'correct-horse',
  confirmPassword: 'correct-horse',
  ageConfirmed: true,
};

function firstMessage(body: unknown): string | undefined {
  const result = registerSchema.safeParse(body);
  return result.success ? undefined : result.error.issues[0]?.message;
}

describe('registerSchema (docs/product.md#validation, in order)', () => {
  it('uses the spec texts exactly', () => {
    expect(SIGNUP_MESSAGES).toEqual({
      fullname: 'Please enter a valid fullname',
      username: 'Enter your username',
      email: 'Enter your email address',
      phoneNumber: 'Enter your phone number',
      password: 'Enter your password',
      confirmPassword: 'Retype your password',
      mismatch: 'Passwords does not match',
    });
  });

  it('reports the full name first on an empty body', () => {
    expect(firstMessage({})).toBe('Please enter a valid fullname');
  });

  it('then each field in turn as the earlier ones are filled in', () => {
    const order: Array<[keyof typeof valid, string]> = [
      ['fullname', 'Please enter a valid fullname'],
      ['username', 'Enter your username'],
      ['email', 'Enter your email address'],
      ['phoneNumber', 'Enter your phone number'],
      ['password', 'Enter your password'],
      ['confirmPassword', 'Retype your password'],
    ];
    const body: Record<string, unknown> = {};
    for (const [field, message] of order) {
      expect(firstMessage(body), `missing ${field}`).toBe(message);
      expect(firstMessage({ ...body, [field]: '' }), `empty ${field}`).toBe(message);
      body[field] = valid[field];
    }
    // The form's 18+ box comes last, after the spec's rules; the API takes the spec's payload.
    const formResult = signupFormSchema.safeParse(body);
    expect(formResult.success ? undefined : formResult.error.issues[0]?.message).toBe(
      RULE_MESSAGES.ageConfirmed,
    );
    expect(firstMessage(body)).toBeUndefined();
    expect(firstMessage({ ...body, ageConfirmed: false })).toBe(RULE_MESSAGES.ageConfirmed);
    expect(firstMessage({ ...body, ageConfirmed: true })).toBeUndefined();
  });

  it("then 'Passwords does not match'", () => {
    expect(firstMessage({ ...valid, confirmPassword: 'correct-horses' })).toBe(
      'Passwords does not match',
    );
  });

  it('refuses a full name under 5 characters, even padded with spaces', () => {
    expect(firstMessage({ ...valid, fullname: 'Ada' })).toBe(SIGNUP_MESSAGES.fullname);
    expect(firstMessage({ ...valid, fullname: '  Ada  ' })).toBe(SIGNUP_MESSAGES.fullname);
    expect(firstMessage({ ...valid, fullname: 'Ada O' })).toBeUndefined();
  });

  it('adds our own rules: email format, username format, password length', () => {
    expect(firstMessage({ ...valid, email: 'not-an-email' })).toBe(RULE_MESSAGES.emailFormat);
    expect(firstMessage({ ...valid, username: 'ab' })).toBe(RULE_MESSAGES.usernameFormat);
    expect(firstMessage({ ...valid, username: 'ada-obi' })).toBe(RULE_MESSAGES.usernameFormat);
    expect(firstMessage({ ...valid, password: 'short', confirmPassword: 'short' })).toBe(
      RULE_MESSAGES.passwordLength,
    );
  });

  it('normalises email and username to lower case', () => {
    const parsed = registerSchema.parse({
      ...valid,
      email: ' Ada@Example.COM ',
      username: 'Ada_Obi',
    });
    expect(parsed.email).toBe('ada@example.com');
    expect(parsed.username).toBe('ada_obi');
  });

  it("takes a body without ageConfirmed (the spec's payload) and refuses false, checked after the spec rules", () => {
    expect(registerSchema.safeParse({ ...valid, ageConfirmed: true }).success).toBe(true);
    const { ageConfirmed: _absent, ...specPayload } = valid;
    expect(registerSchema.safeParse(specPayload).success).toBe(true);
    for (const ageConfirmed of [false, 'true', 1])
      expect(firstMessage({ ...valid, ageConfirmed })).toBe(RULE_MESSAGES.ageConfirmed);
    expect(firstMessage({ ...valid, confirmPassword: 'other-horse' })).toBe(
      SIGNUP_MESSAGES.mismatch,
    );
  });
});
