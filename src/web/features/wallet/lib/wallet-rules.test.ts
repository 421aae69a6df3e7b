import { WALLET_MESSAGES } from '@shared/messages.ts';
import type { BalancePoint } from '@shared/schemas/wallet.ts';
import { describe, expect, it } from 'vitest';
import { parseAmount } from './amount.ts';
import { newAttemptKey } from './attempt-key.ts';
import { chartPoints } from './balance-history.ts';
import { statusLabel, statusLook } from './status.ts';
import { checkTopUp } from './top-up.ts';
import { checkWithdrawal, totalDebit } from './withdraw.ts';

describe('parseAmount (docs/product.md#validation: non-numeric input becomes 0)', () => {
  it.each([
    ['', 0],
    ['   ', 0],
    ['abc', 0],
    ['12abc', 0],
    ['1000', 1000],
    ['2,500', 2500],
    ['₦10,000', 10000],
    [' 750 ', 750],
    ['99.5', 99.5],
    ['Infinity', 0],
  ])('%j reads as %d', (input, expected) => {
    expect(parseAmount(input)).toBe(expected);
  });
});

describe('checkTopUp (docs/product.md#validation)', () => {
  it('needs an amount: empty and non-numeric both say "Enter a topup amount"', () => {
    for (const input of ['', 'abc', '0', '-500']) {
      expect(checkTopUp(input, 'transactpay', 100)).toEqual({
        ok: false,
        errors: { amount: 'Enter a topup amount' },
      });
    }
  });

  it('needs a payment method: "Select a payment method"', () => {
    expect(checkTopUp('1000', '', 100)).toEqual({
      ok: false,
      errors: { method: 'Select a payment method' },
    });
    expect(checkTopUp('', 'bitcoin', 100)).toEqual({
      ok: false,
      errors: { amount: 'Enter a topup amount', method: 'Select a payment method' },
    });
  });

  it("refuses less than the settings' minimum in the server's words", () => {
    expect(checkTopUp('50', 'paystack', 100)).toEqual({
      ok: false,
      errors: { amount: 'The minimum top-up is ₦100' },
    });
  });

  it('passes a number and a known method', () => {
    expect(checkTopUp('2,500', 'paystack', 100)).toEqual({
      ok: true,
      amount: 2500,
      method: 'paystack',
    });
    expect(checkTopUp('100', 'transactpay', null)).toEqual({
      ok: true,
      amount: 100,
      method: 'transactpay',
    });
  });
});

describe('checkWithdrawal (docs/product.md#validation and docs/product.md#money)', () => {
  const limits = { balance: 5000, fee: 50, minimum: 100, hasBankAccount: true };

  it('needs an amount: "Enter amount to withdraw"', () => {
    for (const input of ['', 'abc', '0']) {
      expect(checkWithdrawal(input, limits)).toEqual({
        ok: false,
        error: 'Enter amount to withdraw',
      });
    }
  });

  it('sends the amount as a number', () => {
    expect(checkWithdrawal('1,000', limits)).toEqual({ ok: true, amount: 1000 });
  });

  it('keeps to the minimum, the balance with the fee, and a saved bank account', () => {
    expect(checkWithdrawal('99', limits)).toEqual({
      ok: false,
      error: 'The minimum withdrawal is ₦100',
    });
    expect(checkWithdrawal('4951', limits)).toEqual({
      ok: false,
      error: 'Insufficient balance: this withdrawal needs ₦5,001 (including the ₦50 fee)',
    });
    expect(checkWithdrawal('4950', limits)).toEqual({ ok: true, amount: 4950 });
    expect(checkWithdrawal('1000', { ...limits, hasBankAccount: false })).toEqual({
      ok: false,
      error: WALLET_MESSAGES.noBankAccount,
    });
  });

  it('debits amount plus fee', () => {
    expect(totalDebit(1000, 50)).toBe(1050);
  });
});

describe('statusLook (docs/product.md#states status icons and colours)', () => {
  it.each([
    ['success', 'success', 'check', 'text-vip'],
    ['successful', 'success', 'check', 'text-vip'],
    ['SUCCESSFUL', 'success', 'check', 'text-vip'],
    ['Success', 'success', 'check', 'text-vip'],
    ['failed', 'danger', 'info', 'text-danger'],
    ['FAILED', 'danger', 'info', 'text-danger'],
    ['cancelled', 'danger', 'info', 'text-danger'],
    ['Cancelled', 'danger', 'info', 'text-danger'],
    ['pending', 'warning', 'info', 'text-wallet'],
    ['processing', 'warning', 'info', 'text-wallet'],
    ['abandoned', 'warning', 'info', 'text-wallet'],
    ['', 'warning', 'info', 'text-wallet'],
  ])('%j is %s with the %s icon (%s)', (status, tone, icon, textClass) => {
    expect(statusLook(status)).toMatchObject({ tone, icon, textClass });
  });

  it('labels statuses in words', () => {
    expect(statusLabel('successful')).toBe('Successful');
    expect(statusLabel('PENDING')).toBe('Pending');
    expect(statusLabel(null)).toBe('Pending');
  });
});

describe('newAttemptKey', () => {
  it('is a fresh v4 UUID every time (the server takes 8 to 100 characters)', () => {
    const keys = new Set(Array.from({ length: 50 }, newAttemptKey));
    expect(keys.size).toBe(50);
    for (const key of keys) {
      expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });
});

describe('chartPoints', () => {
  const point = (balance: number, change: number, movement: BalancePoint['movement']) => ({
    at: '2025-06-01T10:00:00.000Z',
    balance,
    change,
    movement,
  });

  it('starts from the balance before the first posting, then follows every posting', () => {
    const points = [point(2500, 2500, 'top_up'), point(2400, -100, 'entry')];
    expect(chartPoints({ points, hasEarlier: false })).toEqual([
      { at: '2025-06-01T10:00:00.000Z', balance: 0, movement: 'start' },
      ...points,
    ]);
  });

  it('starts where earlier postings left the wallet, counted to the kobo', () => {
    const [start] = chartPoints({ points: [point(0.3, 0.1, 'prize')], hasEarlier: true });
    expect(start?.balance).toBe(0.2);
  });

  it('has nothing to draw before the first posting', () => {
    expect(chartPoints({ points: [], hasEarlier: false })).toEqual([]);
  });
});
