import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { payments, sandboxTransfers, virtualAccounts } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import {
  SANDBOX_SIGNATURE_HEADER,
  SANDBOX_TRANSFER_EVENT,
  signSandboxWebhook,
} from '../../providers/payments/sandbox.ts';
import { type SandboxTransferResult, sandboxTransferPage } from './sandbox-page.ts';

export const SANDBOX_TRANSFER_PATH = '/payment/sandbox/transfer';

/** Whole naira, as a bank app takes them; at most ₦10,000,000 in one test transfer. */
const MAX_NAIRA = 10_000_000;

const text = (what: string) =>
  z.string().trim().min(1, `Enter the ${what}`).max(100, `The ${what} is at most 100 characters`);

/** The page's form, checked field by field so each refusal says which one and why. */
const transferFormSchema = z.object({
  account: z
    .string()
    .trim()
    .regex(/^\d{10}$/, 'Enter the 10-digit account number'),
  amount: z
    .string()
    .trim()
    .regex(/^\d{1,8}$/, 'Enter the amount in whole naira, e.g. 5000')
    .transform(Number)
    .refine((naira) => naira >= 1 && naira <= MAX_NAIRA, {
      message: `Enter an amount from ₦1 to ₦${MAX_NAIRA.toLocaleString('en-NG')}`,
    }),
  senderName: text("sender's name"),
  senderBank: text("sender's bank"),
});

const formValues = (body: Record<string, string | undefined>) => ({
  account: body.account ?? '',
  amount: body.amount ?? '',
  senderName: body.senderName ?? '',
  senderBank: body.senderBank ?? '',
});

/**
 * The sandbox's "a transfer arrives": a page where anyone trying the sandbox sends test money
 * from a named sender and bank to a player's sandbox account number. The transfer is recorded
 * on the sandbox provider's side (sandbox_transfers) and announced by the same signed webhook a
 * live provider sends, so it is verified, credited or held, and notified exactly as a real one.
 * Answers 404 unless the server runs the payments sandbox (refused in production unless forced).
 */
export async function sandboxTransferRoutes(app: FastifyInstance) {
  app.removeContentTypeParser('application/x-www-form-urlencoded');
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)).entries())),
  );
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const assertSandbox = () => {
    if (!app.paymentProviders.sandbox) throw notFound('No payments sandbox on this server');
  };
  const send = (reply: FastifyReply, status: number, html: string) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(html);

  typed.get(
    SANDBOX_TRANSFER_PATH,
    {
      schema: {
        hide: true,
        querystring: z.object({
          account: z.string().max(20).optional(),
          transfer: z.string().max(60).optional(),
        }),
      },
    },
    async (request, reply) => {
      assertSandbox();
      const { account = '', transfer } = request.query;
      const result = transfer ? await describeTransfer(app, transfer) : null;
      return send(
        reply,
        200,
        sandboxTransferPage({
          values: { account, amount: '', senderName: '', senderBank: '' },
          result,
        }),
      );
    },
  );

  typed.post(SANDBOX_TRANSFER_PATH, { schema: { hide: true } }, async (request, reply) => {
    assertSandbox();
    const body =
      request.body && typeof request.body === 'object'
        ? (request.body as Record<string, string | undefined>)
        : {};
    const values = formValues(body);
    const refuse = (message: string) =>
      send(reply, 400, sandboxTransferPage({ values, result: { kind: 'refused', message } }));
    const parsed = transferFormSchema.safeParse(values);
    if (!parsed.success) return refuse(parsed.error.issues[0]?.message ?? 'Check the form');
    const form = parsed.data;
    const [account] = await app.db
      .select({ method: virtualAccounts.method })
      .from(virtualAccounts)
      .where(
        and(eq(virtualAccounts.mode, 'sandbox'), eq(virtualAccounts.accountNumber, form.account)),
      )
      .limit(1);
    // A bank refuses a transfer to a number no bank gave out: nothing is recorded.
    if (!account)
      return refuse(
        'No player has this account number in the sandbox: get one from the wallet page first.',
      );
    const reference = `SBX-TRF-${randomBytes(6).toString('hex').toUpperCase()}`;
    await app.db.insert(sandboxTransfers).values({
      reference,
      method: account.method,
      accountNumber: form.account,
      amount: BigInt(form.amount) * 100n,
      senderName: form.senderName,
      senderBank: form.senderBank,
      createdAt: app.clock.now(),
    });
    // Like a live provider, the sandbox tells us through its signed webhook, and nothing else.
    const event = JSON.stringify({ event: SANDBOX_TRANSFER_EVENT, reference });
    await app.inject({
      method: 'POST',
      url: `/api/v1/payment/webhook/${account.method}`,
      headers: {
        'content-type': 'application/json',
        [SANDBOX_SIGNATURE_HEADER]: signSandboxWebhook(app.secrets.sandbox, event),
      },
      payload: event,
    });
    return reply.redirect(
      `/api/v1${SANDBOX_TRANSFER_PATH}?account=${form.account}&transfer=${reference}`,
      303,
    );
  });
}

/** What became of a transfer the page sent: credited, held (and why), or not landed yet. */
async function describeTransfer(
  app: FastifyInstance,
  reference: string,
): Promise<SandboxTransferResult | null> {
  const [sent] = await app.db
    .select()
    .from(sandboxTransfers)
    .where(eq(sandboxTransfers.reference, reference));
  if (!sent) return null;
  const [landed] = await app.db
    .select({ status: payments.status, holdReason: payments.holdReason })
    .from(payments)
    .where(eq(payments.reference, reference));
  const about = { amountKobo: sent.amount, to: sent.accountNumber };
  if (!landed) return { kind: 'waiting', ...about };
  if (landed.status === 'HELD') return { kind: 'held', ...about, reason: landed.holdReason ?? '' };
  if (landed.status === 'REFUNDED')
    return { kind: 'returned', ...about, reason: landed.holdReason ?? '' };
  return { kind: 'credited', ...about };
}
