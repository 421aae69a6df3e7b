import type { FastifyInstance } from 'fastify';
import { describe, expect, it, onTestFinished } from 'vitest';
import { testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createUser } from '../../test/factories.ts';
import { reviewSandboxTopUpsOf } from '../../test/fake-money.ts';
import { topUpFlow } from '../../test/top-ups.ts';

/**
 * GET /payment/status/:reference: the server's own word on one of the caller's top-ups, which
 * /PaymentStatus shows instead of any text a link carries. The checkout's return names the
 * payment by its reference.
 */
const database = testDatabasePerFile({ alone: true });
const PUBLIC_URL = 'http://localhost:3998';
const fileApp = testAppPerFile(database, { PUBLIC_URL });

async function player(app: FastifyInstance) {
  const user = await createUser(app.db);
  onTestFinished(() => reviewSandboxTopUpsOf(app.db, user.id));
  const headers = await bearerFor(app, user);
  const flow = topUpFlow(app, headers, PUBLIC_URL);
  /** The sandbox checkout's Pay or Cancel, then the callback: where the browser lands. */
  const finish = async (paymentUrl: string, button: 'pay' | 'cancel') => {
    const pressed = await app.inject({
      method: 'POST',
      url: `${new URL(paymentUrl).pathname}/${button}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    const callback = await app.inject({ url: String(pressed.headers.location) });
    return new URL(String(callback.headers.location), PUBLIC_URL);
  };
  const status = (reference: string, as = headers) =>
    app.inject({
      url: `/api/v1/payment/status/${encodeURIComponent(reference)}`,
      headers: as,
    });
  return { user, headers, flow, finish, status };
}

describe('GET /payment/status/:reference', () => {
  it('answers pending, then the credit, in the server’s words', async () => {
    const app = fileApp();
    const { flow, finish, status } = await player(app);
    const { paymentUrl, reference } = await flow.start(2500, 'paystack');

    const pending = await status(reference);
    expect(pending.statusCode, pending.body).toBe(200);
    expect(pending.json().data).toEqual({
      reference,
      amount: 2500,
      status: 'pending',
      message: 'Your payment is still being confirmed. We will notify you when it lands.',
    });

    const landed = await finish(paymentUrl, 'pay');
    expect(landed.pathname).toBe('/PaymentStatus');
    // The page is told which payment to ask about.
    expect(landed.searchParams.get('reference')).toBe(reference);
    expect(landed.searchParams.get('status')).toBe('success');
    expect((await status(reference)).json().data).toEqual({
      reference,
      amount: 2500,
      status: 'successful',
      message: '₦2,500 has been added to your wallet',
    });
  });

  it('answers a failed payment with the reason the server recorded', async () => {
    const app = fileApp();
    const { flow, finish, status } = await player(app);
    const { paymentUrl, reference } = await flow.start(1000, 'transactpay');
    const landed = await finish(paymentUrl, 'cancel');
    expect(landed.searchParams.get('reference')).toBe(reference);
    expect((await status(reference)).json().data).toEqual({
      reference,
      amount: 1000,
      status: 'failed',
      message: 'Payment was cancelled',
    });
  });

  it('answers money kept from the wallet by a deposit limit as the return did: a failure saying where it is', async () => {
    const app = fileApp();
    const { headers, flow, finish, status } = await player(app);
    const first = await flow.start(1000, 'transactpay');
    const second = await flow.start(1000, 'transactpay');
    const limit = await app.inject({
      method: 'PUT',
      url: '/api/v1/responsible-play/limits',
      headers,
      payload: { kind: 'deposit', period: 'day', amount: 1000 },
    });
    expect(limit.statusCode, limit.body).toBe(200);
    await finish(first.paymentUrl, 'pay');
    const landed = await finish(second.paymentUrl, 'pay');
    expect(landed.searchParams.get('status')).toBe('failed');
    expect((await status(second.reference)).json().data).toEqual({
      reference: second.reference,
      amount: 1000,
      status: 'failed',
      message: landed.searchParams.get('message'),
    });
    expect(landed.searchParams.get('message')).toMatch(/^₦1,000 (is on hold|was refunded): /);
  });

  it('tells nobody about another player’s payment: the same 404 as an unknown reference', async () => {
    const app = fileApp();
    const owner = await player(app);
    const other = await player(app);
    const { reference } = await owner.flow.start(1500, 'paystack');

    const theirs = await other.status(reference);
    const unknown = await other.status('PLK-NO-SUCH-PAYMENT');
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual(unknown.json());
    expect(theirs.body).not.toContain('1,500');

    const anonymous = await app.inject({ url: `/api/v1/payment/status/${reference}` });
    expect(anonymous.statusCode).toBe(401);
  });
});
