import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KYC_MESSAGES } from '../../../shared/kyc.ts';
import { identityVerifications, users } from '../../db/schema.ts';
import { SANDBOX_NUMBERS } from '../../providers/kyc/sandbox.ts';
import { buildTestApp, testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createUser, type UserRow } from '../../test/factories.ts';
import { type FakeDojah, startFakeDojah } from '../../test/fake-dojah.ts';
import { notificationTitles } from '../../test/fake-money.ts';

/** Tier 2 through (fake) Dojah: every outcome of an identity check, and what it leaves behind. */
const database = testDatabasePerFile();
let dojah: FakeDojah;
beforeAll(async () => {
  dojah = await startFakeDojah();
});
afterAll(() => dojah.close());

/** An 11-digit number no other test uses (test files share one database on PostgreSQL). */
const freshNumber = (first: string) => `${first}${String(randomInt(1e9, 1e10))}`;

const ADA = {
  first_name: 'ADA',
  middle_name: 'NGOZI',
  last_name: 'OKAFOR',
  date_of_birth: '1990-05-14',
};

/**
 * A date of birth no other identity of this file has: a person is also known by name and date
 * of birth (a NIN holder matching a BVN holder), so tests that verify the same name must not
 * meet on the same day.
 */
let nextBirthDay = randomInt(0, 20_000);
function freshBirthDate(): string {
  nextBirthDay += 1;
  return new Date(Date.UTC(1940, 0, 1) + nextBirthDay * 86_400_000).toISOString().slice(0, 10);
}

/** A BVN record writes the date as Dojah does there: 14-May-1990. */
function bvnDate(isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  const month = date.toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' });
  return `${String(date.getUTCDate()).padStart(2, '0')}-${month}-${date.getUTCFullYear()}`;
}

async function player(app: FastifyInstance, overrides: Partial<UserRow> = {}) {
  const user = await createUser(app.db, { fullname: 'Ada Okafor', ...overrides });
  return { user, headers: await bearerFor(app, user) };
}

const verify = (
  app: FastifyInstance,
  headers: Record<string, string>,
  payload: { idType: string; idNumber: string; dateOfBirth: string },
) => app.inject({ method: 'POST', url: '/api/v1/kyc/verify', headers, payload });

async function attemptsOf(app: FastifyInstance, userId: string) {
  return app.db
    .select()
    .from(identityVerifications)
    .where(eq(identityVerifications.userId, userId));
}

