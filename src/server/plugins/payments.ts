import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { PaymentMethod, PaymentMode } from '../../shared/schemas/wallet.ts';
import type { AppConfig } from '../config.ts';
import {
  createPaymentProviders,
  type PaymentProviders,
  paymentModes,
} from '../providers/payments/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    paymentProviders: PaymentProviders;
  }
}

/** What each mode means for a method, in its start-up line. */
const WHY: Record<PaymentMethod, Record<PaymentMode, string>> = {
  transactpay: {
    live: 'card top-ups through TransactPay',
    sandbox: 'test checkout on this server, no real money',
    unavailable: 'no TRANSACTPAY_* keys: not offered',
  },
  paystack: {
    live: 'card top-ups, bank account names and payouts through Paystack',
    sandbox: 'test checkout, account names and payouts on this server, no real money',
    unavailable: 'no PAYSTACK_SECRET_KEY: not offered, no bank account checks or payouts',
  },
  flutterwave: {
    live: 'card top-ups through Flutterwave',
    sandbox: 'test checkout on this server, no real money',
    unavailable: 'no FLUTTERWAVE_* keys: not offered',
  },
};

export default fp<{ config: AppConfig }>(
  async function paymentsPlugin(app: FastifyInstance, { config }) {
    app.decorate('paymentProviders', createPaymentProviders(config, app.db, app.secrets.sandbox));
    // Exactly one line per method, so an operator sees at start-up what players can use.
    for (const { method, mode } of paymentModes(app.paymentProviders).methods) {
      app.log[mode === 'live' ? 'info' : 'warn'](
        { method, mode },
        `payments: ${method} ${mode} (${WHY[method][mode]})`,
      );
    }
  },
  { name: 'payments', dependencies: ['database', 'secrets'] },
);
