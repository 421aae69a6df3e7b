import { z } from 'zod';
import { VALIDATION_MESSAGES } from '../messages.ts';
import { nairaSchema, paginationSchema, timestampSchema } from './common.ts';

export const PAYMENT_METHODS = ['transactpay', 'paystack'] as const;
export const paymentMethodSchema = z.enum(PAYMENT_METHODS, {
  error: VALIDATION_MESSAGES.paymentMethod,
});
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

const amountSchema = (message: string) =>
  z.number({ error: message }).finite(message).positive(message);

export const topUpBodySchema = z.object({ amount: amountSchema(VALIDATION_MESSAGES.topupAmount) });
export const topUpResponseSchema = z.object({ paymentUrl: z.string(), reference: z.string() });

export const paymentSchema = z.object({
  id: z.string(),
  reference: z.string(),
  amount: nairaSchema,
  paymentMethod: z.string(),
  status: z.string(),
  createdAt: timestampSchema,
});
export type Payment = z.infer<typeof paymentSchema>;
export const paymentPageSchema = z.object({
  payments: z.array(paymentSchema),
  pagination: paginationSchema,
});

export const withdrawalBodySchema = z.object({
  amount: amountSchema(VALIDATION_MESSAGES.withdrawalAmount),
});

export const withdrawalSchema = z.object({
  id: z.string(),
  amount: nairaSchema,
  fee: nairaSchema,
  status: z.string(),
  createdAt: timestampSchema,
});
export type Withdrawal = z.infer<typeof withdrawalSchema>;
export const withdrawalPageSchema = z.object({
  withdrawals: z.array(withdrawalSchema),
  pagination: paginationSchema,
});

export const approveWithdrawalBodySchema = z.object({
  /** Set when the operator paid by hand: the bank's reference. Omit to pay through the provider. */
  paidReference: z.string().trim().min(3, 'Enter the payment reference').max(100).optional(),
});
export const rejectWithdrawalBodySchema = z.object({
  reason: z
    .string({ error: 'Give a reason' })
    .trim()
    .min(3, 'Give a reason of at least 3 characters')
    .max(300),
});