async function tierOf(app: FastifyInstance, userId: string) {
  const [row] = await app.db
    .select({ tier: users.kycTier, name: users.verifiedName, birth: users.verifiedBirthDate })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

describe('identity checks through Dojah (tier 2)', () => {
  const dojahApp = testAppPerFile(database, () => dojah.env);

  it('a match verifies the account: tier 2, the name kept, the number only as a keyed hash', async () => {
    const app = dojahApp();
    const { user, headers } = await player(app, { fullname: 'okafor ada' });
    const nin = freshNumber('7');
    dojah.add('NIN', nin, ADA);

    const before = dojah.requests.length;
    const response = await verify(app, headers, {
      idType: 'NIN',
      idNumber: nin,
      dateOfBirth: '1990-05-14',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toBe(KYC_MESSAGES.verified);
    expect(response.json().data).toMatchObject({ tier: 2, verifiedName: 'Ada Ngozi Okafor' });
    // One lookup, with Dojah's two credential headers.
    expect(dojah.requests.slice(before)).toEqual([{ path: '/api/v1/kyc/nin', authorised: true }]);

    expect(await tierOf(app, user.id)).toEqual({
      tier: 2,
      name: 'Ada Ngozi Okafor',
      birth: '1990-05-14',
    });
    const [row, ...others] = await attemptsOf(app, user.id);
    expect(others).toEqual([]);
    expect(row).toMatchObject({
      idType: 'NIN',
      idLastFour: nin.slice(-4),
      status: 'VERIFIED',
      provider: 'dojah',
      mode: 'live',
      failureReason: null,
    });
    expect(row?.idHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(nin);
    expect(await notificationTitles(app.db, user.id)).toContain('Identity verified');

    const again = await verify(app, headers, {
      idType: 'NIN',
      idNumber: nin,
      dateOfBirth: '1990-05-14',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(KYC_MESSAGES.alreadyVerified);
  });

  it('reads a BVN lookup, whose date Dojah writes as 14-May-1990', async () => {
    const app = dojahApp();
    const { user, headers } = await player(app, { fullname: 'Ngozi Okafor' });
    const bvn = freshNumber('2');
    const born = freshBirthDate();
    expect(bvnDate('1990-05-14')).toBe('14-May-1990');
    dojah.add('BVN', bvn, { ...ADA, date_of_birth: bvnDate(born) });
    const response = await verify(app, headers, {
      idType: 'BVN',
      idNumber: bvn,
      dateOfBirth: born,
    });
    expect(response.statusCode, response.body).toBe(200);
    const [row] = await attemptsOf(app, user.id);
    expect(row?.providerReference).toMatch(/^dojah-/);
  });

  const refusals = [
    {
      name: 'a name that does not match the account',
      fullname: 'Adaeze Obi',
      dateOfBirth: '1990-05-14',
      identity: ADA,
      message: KYC_MESSAGES.nameMismatch,
      reason: 'name_mismatch',
    },
    {
      name: 'a date of birth other than the one typed',
      fullname: 'Ada Okafor',
      dateOfBirth: '1990-05-15',
      identity: ADA,
      message: KYC_MESSAGES.birthDateMismatch,
      reason: 'birth_date_mismatch',
    },
    {
      name: 'a date of birth under 18',
      fullname: 'Ada Okafor',
      dateOfBirth: '2012-01-31',
      identity: { ...ADA, date_of_birth: '2012-01-31' },
      message: KYC_MESSAGES.underage,
      reason: 'underage',
    },
  ];
  for (const refusal of refusals) {
    it(`refuses ${refusal.name}, records why, and changes nothing`, async () => {
      const app = dojahApp();
      const { user, headers } = await player(app, { fullname: refusal.fullname });
      const nin = freshNumber('7');
      dojah.add('NIN', nin, refusal.identity);
      const response = await verify(app, headers, {
        idType: 'NIN',
        idNumber: nin,
        dateOfBirth: refusal.dateOfBirth,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({
        statusCode: 400,
        code: 'BAD_REQUEST',
        message: refusal.message,
      });
      expect(await tierOf(app, user.id)).toEqual({ tier: 1, name: null, birth: null });
      const rows = await attemptsOf(app, user.id);
      expect(rows.map((row) => [row.status, row.failureReason])).toEqual([
        ['REJECTED', refusal.reason],
      ]);
      // Nothing of the other person's identity is kept for a refused check.
      expect(rows[0]?.returnedName).toBeNull();
      const status = await app.inject({ url: '/api/v1/kyc', headers });
      expect(status.json().data.lastAttempt).toMatchObject({
        status: 'REJECTED',
        reason: refusal.message,
        idLastFour: nin.slice(-4),
      });
    });
  }

  it('an unknown number is refused as not found', async () => {
    const app = dojahApp();
    const { headers } = await player(app);
    const response = await verify(app, headers, {
      idType: 'BVN',
      idNumber: freshNumber('2'),
      dateOfBirth: '1990-05-14',
    });
    expect(response.json()).toEqual({
      statusCode: 400,
      code: 'BAD_REQUEST',
      message: KYC_MESSAGES.notFound,
    });
  });

  it('provider down: a clear "try again later", nothing half-saved, and a retry later verifies', async () => {
    const app = dojahApp();
    const { user, headers } = await player(app);
    const nin = freshNumber('7');
    dojah.add('NIN', nin, ADA);
    const payload = { idType: 'NIN', idNumber: nin, dateOfBirth: '1990-05-14' };
    for (const outage of ['error', 'hang-up'] as const) {
      dojah.setOutage(outage);
      try {
        const response = await verify(app, headers, payload);
        expect(response.statusCode, response.body).toBe(503);
        expect(response.json()).toEqual({
          statusCode: 503,
          code: 'UNAVAILABLE',
          message: KYC_MESSAGES.providerDown,
        });
      } finally {
        dojah.setOutage(null);
      }
    }
    expect(await tierOf(app, user.id)).toEqual({ tier: 1, name: null, birth: null });
    const rows = await attemptsOf(app, user.id);
    expect(rows.map((row) => [row.status, row.failureReason])).toEqual([
      ['REJECTED', 'provider_unavailable'],
      ['REJECTED', 'provider_unavailable'],
    ]);
    expect(await notificationTitles(app.db, user.id)).not.toContain('Identity verified');

    const later = await verify(app, headers, payload);
    expect(later.statusCode, later.body).toBe(200);
    expect((await tierOf(app, user.id))?.tier).toBe(2);
  });

  it('wrong credentials count as the provider being unavailable, not as a refusal of the player', async () => {
    const app = await buildTestApp(database(), { ...dojah.env, KYC_SECRET_KEY: 'not-the-key' });
    const { user, headers } = await player(app);
    const nin = freshNumber('7');
    dojah.add('NIN', nin, ADA);
    const response = await verify(app, headers, {
      idType: 'NIN',
      idNumber: nin,
      dateOfBirth: '1990-05-14',
    });
    expect(response.statusCode).toBe(503);
    expect((await tierOf(app, user.id))?.tier).toBe(1);
  });

  it('one identity cannot verify a second account', async () => {
    const app = dojahApp();
    const first = await player(app);
    const second = await player(app, { fullname: 'Ada Ngozi Okafor' });
    const nin = freshNumber('7');
    dojah.add('NIN', nin, ADA);
    const payload = { idType: 'NIN', idNumber: nin, dateOfBirth: '1990-05-14' };
    expect((await verify(app, first.headers, payload)).statusCode).toBe(200);
    const lookups = dojah.requests.length;

    const duplicate = await verify(app, second.headers, payload);
    expect(duplicate.json()).toEqual({
      statusCode: 400,
      code: 'BAD_REQUEST',
      message: KYC_MESSAGES.duplicate,
    });
    // Known already: Dojah is not paid to say so again.
    expect(dojah.requests.length).toBe(lookups);
    expect((await tierOf(app, second.user.id))?.tier).toBe(1);
    expect((await attemptsOf(app, second.user.id)).map((row) => row.failureReason)).toEqual([
      'duplicate',
    ]);
    expect((await tierOf(app, first.user.id))?.tier).toBe(2);
  });

  it('a BVN and the NIN its record names are one identity, whichever verifies first', async () => {
    const app = dojahApp();
    for (const order of [
      ['NIN', 'BVN'],
      ['BVN', 'NIN'],
    ] as const) {
      const nin = freshNumber('7');
      const bvn = freshNumber('2');
      dojah.add('NIN', nin, ADA);
      dojah.add('BVN', bvn, { ...ADA, nin });
      const numbers = { NIN: nin, BVN: bvn };
      const first = await player(app);
      const second = await player(app);
      const firstCheck = await verify(app, first.headers, {
        idType: order[0],
        idNumber: numbers[order[0]],
        dateOfBirth: '1990-05-14',
      });
      expect(firstCheck.statusCode, firstCheck.body).toBe(200);
      const secondCheck = await verify(app, second.headers, {
        idType: order[1],
        idNumber: numbers[order[1]],
        dateOfBirth: '1990-05-14',
      });
      expect(secondCheck.json(), order.join(' then ')).toEqual({
        statusCode: 400,
        code: 'BAD_REQUEST',
        message: KYC_MESSAGES.duplicate,
      });
      expect((await tierOf(app, second.user.id))?.tier).toBe(1);
    }
  });

  it('a BVN whose record names no NIN and the same person’s NIN are one identity: same name and date of birth', async () => {
    const app = dojahApp();
    for (const order of [
      ['BVN', 'NIN'],
      ['NIN', 'BVN'],
    ] as const) {
      const born = freshBirthDate();
      const nin = freshNumber('7');
      const bvn = freshNumber('2');
      // The two registers write the same person differently: the BVN here has no middle name.
      dojah.add('NIN', nin, { ...ADA, date_of_birth: born });
      dojah.add('BVN', bvn, {
        first_name: 'Ada',
        last_name: 'Okafor',
        date_of_birth: bvnDate(born),
      });
      const numbers = { NIN: nin, BVN: bvn };
      const first = await player(app);
      const second = await player(app, { fullname: 'Ada N. Okafor' });
      const firstCheck = await verify(app, first.headers, {
        idType: order[0],
        idNumber: numbers[order[0]],
        dateOfBirth: born,
      });
      expect(firstCheck.statusCode, firstCheck.body).toBe(200);

      const secondCheck = await verify(app, second.headers, {
        idType: order[1],
        idNumber: numbers[order[1]],
        dateOfBirth: born,
      });
      // The answer a known number gets: nothing says which account holds the identity.
      expect(secondCheck.json(), order.join(' then ')).toEqual({
        statusCode: 400,
        code: 'BAD_REQUEST',
        message: KYC_MESSAGES.duplicate,
      });
      expect(await tierOf(app, second.user.id)).toEqual({ tier: 1, name: null, birth: null });
      const rows = await attemptsOf(app, second.user.id);
      expect(rows.map((row) => [row.idType, row.status, row.failureReason])).toEqual([
        [order[1], 'REJECTED', 'duplicate'],
      ]);
      expect(rows[0]?.returnedName).toBeNull();
    }
  });

  it('two people of the same name and date of birth each verify with their own number', async () => {
    const app = dojahApp();
    const born = freshBirthDate();
    const identity = { ...ADA, date_of_birth: born };
    // Each register gives a person one number: two NINs are two people, and so are two BVNs,
    // or a BVN whose record names a NIN other than the one verified.
    const firstNin = freshNumber('7');
    const secondNin = freshNumber('7');
    const bvn = freshNumber('2');
    dojah.add('NIN', firstNin, identity);
    dojah.add('NIN', secondNin, identity);
    dojah.add('BVN', bvn, { ...identity, date_of_birth: bvnDate(born), nin: freshNumber('7') });
    const checks = [
      { idType: 'NIN', idNumber: firstNin },
      { idType: 'NIN', idNumber: secondNin },
      { idType: 'BVN', idNumber: bvn },
    ];
    for (const check of checks) {
      const { user, headers } = await player(app);
      const response = await verify(app, headers, { ...check, dateOfBirth: born });
      expect(response.statusCode, `${check.idType}: ${response.body}`).toBe(200);
      expect((await tierOf(app, user.id))?.tier).toBe(2);
    }
  });

  it('limits checks per player as docs/kyc.md says: three free, the fourth waits 15 minutes', async () => {
    const app = dojahApp();
    const { headers } = await player(app);
    const payload = () => ({
      idType: 'NIN',
      idNumber: freshNumber('7'),
      dateOfBirth: '1990-05-14',
    });
    for (let attempt = 0; attempt < 3; attempt += 1)
      expect((await verify(app, headers, payload())).statusCode).toBe(400);
    const lookups = dojah.requests.length;
    const refused = await verify(app, headers, payload());
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(
      'Too many identity checks. Please try again in 15 minutes.',
    );
    expect(refused.headers['retry-after']).toBe('900');
    expect(dojah.requests.length).toBe(lookups);
  });

  it('needs a valid Nigerian phone number on file first', async () => {
    const app = dojahApp();
    for (const phoneNumber of ['', '+14155550123']) {
      const { user, headers } = await player(app, { phoneNumber });
      const response = await verify(app, headers, {
        idType: 'NIN',
        idNumber: freshNumber('7'),
        dateOfBirth: '1990-05-14',
      });
      expect(response.json()).toEqual({
        statusCode: 400,
        code: 'BAD_REQUEST',
        message: KYC_MESSAGES.phoneNeeded,
      });
      expect(await attemptsOf(app, user.id)).toEqual([]);
      expect((await app.inject({ url: '/api/v1/kyc', headers })).json().data.phoneOnFile).toBe(
        false,
      );
    }
  });

  it('refuses bad input with the form’s messages', async () => {
    const app = dojahApp();
    const { headers } = await player(app);
    const cases: Array<[Record<string, string>, string]> = [
      [
        { idType: 'PASSPORT', idNumber: '12345678901', dateOfBirth: '1990-05-14' },
        'Choose BVN or NIN',
      ],
      [
        { idType: 'NIN', idNumber: '1234', dateOfBirth: '1990-05-14' },
        'Enter your 11-digit BVN or NIN',
      ],
      [
        { idType: 'NIN', idNumber: '12345678901', dateOfBirth: '14/05/1990' },
        'Enter your date of birth',
      ],
    ];
    for (const [payload, message] of cases) {
      const response = await verify(app, headers, payload as never);
      expect(response.json()).toEqual({ statusCode: 400, code: 'VALIDATION_FAILED', message });
    }
  });
});

describe('the identity sandbox', () => {
  const sandboxApp = testAppPerFile(database);

  it('is on without keys outside production: the documented test numbers answer', async () => {
    const app = sandboxApp();
    const { user, headers } = await player(app, { fullname: 'Ada Okafor' });
    const down = await verify(app, headers, {
      idType: 'NIN',
      idNumber: SANDBOX_NUMBERS.down.NIN,
      dateOfBirth: '1990-05-14',
    });
    expect(down.json()).toEqual({
      statusCode: 503,
      code: 'UNAVAILABLE',
      message: KYC_MESSAGES.providerDown,
    });
    const minor = await player(app, { fullname: 'Chidi Okafor' });
    const underage = await verify(app, minor.headers, {
      idType: 'BVN',
      idNumber: SANDBOX_NUMBERS.minor.BVN,
      dateOfBirth: '2015-06-01',
    });
    expect(underage.json().message).toBe(KYC_MESSAGES.underage);
    // The adult test identity verifies one account per database only; this file's may already
    // have used it, so only its answer is checked here, not the tier.
    const adult = await verify(app, headers, {
      idType: 'NIN',
      idNumber: SANDBOX_NUMBERS.adult.NIN,
      dateOfBirth: '1990-05-14',
    });
    expect([200, 400]).toContain(adult.statusCode);
    if (adult.statusCode === 400) expect(adult.json().message).toBe(KYC_MESSAGES.duplicate);
    const [row] = await attemptsOf(app, user.id);
    expect(row).toMatchObject({ provider: 'sandbox', mode: 'sandbox' });
  });

  it('has a second adult, another person than the first, for a second account', async () => {
    const app = sandboxApp();
    const { headers } = await player(app, { fullname: 'Bola Adeyemi' });
    const response = await verify(app, headers, {
      idType: 'BVN',
      idNumber: SANDBOX_NUMBERS.secondAdult.BVN,
      dateOfBirth: '1988-03-02',
    });
    // Like the first adult, this one verifies one account per database.
    expect([200, 400]).toContain(response.statusCode);
    if (response.statusCode === 200)
      expect(response.json().data.verifiedName).toBe('Bola Funke Adeyemi');
    else expect(response.json().message).toBe(KYC_MESSAGES.duplicate);
  });
});
