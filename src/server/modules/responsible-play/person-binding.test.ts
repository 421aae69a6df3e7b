import { randomInt } from 'node:crypto';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_PAUSED_MESSAGE } from '../../../shared/responsible-play.ts';
import { rowsOf } from '../../db/rows.ts';
import { adminAudit, playExclusions, users } from '../../db/schema.ts';
import { buildTestApp } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import {
  bearerFor,
  createAdmin,
  createGame,
  createPlan,
  createPlayer,
  createPlayers,
  testClock,
  type UserRow,
  uniquePhone,
  uniqueSuffix,
} from '../../test/factories.ts';
import { type FakeDojah, startFakeDojah } from '../../test/fake-dojah.ts';
import { balanceOf, notificationsTitled } from '../../test/fake-money.ts';
import { type FakePaystack, startFakePaystack } from '../../test/fake-paystack.ts';
import { expectLedgerOk } from '../../test/ledger.ts';
import { testPasswordHash } from '../../test/passwords.ts';
import { renewDuePlans } from '../plans/service.ts';
import { startBreak } from './test-fixtures.ts';

/** A break binds the person: another account of the same player is held to it. */
const database = testDatabasePerFile();
let paystack: FakePaystack;
let dojah: FakeDojah;
beforeAll(async () => {
  [paystack, dojah] = await Promise.all([startFakePaystack(), startFakeDojah()]);
});
afterAll(() => Promise.all([paystack.close(), dojah.close()]));

const START = new Date('2026-12-02T09:00:00Z');
const BREAK_REFUSAL = {
  statusCode: 403,
  code: 'PLAY_PAUSED',
  message:
    'You are taking a break until 09 Dec 2026, 10:00 am. Until then you can see your balance and history and withdraw, but not play, top up or subscribe.',
};
const PAUSED_REFUSAL = { statusCode: 403, code: 'PLAY_PAUSED', message: ACCOUNT_PAUSED_MESSAGE };

async function setup() {
  const clock = testClock(START);
  const app = await buildTestApp(database(), { ...paystack.env, ...dojah.env }, { clock });
  return { app, clock };
}

/** Ada, with a phone number and a Gmail address of her own, starts a 7-day time-out. */
async function adaOnABreak(app: FastifyInstance, overrides: Partial<UserRow> = {}) {
  const suffix = uniqueSuffix();
  // An empty wallet, so the account can also be deleted.
  const ada = await createPlayer(app.db, {
    overrides: {
      fullname: 'Ada Obi',
      email: `ada.obi.${suffix}@gmail.com`,
      phoneNumber: uniquePhone(),
      ...overrides,
    },
  });
  await startBreak(app, await bearerFor(app, ada));
  return { ada, suffix };
}

/** Everything that takes money in or plays, as the given account. */
async function moneyIn(app: FastifyInstance, headers: Record<string, string>) {
  const game = await createGame(app.db, { entryFee: 10_000n });
  const plan = await createPlan(app.db, { gamesPerDay: null });
  const [play, topUp, subscribe] = await Promise.all([
    app.inject({
      method: 'POST',
      url: '/api/v1/game/play',
      headers,
      payload: { gameID: game.id, submittedAnswer: 'Another account, same me' },
    }),
    app.inject({
      method: 'POST',
      url: '/api/v1/payment/paystack',
      headers,
      payload: { amount: 1000 },
    }),
    app.inject({ method: 'POST', url: `/api/v1/plan/subscribe/${plan.id}`, headers }),
  ]);
  return { play: play.json(), topUp: topUp.json(), subscribe: subscribe.json() };
}

/** Signs up through the form and proves the e-mail through the database, as a code would. */
async function signUp(
  app: FastifyInstance,
  fields: { email: string; phone: string; name: string },
) {
  const answer = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    payload: {
      fullname: fields.name,
      username: `p_${uniqueSuffix()}`.slice(0, 20),
      email: fields.email,
      phoneNumber: fields.phone,
      password: 'Second-Account-2026',
      confirmPassword: 'Second-Account-2026',
      ageConfirmed: true,
    },
  });
  const [account] = await app.db
    .update(users)
    .set({ emailVerifiedAt: START })
    .where(eq(users.email, fields.email))
    .returning();
  return { answer: { statusCode: answer.statusCode, body: answer.json() }, account };
}

async function boundRows(app: FastifyInstance, userId: string) {
  return app.db
    .select()
    .from(playExclusions)
    .where(and(eq(playExclusions.userId, userId), isNotNull(playExclusions.boundFrom)));
}

