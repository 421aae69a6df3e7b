import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config.ts';
import { createPaymentProviders, type PaymentProviders } from '../providers/payments/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    paymentProviders: PaymentProviders;
  }
}

export default fp<{ config: AppConfig }>(
  async function paymentsPlugin(app: FastifyInstance, { config }) {
    app.decorate('paymentProviders', createPaymentProviders(config, app.db, app.secrets.sandbox));
    for (const provider of Object.values(app.paymentProviders.byMethod)) {
      app.log.info(
        { method: provider.method, mode: provider.mode },
        `payments: ${provider.method} runs ${provider.mode}`,
      );
    }
  },
  { name: 'payments', dependencies: ['database', 'secrets'] },
);
