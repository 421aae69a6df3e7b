import { and, eq, inArray } from 'drizzle-orm';
import { WALLET_PATH } from '../../../shared/games.ts';
import { formatNaira, koboToNaira } from '../../../shared/money.ts';
import {
  BANK_TRANSFER_PROVIDERS,
  type BankTransferAccount,
  type BankTransferProvider,
} from '../../../shared/schemas/wallet.ts';
import { payments, settings, users, virtualAccounts } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { badRequest, notFound } from '../../errors.ts';
import {
  type IncomingTransfer,
  type PaymentProvider,
  ProviderError,
  type VerifyHint,
  VIRTUAL_ACCOUNT_REFERENCE_PREFIX,
} from '../../providers/payments/types.ts';
import { recordAudit } from '../audit/record.ts';
import { type Actor, lockLiveAccount } from '../auth/live-account.ts';
import { queuePush, receivedTransferText } from '../notifications/fan-out.ts';
import { notify } from '../notifications/service.ts';
import { readSettingsRow } from '../settings/service.ts';
import { assertAgeConfirmed } from '../users/age.ts';
import { bindPerson } from '../users/break-binding.ts';
import { ACCOUNTS, post } from '../wallet/ledger.ts';
import { holdPayment, notifyHeld } from './holds.ts';
import type { PaymentsContext } from './service.ts';
import { transferRefusal } from './transfer-rules.ts';

/**
 * Top-ups by bank transfer: each player may get an account number of their own at the provider
 * the operator picked (settings.bank_transfer_provider); whatever anyone sends to it is a
 * payment of channel `bank_transfer`, kept under the provider's transaction reference (unique,
 * so each transfer credits once however often it is reported), for the amount that arrived.
 * It lands in the wallet, or, when the rules refuse it (transfer-rules.ts), in the held account
 * (holds.ts) for an operator to release or send back. Nothing is ever credited on a webhook's
 * word: the provider's API is asked first.
 */

type PaymentRow = typeof payments.$inferSelect;

const isBankTransferMethod = (method: string): method is BankTransferProvider =>
  (BANK_TRANSFER_PROVIDERS as readonly string[]).includes(method);

/**
 * The provider players get account numbers from now: the one the operator picked when this
 * server runs it, otherwise the other one that it runs (a server with Flutterwave keys only
 * gives Flutterwave accounts whatever the setting says); none when neither runs.
 */
async function pickedProvider(ctx: PaymentsContext) {
  const { bankTransferProvider: picked } = await readSettingsRow(ctx.db);
  for (const method of [picked, ...BANK_TRANSFER_PROVIDERS.filter((other) => other !== picked)]) {
    const provider = ctx.providers.byMethod[method];
    if (provider?.virtualAccounts) return { method, provider };
  }
  return { method: picked, provider: undefined };
}

async function storedAccount(
  ctx: PaymentsContext,
  userId: string,
  method: BankTransferProvider,
  provider: PaymentProvider,
) {
  const [row] = await ctx.db
    .select()
    .from(virtualAccounts)
    .where(
      and(
        eq(virtualAccounts.userId, userId),
        eq(virtualAccounts.method, method),
        eq(virtualAccounts.mode, provider.mode),
      ),
    );
  return row ?? null;
}

/** The caller's account number, or what stands before getting one. */
export async function getBankTransferAccount(
  ctx: PaymentsContext,
  userId: string,
): Promise<BankTransferAccount> {
  const { method, provider } = await pickedProvider(ctx);
  const [user] = await ctx.db
    .select({ tier: users.kycTier })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw notFound('User not found');
  const needsBvn = provider?.virtualAccounts?.requiresBvn ?? false;
  const row = provider ? await storedAccount(ctx, userId, method, provider) : null;
  return {
    available: Boolean(provider),
    provider: method,
    mode: provider?.mode ?? 'unavailable',
    needsBvn: needsBvn && !row,
    requiresKycTier: needsBvn && !row && user.tier < 2 ? 2 : null,
    account: row
      ? { accountNumber: row.accountNumber, accountName: row.accountName, bankName: row.bankName }
      : null,
  };
}

export const BANK_TRANSFER_MESSAGES = {
  unavailable: 'Top-ups by bank transfer are not available right now.',
  kycTier2:
    'To get an account number, verify your identity (KYC tier 2) first: the bank needs your BVN to open it.',
  bvnRequired: 'Enter your BVN: the bank needs it to open your account number.',
} as const;

/**
 * Refuses a BVN that is not the player's own (kyc/own-bvn.ts), handed in by the route so that
 * payments does not reach into identity checks itself.
 */
export type OwnBvnCheck = (userId: string, bvn: string) => Promise<void>;