describe('a break binds the person, not the account', () => {
  it('holds a second sign-up with the same phone, name and a plus-addressed e-mail to the break', async () => {
    const { app } = await setup();
    const { ada, suffix } = await adaOnABreak(app);
    const { answer, account } = await signUp(app, {
      email: `ada.obi.${suffix}+2@gmail.com`,
      phone: ada.phoneNumber,
      name: 'Ada Obi',
    });
    expect(answer.statusCode).toBe(201);
    if (!account) throw new Error('the second account was not created');

    const refused = await moneyIn(app, await bearerFor(app, account));
    expect(refused).toEqual({
      play: BREAK_REFUSAL,
      topUp: BREAK_REFUSAL,
      subscribe: BREAK_REFUSAL,
    });
    const [bound] = await boundRows(app, account.id);
    expect(bound?.boundBy).toEqual(['email', 'phone']);
    // The player's own page shows the break they are held to.
    const page = await app.inject({
      url: '/api/v1/responsible-play',
      headers: await bearerFor(app, account),
    });
    expect(page.json().data.exclusion).toMatchObject({
      kind: 'timeout',
      endsAt: '2026-12-09T09:00:00.000Z',
    });
    expect(paystack.requests.some((request) => JSON.stringify(request.body).includes(suffix))).toBe(
      false,
    );
  });

  it('binds an account in the statement that makes it, before any sign-in', async () => {
    const { app } = await setup();
    const { ada, suffix } = await adaOnABreak(app);
    const { account } = await signUp(app, {
      email: `ada.obi.${suffix}+3@gmail.com`,
      phone: uniquePhone(),
      name: 'Someone Else',
    });
    if (!account) throw new Error('the second account was not created');
    expect((await boundRows(app, account.id)).map((row) => row.boundBy)).toEqual([['email']]);
    // Whoever writes accounts, not only sign-up: two rows put straight into the table in one
    // statement while the break runs, one of them with her phone number.
    const [hers, stranger] = await createPlayers(app.db, 2, (index) => ({
      createdAt: START,
      ...(index === 0 ? { phoneNumber: ada.phoneNumber } : {}),
    }));
    if (!hers || !stranger) throw new Error('the accounts were not created');
    expect((await boundRows(app, hers.id)).map((row) => row.boundBy)).toEqual([['phone']]);
    expect(await boundRows(app, stranger.id)).toEqual([]);
  });

  it('binds Gmail addresses written with other dots, case and domain', async () => {
    const { app } = await setup();
    const { suffix } = await adaOnABreak(app);
    const other = await createPlayer(app.db, {
      kobo: 100_000n,
      overrides: { email: `AdaObi.${suffix}@GoogleMail.com`, fullname: 'A. Obi' },
    });
    // A play from the wallet's own balance, the one-statement path included.
    expect((await moneyIn(app, await bearerFor(app, other))).play).toEqual(BREAK_REFUSAL);
    expect(await balanceOf(app.db, other.id)).toBe(100_000n);
  });

  it('reads one mailbox however it is written: case and a +tag anywhere, dots only at Gmail', async () => {
    const cases = [
      ['Ada.Obi+Games@Gmail.com', 'adaobi@gmail.com'],
      [' a.d.a.obi@googlemail.com ', 'adaobi@gmail.com'],
      ['Ada.Obi+2@Yahoo.com', 'ada.obi@yahoo.com'],
      ['ada+pluckers+2@example.ng', 'ada@example.ng'],
    ] as const;
    const { app } = await setup();
    for (const [typed, key] of cases) {
      const [row] = await rowsOf<{ key: string }>(
        app.db,
        sql`SELECT pluckers_email_key(${typed}) AS key`,
      );
      expect(row?.key, typed).toBe(key);
    }
  });

  it('holds an account that already existed when the break started, on the play in one statement', async () => {
    const { app } = await setup();
    const phone = uniquePhone();
    const earlier = await createPlayer(app.db, {
      kobo: 100_000n,
      overrides: { phoneNumber: phone },
    });
    const headers = await bearerFor(app, earlier);
    await adaOnABreak(app, { phoneNumber: phone });
    // Signed in before the break: only the break's start can have bound it.
    const game = await createGame(app.db, { entryFee: 10_000n });
    const play = await app.inject({
      method: 'POST',
      url: '/api/v1/game/play',
      headers,
      payload: { gameID: game.id, submittedAnswer: 'Signed in before the break' },
    });
    expect(play.json()).toEqual(PAUSED_REFUSAL);
    expect(await balanceOf(app.db, earlier.id)).toBe(100_000n);
  });

  it('holds an account whose phone number changes to the excluded player’s', async () => {
    const { app } = await setup();
    const { ada } = await adaOnABreak(app);
    const other = await createPlayer(app.db, { kobo: 100_000n });
    const headers = await bearerFor(app, other);
    const changed = await app.inject({
      method: 'PUT',
      url: '/api/v1/user',
      headers,
      payload: { phoneNumber: ada.phoneNumber },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await moneyIn(app, headers)).play).toEqual(PAUSED_REFUSAL);
  });

  it('outlives the excluded account: deleted and signed up again with the same e-mail', async () => {
    const { app } = await setup();
    const password = 'Delete-Me-2026!';
    const { ada } = await adaOnABreak(app, { passwordHash: await testPasswordHash(password) });
    const deleted = await app.inject({
      method: 'DELETE',
      url: '/api/v1/user',
      headers: await bearerFor(app, ada),
      payload: { password },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);

    const { account } = await signUp(app, {
      email: ada.email,
      phone: uniquePhone(),
      name: 'Ada Obi',
    });
    if (!account) throw new Error('the new account was not created');
    expect((await moneyIn(app, await bearerFor(app, account))).topUp).toEqual(BREAK_REFUSAL);
  });

  it('holds an account that tries the identity number verified on the excluded player’s', async () => {
    const { app } = await setup();
    const nin = `7${String(randomInt(1e9, 1e10))}`;
    dojah.add('NIN', nin, { first_name: 'ADA', last_name: 'OBI', date_of_birth: '1991-03-09' });
    const payload = { idType: 'NIN', idNumber: nin, dateOfBirth: '1991-03-09' };
    const ada = await createPlayer(app.db, { overrides: { fullname: 'Ada Obi' } });
    const adaHeaders = await bearerFor(app, ada);
    const verified = await app.inject({
      method: 'POST',
      url: '/api/v1/kyc/verify',
      headers: adaHeaders,
      payload,
    });
    expect(verified.statusCode, verified.body).toBe(200);
    await startBreak(app, adaHeaders);

    const other = await createPlayer(app.db, { overrides: { fullname: 'Ada Obi' } });
    const headers = await bearerFor(app, other);
    const duplicate = await app.inject({
      method: 'POST',
      url: '/api/v1/kyc/verify',
      headers,
      payload,
    });
    expect(duplicate.statusCode).toBe(400);
    // Typing a number proves nothing about who holds it: held, without the break's details.
    expect((await moneyIn(app, headers)).topUp).toEqual(PAUSED_REFUSAL);
    expect((await boundRows(app, other.id))[0]?.boundBy).toEqual(['identity']);
  });

  it('holds an account that tries the NIN of the excluded player whose BVN record names no NIN', async () => {
    const { app } = await setup();
    const born = '1988-07-21';
    const bvn = `2${String(randomInt(1e9, 1e10))}`;
    const nin = `7${String(randomInt(1e9, 1e10))}`;
    // The BVN register knows no NIN for her: the same person only by name and date of birth.
    dojah.add('BVN', bvn, { first_name: 'Ada', last_name: 'Okafor', date_of_birth: '21-Jul-1988' });
    dojah.add('NIN', nin, {
      first_name: 'ADA',
      middle_name: 'NGOZI',
      last_name: 'OKAFOR',
      date_of_birth: born,
    });
    const ada = await createPlayer(app.db, { overrides: { fullname: 'Ada Okafor' } });
    const adaHeaders = await bearerFor(app, ada);
    const verified = await app.inject({
      method: 'POST',
      url: '/api/v1/kyc/verify',
      headers: adaHeaders,
      payload: { idType: 'BVN', idNumber: bvn, dateOfBirth: born },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    await startBreak(app, adaHeaders);

    const other = await createPlayer(app.db, { overrides: { fullname: 'Ada N. Okafor' } });
    const headers = await bearerFor(app, other);
    const duplicate = await app.inject({
      method: 'POST',
      url: '/api/v1/kyc/verify',
      headers,
      payload: { idType: 'NIN', idNumber: nin, dateOfBirth: born },
    });
    expect(duplicate.statusCode).toBe(400);
    // A number typed proves nothing about who holds it: held, without the break's details.
    expect(await moneyIn(app, headers)).toEqual({
      play: PAUSED_REFUSAL,
      topUp: PAUSED_REFUSAL,
      subscribe: PAUSED_REFUSAL,
    });
    expect((await boundRows(app, other.id))[0]?.boundBy).toEqual(['identity']);
    await expectLedgerOk(app.db, [ada.id, other.id]);
  });

  it('holds an account that tried a BVN naming her NIN before the excluded player’s break started', async () => {
    const { app } = await setup();
    const born = '1987-11-03';
    const bvn = `2${String(randomInt(1e9, 1e10))}`;
    const nin = `7${String(randomInt(1e9, 1e10))}`;
    const person = { first_name: 'ADA', last_name: 'EZE', date_of_birth: born };
    dojah.add('NIN', nin, person);
    dojah.add('BVN', bvn, { ...person, date_of_birth: '03-Nov-1987', nin });
    const ada = await createPlayer(app.db, { overrides: { fullname: 'Ada Eze' } });
    const adaHeaders = await bearerFor(app, ada);
    const verified = await app.inject({
      method: 'POST',
      url: '/api/v1/kyc/verify',
      headers: adaHeaders,
      payload: { idType: 'NIN', idNumber: nin, dateOfBirth: born },
    });
    expect(verified.statusCode, verified.body).toBe(200);

    const other = await createPlayer(app.db, { overrides: { fullname: 'Ada Eze' } });
    const headers = await bearerFor(app, other);
    const duplicate = await app.inject({
      method: 'POST',
      url: '/api/v1/kyc/verify',
      headers,
      payload: { idType: 'BVN', idNumber: bvn, dateOfBirth: born },
    });
    expect(duplicate.statusCode).toBe(400);
    // The break starts afterwards: the attempt already tied the two accounts to one person.
    await startBreak(app, adaHeaders);
    expect((await moneyIn(app, headers)).topUp).toEqual(PAUSED_REFUSAL);
    expect((await boundRows(app, other.id))[0]?.boundBy).toEqual(['identity']);
    await expectLedgerOk(app.db, [ada.id, other.id]);
  });

  it('holds an account whose verified name and date of birth are the excluded player’s', async () => {
    const { app } = await setup();
    const born = '1985-02-14';
    const ninOf = async (fullname: string) => {
      const nin = `7${String(randomInt(1e9, 1e10))}`;
      dojah.add('NIN', nin, { first_name: 'ADA', last_name: 'BELLO', date_of_birth: born });
      const player = await createPlayer(app.db, { overrides: { fullname } });
      const headers = await bearerFor(app, player);
      const verified = await app.inject({
        method: 'POST',
        url: '/api/v1/kyc/verify',
        headers,
        payload: { idType: 'NIN', idNumber: nin, dateOfBirth: born },
      });
      expect(verified.statusCode, verified.body).toBe(200);
      return { player, headers };
    };
    // Two NINs, each register's one number for a person: the name and birth date still tie them.
    const ada = await ninOf('Ada Bello');
    const other = await ninOf('Bello Ada');
    await startBreak(app, ada.headers);
    expect(await moneyIn(app, other.headers)).toEqual({
      play: BREAK_REFUSAL,
      topUp: BREAK_REFUSAL,
      subscribe: BREAK_REFUSAL,
    });
    expect((await boundRows(app, other.player.id))[0]?.boundBy).toEqual(['name_birth']);
    await expectLedgerOk(app.db, [ada.player.id, other.player.id]);
  });

  it('tells a stranger who types the excluded player’s phone number nothing about the break', async () => {
    const { app } = await setup();
    const { ada } = await adaOnABreak(app);
    const stranger = { name: 'Chidi Eze', phone: ada.phoneNumber };
    const matched = await signUp(app, {
      ...stranger,
      email: `chidi-${uniqueSuffix()}@example.test`,
    });
    const unmatched = await signUp(app, {
      ...stranger,
      phone: uniquePhone(),
      email: `chidi-${uniqueSuffix()}@example.test`,
    });
    // Sign-up answers the same either way.
    expect(matched.answer).toEqual(unmatched.answer);
    if (!matched.account) throw new Error('the account was not created');

    // Money in is refused without the break's kind or end date, and the page shows no break.
    const headers = await bearerFor(app, matched.account);
    expect(await moneyIn(app, headers)).toEqual({
      play: PAUSED_REFUSAL,
      topUp: PAUSED_REFUSAL,
      subscribe: PAUSED_REFUSAL,
    });
    const page = await app.inject({ url: '/api/v1/responsible-play', headers });
    expect(page.json().data.exclusion).toBeNull();
    // Their own break is theirs to start, whatever the one they are held to.
    await startBreak(app, headers, '24h');
  });

  it('lets a stranger’s plan lapse on the break they are held to without naming the break', async () => {
    const { app, clock } = await setup();
    const stranger = await createPlayer(app.db, {
      kobo: 1_000_000n,
      overrides: { fullname: 'Chidi Eze' },
    });
    const headers = await bearerFor(app, stranger);
    const plan = await createPlan(app.db, { gamesPerDay: null });
    const subscribed = await app.inject({
      method: 'POST',
      url: `/api/v1/plan/subscribe/${plan.id}`,
      headers,
    });
    expect(subscribed.statusCode, subscribed.body).toBe(200);
    // Ada starts a 30-day time-out; the stranger then types her phone number as theirs.
    const ada = await createPlayer(app.db, { overrides: { phoneNumber: uniquePhone() } });
    await startBreak(app, await bearerFor(app, ada), '30d');
    const changed = await app.inject({
      method: 'PUT',
      url: '/api/v1/user',
      headers,
      payload: { phoneNumber: ada.phoneNumber },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const balance = await balanceOf(app.db, stranger.id);

    clock.advance(7 * 24 * 3_600_000);
    await renewDuePlans(app.db, clock.now());
    expect(await balanceOf(app.db, stranger.id)).toBe(balance);
    const [notice] = await notificationsTitled(app.db, stranger.id, 'Your plan has ended');
    expect(notice?.message).toBe(
      `Your plan was not renewed, and nothing was charged. ${ACCOUNT_PAUSED_MESSAGE}`,
    );
    await expectLedgerOk(app.db, [stranger.id, ada.id]);
  });

  it('is recorded for the operators, shown on both users’ pages, and lifted with the break', async () => {
    const { app } = await setup();
    const { ada, suffix } = await adaOnABreak(app);
    const other = await createPlayer(app.db, {
      overrides: { email: `ada.obi.${suffix}+games@gmail.com` },
    });
    await bearerFor(app, other); // signing in binds it
    const admin = await createAdmin(app.db);
    const adminHeaders = await bearerFor(app, admin);

    const [audit] = await app.db
      .select()
      .from(adminAudit)
      .where(and(eq(adminAudit.action, 'user.break.bound'), eq(adminAudit.targetId, other.id)));
    expect(audit?.adminId).toBeNull();
    expect(audit?.after).toMatchObject({ boundFromUser: ada.id, matchedOn: ['email'] });

    const adaPage = await app.inject({
      url: `/api/v1/admin/users/${ada.id}/responsible-play`,
      headers: adminHeaders,
    });
    expect(adaPage.statusCode, adaPage.body).toBe(200);
    expect(adaPage.json().data.linkedAccounts).toEqual([
      expect.objectContaining({
        userId: other.id,
        email: other.email,
        matchedOn: ['email'],
        heldByThisAccountsBreak: true,
        endsAt: '2026-12-09T09:00:00.000Z',
        liftedAt: null,
      }),
    ]);
    const otherPage = await app.inject({
      url: `/api/v1/admin/users/${other.id}/responsible-play`,
      headers: adminHeaders,
    });
    expect(otherPage.json().data.linkedAccounts).toEqual([
      expect.objectContaining({ userId: ada.id, heldByThisAccountsBreak: false }),
    ]);
    const auditPage = await app.inject({ url: '/api/v1/admin/audit', headers: adminHeaders });
    expect(auditPage.json().data.entries[0]).toMatchObject({ admin: null });

    const lifted = await app.inject({
      method: 'POST',
      url: `/api/v1/admin/users/${ada.id}/exclusion/lift`,
      headers: adminHeaders,
      payload: { reason: 'Entered by mistake, confirmed by phone' },
    });
    expect(lifted.statusCode, lifted.body).toBe(200);
    const [copy] = await boundRows(app, other.id);
    expect(copy?.liftedReason).toBe('Entered by mistake, confirmed by phone');
    // Lifted stays lifted: signing in again does not bind it anew.
    await bearerFor(app, other);
    expect(await boundRows(app, other.id)).toHaveLength(1);
  });

  it('binds nothing once the break is over', async () => {
    const { app, clock } = await setup();
    const { ada } = await adaOnABreak(app);
    clock.set(new Date('2026-12-09T09:00:00Z'));
    const other = await createPlayer(app.db, { overrides: { phoneNumber: ada.phoneNumber } });
    await bearerFor(app, other);
    expect(await boundRows(app, other.id)).toHaveLength(0);
  });
});
