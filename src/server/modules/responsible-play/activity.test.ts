import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lagosMonth } from '../../../shared/responsible-play.ts';
import { buildTestApp } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import {
  bearerFor,
  createGame,
  createPlayer,
  testClock,
  uniqueSuffix,
} from '../../test/factories.ts';
import { type FakePaystack, startFakePaystack } from '../../test/fake-paystack.ts';
import { ACCOUNTS, post } from '../wallet/ledger.ts';
import { csvField, csvLine } from './activity.ts';

/** The monthly statement (page and CSV) and the reality check, from real money movements. */
const database = testDatabasePerFile();
let paystack: FakePaystack;
beforeAll(async () => {
  paystack = await startFakePaystack();
});
afterAll(() => paystack.close());

type App = Awaited<ReturnType<typeof buildTestApp>>;

/** A prize as the draw posts it (the draw itself is tested in modules/draws). */
async function awardPrize(app: App, userId: string, kobo: bigint) {
  await app.db.transaction((tx) =>
    post(tx, {
      kind: 'prize',
      reference: `prize:test:${uniqueSuffix()}`,
      description: 'Prize',
      lines: [
        { account: ACCOUNTS.wallet, userId, amount: kobo },
        { account: ACCOUNTS.prizeExpense, amount: -kobo },
      ],
    }),
  );
}

async function playFor(app: App, headers: Record<string, string>, fee: bigint) {
  const game = await createGame(app.db, { entryFee: fee });
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/game/play',
    headers,
    payload: { gameID: game.id, submittedAnswer: 'Pounded yam' },
  });
  expect(response.statusCode, response.body).toBe(201);
}

describe('activity statement', () => {
  it('sums deposits, entry fees, winnings and withdrawals per month, on the page and as CSV', async () => {
    const app = await buildTestApp(database(), { ...paystack.env, PUBLIC_URL: 'https://p.test' });
    const player = await createPlayer(app.db, { bank: '058' });
    const headers = await bearerFor(app, player);

    const topUp = await app.inject({
      method: 'POST',
      url: '/api/v1/payment/paystack',
      headers,
      payload: { amount: 3000 },
    });
    const { reference } = topUp.json().data as { reference: string };
    paystack.markPaid(reference);
    const back = await app.inject({
      url: `/api/v1/payment/callback/paystack?reference=${reference}`,
    });
    expect(String(back.headers.location)).toContain('status=success');
    await playFor(app, headers, 20_000n);
    await playFor(app, headers, 5_050n);
    await awardPrize(app, player.id, 100_000n);
    const withdrawal = await app.inject({
      method: 'POST',
      url: '/api/v1/withdrawal',
      headers,
      payload: { amount: 1000 },
    });
    expect(withdrawal.statusCode, withdrawal.body).toBe(201);

    const month = lagosMonth(new Date());
    const page = await app.inject({ url: '/api/v1/responsible-play/statement', headers });
    expect(page.json().data).toEqual({
      months: [
        {
          month,
          deposits: 3000,
          entryFees: 250.5,
          winnings: 1000,
          // ₦1,000 and the ₦50 fee.
          withdrawals: 1050,
          other: 0,
          net: 3000 - 250.5 + 1000 - 1050,
        },
      ],
    });

    const csv = await app.inject({ url: '/api/v1/responsible-play/statement.csv', headers });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(
      /^attachment; filename="pluckers-statement-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(csv.body).toBe(
      'Month,Deposits (NGN),Entry fees (NGN),Winnings (NGN),Withdrawals (NGN),Other (NGN),Net (NGN)\r\n' +
        `${month},3000.00,250.50,1000.00,1050.00,0.00,2699.50\r\n`,
    );
    expect((await app.inject({ url: '/api/v1/responsible-play/statement.csv' })).statusCode).toBe(
      401,
    );
  });

  it('a player with no movements gets an empty statement and a CSV with only its header', async () => {
    const app = await buildTestApp(database());
    const headers = await bearerFor(app, await createPlayer(app.db, { bank: null }));
    const page = await app.inject({ url: '/api/v1/responsible-play/statement', headers });
    expect(page.json().data).toEqual({ months: [] });
    const csv = await app.inject({ url: '/api/v1/responsible-play/statement.csv', headers });
    expect(csv.body.split('\r\n')).toHaveLength(2);
  });

  it('escapes CSV fields: separators, quotes, line breaks and spreadsheet formulas', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField('+234')).toBe("'+234");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('-12.50')).toBe('-12.50');
    expect(csvField('-cmd')).toBe("'-cmd");
    expect(csvField(-3)).toBe('-3');
    expect(csvLine(['a', 1, 'b,c'])).toBe('a,1,"b,c"\r\n');
  });
});

describe('reality check', () => {
  it('reports time and net spent or won since this sign-in, not before it', async () => {
    const clock = testClock();
    const app = await buildTestApp(database(), {}, { clock });
    const player = await createPlayer(app.db, { kobo: 1_000_000n, bank: null });
    // An earlier sign-in's play is not this session's.
    await playFor(app, await bearerFor(app, player), 40_000n);
    // The session opens on the app's clock, the ledger on the database's: line them up.
    clock.set(new Date());

    const headers = await bearerFor(app, player);
    const before = await app.inject({ url: '/api/v1/responsible-play/reality-check', headers });
    expect(before.json().data).toMatchObject({
      intervalMinutes: null,
      minutesPlayed: 0,
      spent: 0,
      won: 0,
      net: 0,
    });
    await app.inject({
      method: 'PUT',
      url: '/api/v1/responsible-play/preferences',
      headers,
      payload: { realityCheckMinutes: 15 },
    });
    await playFor(app, headers, 20_000n);
    await playFor(app, headers, 30_000n);
    await awardPrize(app, player.id, 35_000n);
    clock.advance(45 * 60_000 + 30_000);

    const check = await app.inject({ url: '/api/v1/responsible-play/reality-check', headers });
    expect(check.statusCode, check.body).toBe(200);
    expect(check.json().data).toMatchObject({
      intervalMinutes: 15,
      minutesPlayed: 45,
      spent: 500,
      won: 350,
      net: -150,
    });
  });
});
