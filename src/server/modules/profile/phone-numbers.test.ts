import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { RULE_MESSAGES } from '../../../shared/messages.ts';
import { users } from '../../db/schema.ts';
import { testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createUser, uniqueSuffix } from '../../test/factories.ts';
import { testPasswordHash } from '../../test/passwords.ts';

// Any client, not only ours: numbers as Nigerians type them are taken and stored in E.164;
// numbers that cannot exist are refused with the same clear message.
const database = testDatabasePerFile();
/** One app for the tests that need no environment or clock of their own. */
const fileApp = testAppPerFile(database);

const TYPED_AS_PEOPLE_DO = [
  '08031234567',
  '0803 123 4567',
  '(0803) 123-4567',
  '2348031234567',
  '+234 803 123 4567',
  '8031234567',
];
const NOT_A_NUMBER = ['+2340000000000', '0803123', '+2342348031234567', 'call me', '+1 555'];

async function signUp(app: FastifyInstance, phoneNumber: string) {
  const suffix = uniqueSuffix();
  const email = `chidi-${suffix}@example.test`;
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    remoteAddress: `10.1.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`,
    payload: {
      fullname: 'Chidi Okeke',
      username: `chidi_${suffix}`,
      email,
      phoneNumber,
      password: 'Quiz-Master-2024',
      confirmPassword: 'Quiz-Master-2024',
      ageConfirmed: true,
    },
  });
  return { response, email };
}

async function storedPhoneOf(app: FastifyInstance, email: string) {
  const [row] = await app.db
    .select({ phoneNumber: users.phoneNumber })
    .from(users)
    .where(eq(users.email, email));
  return row?.phoneNumber;
}

describe('phone numbers', () => {
  it('signs up with a Nigerian number however it is typed, stored as +234…', async () => {
    const app = fileApp();
    for (const typed of TYPED_AS_PEOPLE_DO) {
      const { response, email } = await signUp(app, typed);
      expect(response.statusCode, `${typed}: ${response.body}`).toBe(201);
      expect(await storedPhoneOf(app, email), typed).toBe('+2348031234567');
    }
    const { response: abroad } = await signUp(app, '+1 (415) 555-2671');
    expect(abroad.statusCode, abroad.body).toBe(201);
  });

  it('refuses numbers that cannot exist, with one clear message, and makes no account', async () => {
    const app = fileApp();
    for (const typed of NOT_A_NUMBER) {
      const { response, email } = await signUp(app, typed);
      expect(response.statusCode, typed).toBe(400);
      expect(response.json().message, typed).toBe(RULE_MESSAGES.phoneFormat);
      expect(await storedPhoneOf(app, email), typed).toBeUndefined();
    }
  });

  it('changes the phone on the profile the same way', async () => {
    const app = fileApp();
    const player = await createUser(app.db, {
      passwordHash: await testPasswordHash('Quiz-Master-2024'),
    });
    const headers = await bearerFor(app, player);
    const change = (phoneNumber: string) =>
      app.inject({ method: 'PUT', url: '/api/v1/user', headers, payload: { phoneNumber } });

    const changed = await change('(0703) 123-4567');
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await storedPhoneOf(app, player.email)).toBe('+2347031234567');

    const refused = await change('+2340000000000');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(RULE_MESSAGES.phoneFormat);
    expect(await storedPhoneOf(app, player.email)).toBe('+2347031234567');
  });
});
