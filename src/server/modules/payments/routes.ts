import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PAYMENT_MESSAGES } from '../../../shared/messages.ts';
import { envelope, messageSchema, redirectSchema } from '../../../shared/schemas/common.ts';
import { paymentMethodSchema, paymentMethodsSchema } from '../../../shared/schemas/wallet.ts';
import type { AppConfig } from '../../config.ts';
import { sandboxOrders, webhookEvents } from '../../db/schema.ts';
import { badRequest, notFound, unauthorized } from '../../errors.ts';
import { paymentModes } from '../../providers/payments/index.ts';
import { SANDBOX_SIGNATURE_HEADER, signSandboxWebhook } from '../../providers/payments/sandbox.ts';
import {
  InvalidSignatureError,
  type PaymentMethod,
  type PaymentProvider,
  type WebhookEvent,
} from '../../providers/payments/types.ts';
import { receiveBankTransfer } from './bank-transfers.ts';
import { sandboxCheckoutPage } from './sandbox-page.ts';
import { sandboxTransferRoutes } from './sandbox-transfer-routes.ts';
import { paymentsContextOf, settlePayment } from './service.ts';

const methodParams = z.object({ method: paymentMethodSchema });

/**
 * Settles a payout transfer a provider's webhook reports. Withdrawals own transfers; the app
 * hands their settler in, so payments (below withdrawals in the module order) never imports it.
 */
export type TransferSettler = (
  db: FastifyInstance['db'],
  provider: PaymentProvider,
  reference: string,
  now: Date,
) => Promise<unknown>;