/**
 * Makes the caller's account number at the picked provider (once: asking again answers with the
 * one they have). The provider is asked outside any transaction; two requests at once both ask
 * it (it answers a customer with the account it already gave them) and the first row stored wins.
 * Where the provider needs a BVN, it must be the player's own (`assertOwnBvn`).
 */
export async function createBankTransferAccount(
  ctx: PaymentsContext,
  actor: Actor,
  bvn: string | null,
  assertOwnBvn: OwnBvnCheck,
): Promise<BankTransferAccount> {
  const { method, provider } = await pickedProvider(ctx);
  const accounts = provider?.virtualAccounts;
  if (!provider || !accounts) throw badRequest(BANK_TRANSFER_MESSAGES.unavailable);
  if (await storedAccount(ctx, actor.id, method, provider))
    return getBankTransferAccount(ctx, actor.id);
  const user = await inTransaction(ctx.db, async (tx) => {
    await lockLiveAccount(tx, actor, ctx.now());
    const [row] = await tx.select().from(users).where(eq(users.id, actor.id));
    if (!row) throw notFound('User not found');
    assertAgeConfirmed(row);
    return row;
  });
  if (accounts.requiresBvn) {
    if (user.kycTier < 2) throw badRequest(BANK_TRANSFER_MESSAGES.kycTier2);
    if (!bvn) throw badRequest(BANK_TRANSFER_MESSAGES.bvnRequired);
    await assertOwnBvn(actor.id, bvn);
  }
  const created = await accounts.create({
    reference: `${VIRTUAL_ACCOUNT_REFERENCE_PREFIX}${actor.id}`,
    email: user.email,
    fullname: user.verifiedName ?? user.fullname,
    phoneNumber: user.phoneNumber,
    bvn: accounts.requiresBvn ? bvn : null,
  });
  await ctx.db
    .insert(virtualAccounts)
    .values({ userId: actor.id, method, mode: provider.mode, ...created })
    .onConflictDoNothing();
  return getBankTransferAccount(ctx, actor.id);
}

export type TransferOutcome = { status: 'SUCCESS' | 'HELD' | 'DUPLICATE'; payment: PaymentRow };

/**
 * A webhook said money arrived under `reference`: asks the provider, then credits or holds it
 * once. Null when the provider reports no completed transfer under it (nothing happens).
 */
export async function receiveBankTransfer(
  ctx: PaymentsContext,
  provider: PaymentProvider,
  reference: string,
  hint?: VerifyHint,
): Promise<TransferOutcome | null> {
  if (!provider.virtualAccounts || !isBankTransferMethod(provider.method))
    throw new ProviderError(`${provider.method} gives no account numbers`);
  const incoming = await provider.virtualAccounts.verifyIncoming(reference, hint);
  if (!incoming) return null;
  return landTransfer(ctx, provider, incoming);
}

/**
 * Records a verified transfer as the payment of the player whose account number it was sent to,
 * and in the same transaction credits it or, when the rules refuse it, holds it. The unique
 * reference makes every later report of the same transfer a no-op (DUPLICATE).
 */
export async function landTransfer(
  ctx: PaymentsContext,
  provider: PaymentProvider,
  incoming: IncomingTransfer,
): Promise<TransferOutcome> {
  const method = provider.method;
  if (!isBankTransferMethod(method)) throw new ProviderError(`${method} gives no account numbers`);
  const [known] = await ctx.db
    .select()
    .from(payments)
    .where(eq(payments.reference, incoming.reference));
  if (known) return { status: 'DUPLICATE', payment: known };
  if (incoming.currency.toUpperCase() !== 'NGN')
    throw new ProviderError(`transfer ${incoming.reference} arrived in ${incoming.currency}`);
  const [account] = await ctx.db
    .select({ userId: virtualAccounts.userId })
    .from(virtualAccounts)
    .where(
      and(
        eq(virtualAccounts.method, method),
        eq(virtualAccounts.mode, provider.mode),
        incoming.accountNumber
          ? eq(virtualAccounts.accountNumber, incoming.accountNumber)
          : eq(virtualAccounts.providerReference, incoming.accountReference ?? ''),
      ),
    );
  const to = incoming.accountNumber ?? incoming.accountReference;
  if (!account)
    throw new ProviderError(`transfer ${incoming.reference} went to ${to}, no player's account`);
  const { userId } = account;
  const now = ctx.now();
  // Ties this account to breaks of the same person first, so the rules below see them.
  await bindPerson(ctx.db, userId, now);
  return inTransaction(ctx.db, async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const [arrived] = await tx
      .insert(payments)
      .values({
        userId,
        method,
        reference: incoming.reference,
        amount: incoming.amountKobo,
        mode: provider.mode,
        channel: 'bank_transfer',
        senderName: incoming.senderName,
        senderBank: incoming.senderBank,
        providerTransactionId: incoming.transactionId,
        createdAt: now,
      })
      .onConflictDoNothing({ target: payments.reference })
      .returning();
    if (!arrived) {
      const [first] = await tx
        .select()
        .from(payments)
        .where(eq(payments.reference, incoming.reference));
      if (!first) throw new Error(`transfer ${incoming.reference} vanished`);
      return { status: 'DUPLICATE' as const, payment: first };
    }
    const reason = await transferRefusal(tx, userId, arrived.amount, now);
    if (reason) {
      const held = await holdPayment(tx, arrived, 'PENDING', reason, now);
      if (!held) throw new Error(`transfer ${arrived.reference} changed while being held`);
      await notifyHeld(tx, held);
      return { status: 'HELD' as const, payment: held };
    }
    const [credited] = await tx
      .update(payments)
      .set({ status: 'SUCCESS', settledAt: now })
      .where(and(eq(payments.id, arrived.id), eq(payments.status, 'PENDING')))
      .returning();
    if (!credited) throw new Error(`transfer ${arrived.reference} changed while being credited`);
    await post(tx, {
      kind: 'top_up',
      reference: `topup:${method}:${credited.reference}`,
      description: `Bank transfer to ${to} by ${method} (${credited.reference})`,
      lines: [
        { account: ACCOUNTS.wallet, userId, amount: credited.amount },
        { account: ACCOUNTS.paymentClearing(method), amount: -credited.amount },
      ],
      at: now,
    });
    await notify(
      tx,
      userId,
      `${formatNaira(koboToNaira(credited.amount))} received`,
      receivedTransferText(credited),
      WALLET_PATH,
    );
    await queuePush(tx, { type: 'transfer-received', paymentId: credited.id });
    return { status: 'SUCCESS' as const, payment: credited };
  });
}

