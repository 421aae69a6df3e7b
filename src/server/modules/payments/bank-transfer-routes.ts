import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope } from '../../../shared/schemas/common.ts';
import {
  bankTransferAccountBodySchema,
  bankTransferAccountSchema,
} from '../../../shared/schemas/wallet.ts';
import type { AppConfig } from '../../config.ts';
import { badRequest } from '../../errors.ts';
import { requireUser } from '../../plugins/auth.ts';
import { createKycProvider } from '../../providers/kyc/index.ts';
import { ProviderError } from '../../providers/payments/types.ts';
import { assertOwnBvn } from '../kyc/own-bvn.ts';
import { createBankTransferAccount, getBankTransferAccount } from './bank-transfers.ts';
import { paymentsContextOf } from './service.ts';

/** A signed-in player's account number for top-ups by bank transfer. */
export async function bankTransferRoutes(app: FastifyInstance, { config }: { config: AppConfig }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const ctx = () => paymentsContextOf(app, config.publicUrl);
  // Whose a BVN is, for a player verified with a NIN (kyc/own-bvn.ts).
  const kyc = createKycProvider(config.kyc);
  const ownBvn = (userId: string, bvn: string) =>
    assertOwnBvn({ db: app.db, hashKey: app.secrets.kycHash, provider: kyc }, userId, bvn);

  typed.get(
    '/payment/bank-transfer/account',
    {
      schema: {
        tags: ['payments'],
        summary:
          "The caller's account number for top-ups by bank transfer, or what stands before getting one (a BVN, KYC tier 2)",
        response: { 200: envelope(bankTransferAccountSchema) },
      },
    },
    async (request) => ({ data: await getBankTransferAccount(ctx(), requireUser(request).id) }),
  );

  typed.post(
    '/payment/bank-transfer/account',
    {
      schema: {
        tags: ['payments'],
        summary:
          'Gets the caller an account number at the provider the operator picked (once; again answers with the same one). Money sent to it lands in the wallet, or on hold when a rule refuses it',
        body: bankTransferAccountBodySchema,
        response: { 200: envelope(bankTransferAccountSchema) },
      },
    },
    async (request) => {
      try {
        const data = await createBankTransferAccount(
          ctx(),
          requireUser(request),
          request.body.bvn ?? null,
          ownBvn,
        );
        return { message: 'Your account number is ready', data };
      } catch (error) {
        if (error instanceof ProviderError) {
          request.log.warn({ err: error }, 'bank transfer: provider did not make the account');
          throw badRequest(
            'The bank could not open your account number right now. Please try again shortly.',
          );
        }
        throw error;
      }
    },
  );
}
