import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope } from '../../../shared/schemas/common.ts';
import { BALANCE_HISTORY_POSTINGS, balanceHistorySchema } from '../../../shared/schemas/wallet.ts';
import { requireUser } from '../../plugins/auth.ts';
import { balanceHistory } from './balance-history.ts';

/** The wallet as the ledger records it (top-ups and withdrawals have their own modules). */
export async function walletRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/wallet/balance-history',
    {
      schema: {
        tags: ['wallet'],
        summary: "The caller's wallet balance after each of its latest postings, oldest first",
        description: `Read from the ledger: every movement (top-ups, game entries, prizes, refunds, withdrawals, plans, operator adjustments), at most the latest ${BALANCE_HISTORY_POSTINGS}. The last point's \`balance\` is the wallet's balance now; \`hasEarlier\` says older postings exist.`,
        response: { 200: envelope(balanceHistorySchema) },
      },
    },
    async (request) => ({ data: await balanceHistory(app.db, requireUser(request).id) }),
  );
}