/** How far back each reconciliation asks the providers for transfers (missed webhooks). */
export const TRANSFER_LOOKBACK_MS = 6 * 3_600_000;

/**
 * Reconciliation of missed webhooks: asks each provider that has given players account numbers
 * for the completed transfers into them over the last `lookbackMs`, and lands every one not yet
 * kept (credited or held, once: the same path as a webhook). A transfer the provider cannot say
 * whose it is (an account number we never stored) is reported, not guessed. Returns how many
 * landed; errors are thrown together at the end, after every provider was asked.
 */
export async function reconcileBankTransfers(
  ctx: PaymentsContext,
  lookbackMs = TRANSFER_LOOKBACK_MS,
): Promise<number> {
  const now = ctx.now();
  const errors: unknown[] = [];
  let landed = 0;
  for (const method of BANK_TRANSFER_PROVIDERS) {
    const provider = ctx.providers.byMethod[method];
    if (!provider?.virtualAccounts) continue;
    const [any] = await ctx.db
      .select({ id: virtualAccounts.id })
      .from(virtualAccounts)
      .where(and(eq(virtualAccounts.method, method), eq(virtualAccounts.mode, provider.mode)))
      .limit(1);
    if (!any) continue;
    let incoming: IncomingTransfer[];
    try {
      incoming = await provider.virtualAccounts.listIncoming(
        new Date(now.getTime() - lookbackMs),
        now,
      );
    } catch (error) {
      errors.push(error);
      continue;
    }
    const references = incoming.map((transfer) => transfer.reference);
    const known = new Set(
      references.length === 0
        ? []
        : (
            await ctx.db
              .select({ reference: payments.reference })
              .from(payments)
              .where(inArray(payments.reference, references))
          ).map((row) => row.reference),
    );
    for (const transfer of incoming) {
      if (known.has(transfer.reference)) continue;
      try {
        if ((await landTransfer(ctx, provider, transfer)).status !== 'DUPLICATE') landed += 1;
      } catch (error) {
        errors.push(error);
      }
    }
  }
  if (errors.length > 0)
    throw new AggregateError(
      errors,
      `bank transfer reconciliation: ${errors.length} item(s) could not be landed`,
    );
  return landed;
}

/** The operator picks where account numbers are made from now on, audited. */
export async function setBankTransferProvider(
  db: PaymentsContext['db'],
  input: { adminId: string; provider: BankTransferProvider; now: Date },
): Promise<void> {
  await inTransaction(db, async (tx) => {
    const [before] = await tx
      .select({ bankTransferProvider: settings.bankTransferProvider })
      .from(settings)
      .where(eq(settings.id, 1))
      .for('update');
    if (!before) throw notFound('Settings not found');
    await tx
      .update(settings)
      .set({ bankTransferProvider: input.provider, updatedAt: input.now })
      .where(eq(settings.id, 1));
    await recordAudit(tx, {
      adminId: input.adminId,
      action: 'settings.update',
      targetType: 'settings',
      targetId: '1',
      before,
      after: { bankTransferProvider: input.provider },
    });
  });
}