export async function paymentRoutes(
  app: FastifyInstance,
  { config, settleTransfer }: { config: AppConfig; settleTransfer: TransferSettler },
) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const ctx = () => paymentsContextOf(app, config.publicUrl);

  typed.get(
    '/payment/methods',
    {
      schema: {
        tags: ['payments'],
        summary:
          'Public: whether the server runs the payments sandbox, and each method with its mode (live, sandbox or unavailable)',
        response: { 200: envelope(paymentMethodsSchema) },
      },
    },
    async () => ({ data: paymentModes(app.paymentProviders) }),
  );

  typed.get(
    '/payment/callback/:method',
    {
      schema: {
        tags: ['payments'],
        summary: 'Where the provider returns the browser; verifies, then shows /PaymentStatus',
        params: methodParams,
        // Paystack returns `reference` and `trxref`; Flutterwave `tx_ref`, `transaction_id` and
        // its own `status`, which proves nothing: the provider is asked either way.
        querystring: z.object({
          reference: z.string().max(100).optional(),
          trxref: z.string().max(100).optional(),
          tx_ref: z.string().max(100).optional(),
          transaction_id: z.string().max(40).optional(),
          status: z.string().max(40).optional(),
        }),
        response: {
          302: redirectSchema('/PaymentStatus?status=success|failed|pending&message=…&reference=…'),
        },
      },
    },
    async (request, reply) => {
      const reference = request.query.reference ?? request.query.trxref ?? request.query.tx_ref;
      // The page shows what GET /payment/status/:reference says about the payment, never this
      // message: a link anyone can write carries one too.
      const to = (status: string, message: string) =>
        reply.redirect(
          `/PaymentStatus?status=${status}&message=${encodeURIComponent(message)}${
            reference ? `&reference=${encodeURIComponent(reference)}` : ''
          }`,
        );
      if (!reference) return to('failed', 'The payment reference is missing');
      if (!app.paymentProviders.byMethod[request.params.method])
        return to('failed', PAYMENT_MESSAGES.notAvailable);
      try {
        const outcome = await settlePayment(ctx(), reference, {
          transactionId: request.query.transaction_id,
        });
        // Money held or refunded past a deposit limit did not reach the wallet: the page shows
        // it as a failure, with the message that says where the money is.
        return to(
          outcome.status === 'SUCCESS'
            ? 'success'
            : outcome.status === 'PENDING'
              ? 'pending'
              : 'failed',
          outcome.message,
        );
      } catch (error) {
        request.log.warn({ err: error, reference }, 'payment callback: verification failed');
        return to(
          'pending',
          'We could not confirm your payment yet. We will notify you as soon as it lands.',
        );
      }
    },
  );

  // Webhooks need the exact bytes the provider signed, so this scope keeps JSON bodies raw.
  await app.register(async (webhooks) => {
    webhooks.removeAllContentTypeParsers();
    webhooks.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: 256 * 1024 },
      (_request, body, done) => done(null, body),
    );
    webhooks.withTypeProvider<ZodTypeProvider>().post(
      '/payment/webhook/:method',
      {
        schema: {
          tags: ['payments'],
          summary: 'Provider notifications (signed where the provider signs)',
          // Any text, so an unknown method is told apart (404) from a malformed one.
          params: z.object({ method: z.string().max(40, 'Unknown payment method') }),
          response: { 200: messageSchema },
        },
      },
      async (request) => {
        const method = paymentMethodSchema.safeParse(request.params.method);
        if (!method.success) throw notFound('Unknown payment method');
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.from('');
        const provider = app.paymentProviders.byMethod[method.data];
        // Nobody may speak for a method this server does not run (the sandbox least of all).
        if (!provider) throw notFound(PAYMENT_MESSAGES.notAvailable);
        let event: WebhookEvent | null;
        try {
          event = provider.parseWebhook(raw, request.headers);
        } catch (error) {
          if (error instanceof InvalidSignatureError) throw unauthorized('Invalid signature');
          throw badRequest('Unreadable webhook body');
        }
        if (!event) return { message: 'Ignored' };
        // Transfers only concern the provider that sends our payouts.
        if (event.kind === 'transfer' && provider !== app.paymentProviders.payouts)
          return { message: 'Ignored' };
        await app.db
          .insert(webhookEvents)
          .values({ method: method.data, eventKey: event.eventKey, reference: event.reference })
          .onConflictDoNothing({ target: webhookEvents.eventKey });
        // Never trust the body: settling asks the provider itself. Failures are retried by reconciliation.
        const { kind, reference, transactionId } = event;
        const settle =
          kind === 'transfer'
            ? settleTransfer(app.db, provider, reference, app.clock.now())
            : kind === 'bank_transfer'
              ? receiveBankTransfer(ctx(), provider, reference, { transactionId })
              : settlePayment(ctx(), reference, { transactionId });
        await settle.catch((error: unknown) =>
          request.log.warn(
            { err: error, reference, kind },
            'webhook: verification failed; reconciliation will retry',
          ),
        );
        return { message: 'Received' };
      },
    );
  });

  // The sandbox's "a transfer arrives" page, for account numbers (sandbox mode only).
  await app.register(sandboxTransferRoutes);

  await app.register(async (sandbox) => {
    sandbox.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, _body, done) => done(null, {}),
    );
    const params = z.object({ method: paymentMethodSchema, reference: z.string().min(1).max(100) });
    const sandboxTyped = sandbox.withTypeProvider<ZodTypeProvider>();
    const loadOrder = async (method: PaymentMethod, reference: string) => {
      if (app.paymentProviders.byMethod[method]?.mode !== 'sandbox')
        throw notFound('No sandbox for this method');
      const [order] = await app.db
        .select()
        .from(sandboxOrders)
        .where(and(eq(sandboxOrders.reference, reference), eq(sandboxOrders.method, method)));
      if (!order) throw notFound('Unknown sandbox checkout');
      return order;
    };

    sandboxTyped.get(
      '/payment/sandbox/:method/:reference',
      { schema: { hide: true, params } },
      async (request, reply) => {
        const order = await loadOrder(request.params.method, request.params.reference);
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(
            sandboxCheckoutPage({
              method: order.method,
              reference: order.reference,
              amountKobo: order.amount,
              status: order.status,
            }),
          );
      },
    );

    for (const action of ['pay', 'cancel'] as const) {
      sandboxTyped.post(
        `/payment/sandbox/:method/:reference/${action}`,
        { schema: { hide: true, params } },
        async (request, reply) => {
          const order = await loadOrder(request.params.method, request.params.reference);
          if (order.status === 'pending') {
            await app.db
              .update(sandboxOrders)
              .set({ status: action === 'pay' ? 'paid' : 'cancelled' })
              .where(
                and(
                  eq(sandboxOrders.reference, order.reference),
                  eq(sandboxOrders.status, 'pending'),
                ),
              );
            if (action === 'pay') {
              // Like a live provider, the sandbox tells us through the signed webhook first.
              const body = JSON.stringify({ event: 'charge.success', reference: order.reference });
              await app.inject({
                method: 'POST',
                url: `/api/v1/payment/webhook/${order.method}`,
                headers: {
                  'content-type': 'application/json',
                  [SANDBOX_SIGNATURE_HEADER]: signSandboxWebhook(app.secrets.sandbox, body),
                },
                payload: body,
              });
            }
          }
          return reply.redirect(
            `/api/v1/payment/callback/${order.method}?reference=${encodeURIComponent(order.reference)}`,
            303,
          );
        },
      );
    }
  });
}
