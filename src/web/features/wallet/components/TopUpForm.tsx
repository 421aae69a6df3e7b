import { TOPUP_QUICK_AMOUNTS, TOPUP_STATIC_MINIMUM_TEXT_AMOUNT } from '@shared/constants.ts';
import { ERROR_MESSAGES, PAYMENT_MESSAGES } from '@shared/messages.ts';
import { formatNaira } from '@shared/money.ts';
import type { TopUpCheckout } from '@shared/schemas/wallet.ts';
import { statusTone } from '@shared/status.ts';
import { useQuery } from '@tanstack/react-query';
import { useAgeGate } from '@web/components/ui/AgeGate.tsx';
import { Button } from '@web/components/ui/Button.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { usePaymentModes } from '@web/lib/payment-modes.ts';
import { useSchemaForm } from '@web/lib/schema-form.ts';
import { toast } from '@web/lib/toast.tsx';
import { useEffect, useRef, useState } from 'react';
import { paymentsQueryOptions } from '../api/get-payments.ts';
import { type TopUpInput, useStartTopUp } from '../api/start-top-up.ts';
import { parseAmount } from '../lib/amount.ts';
import { openCheckoutTab } from '../lib/checkout-tab.ts';
import { useWalletSettings } from '../lib/session-data.ts';
import {
  availableMethods,
  defaultMethod,
  PAYMENT_METHOD_LABELS,
  topUpValidator,
} from '../lib/top-up.ts';

/** How long the "opening in this tab" notice stays before the page leaves for the checkout. */
export const SAME_TAB_NOTICE_MS = 1200;
export const POPUP_BLOCKED_MESSAGE =
  'Your browser blocked the new tab, so the checkout opens here instead.';

/**
 * What became of the checkout just opened: the payment history (same query, same cache) tells,
 * and it refreshes when the player comes back from the checkout tab.
 */
function CheckoutProgress({ checkout }: { checkout: TopUpCheckout }) {
  const { data } = useQuery(paymentsQueryOptions(1));
  const payment = data?.payments.find((candidate) => candidate.reference === checkout.reference);
  const tone = payment ? statusTone(payment.status) : 'warning';

  if (payment && tone === 'success') {
    return (
      <div role="status" className="mt-5 rounded-xl border border-vip/40 bg-vip/5 p-4 text-sm">
        <p className="font-semibold text-vip">Payment received</p>
        <p className="mt-1 text-white/80">
          {formatNaira(payment.amount)} was added to your wallet.
        </p>
      </div>
    );
  }
  if (payment && tone === 'danger') {
    return (
      <div
        role="status"
        className="mt-5 rounded-xl border border-danger/40 bg-danger/5 p-4 text-sm"
      >
        <p className="font-semibold text-danger">Payment not completed</p>
        <p className="mt-1 text-white/80">Nothing was charged to your wallet. You can try again.</p>
      </div>
    );
  }
  return (
    <div role="status" className="mt-5 rounded-xl border border-accent/40 bg-accent/5 p-4 text-sm">
      <p className="font-semibold text-accent">Waiting for your payment</p>
      <p className="mt-1 text-white/80">
        Finish paying on the checkout page. Reference{' '}
        <span className="font-mono break-all">{checkout.reference}</span>.
      </p>
      <a
        href={checkout.paymentUrl}
        target="_blank"
        rel="noopener noreferrer"
        className="mt-2 inline-flex min-h-11 items-center font-semibold text-accent underline"
      >
        Open the checkout again
      </a>
    </div>
  );
}

/** A whole-naira amount from the address (?amount=500), else empty. */
function amountFromAddress(): string {
  const value = new URLSearchParams(window.location.search).get('amount') ?? '';
  return /^[1-9]\d{0,8}$/.test(value) ? value : '';
}

export function TopUpForm() {
  const { settings } = useWalletSettings();
  const offered = availableMethods(usePaymentModes());
  // The player's choice while it is on offer, else the default (the list can arrive late).
  const methodOnOffer = (chosen: string) =>
    offered.some((value) => value === chosen) ? chosen : defaultMethod(offered);
  const form = useSchemaForm({
    schema: topUpValidator(settings?.minimumPaymentAmount),
    // ?amount= comes from "Top up ₦500" on a game the wallet could not pay for.
    initial: { amount: amountFromAddress(), method: '' },
    toInput: (values) => ({ ...values, method: methodOnOffer(values.method) }),
    report: 'submit',
  });
  const amount = form.values.amount;
  const method = methodOnOffer(form.values.method);
  const [checkout, setCheckout] = useState<TopUpCheckout | null>(null);
  const leaveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const topUp = useStartTopUp();
  const { ensureAge, dialog: ageDialog } = useAgeGate();

  useEffect(() => () => clearTimeout(leaveTimer.current), []);

  const selected = parseAmount(amount);

  const submit = form.handleSubmit((request) => ensureAge(() => startCheckout(request)));

  function startCheckout(request: TopUpInput) {
    setCheckout(null);
    // Opened now, during the tap, or the browser would block it once the server has answered.
    const tab = openCheckoutTab();
    topUp.mutate(request, {
      onSuccess: (data) => {
        setCheckout(data);
        form.set('amount', '');
        if (tab.go(data.paymentUrl)) return;
        toast(POPUP_BLOCKED_MESSAGE, { icon: 'ℹ️', id: 'checkout-same-tab' });
        leaveTimer.current = setTimeout(
          () => window.location.assign(data.paymentUrl),
          SAME_TAB_NOTICE_MS,
        );
      },
      onError: (error) => {
        tab.abandon();
        toast.error(errorMessage(error, ERROR_MESSAGES.generic));
      },
    });
  }

  return (
    <section aria-labelledby="topup-title" className="rounded-2xl border border-line bg-card p-5">
      <h2 id="topup-title" className="text-lg font-bold">
        Top up your wallet
      </h2>
      <p className="mt-1 mb-5 text-sm text-muted">
        Pay by card or bank transfer on a secure checkout page.
      </p>
      {offered.length === 0 ? (
        <p role="status" className="rounded-xl border border-line bg-card-raised p-4 text-sm">
          {PAYMENT_MESSAGES.noneAvailable}
        </p>
      ) : (
        <form
          ref={form.formRef}
          noValidate
          onSubmit={(event) => {
            if (topUp.isPending) event.preventDefault();
            else submit(event);
          }}
          className="flex flex-col gap-5"
          aria-labelledby="topup-title"
        >
          <Field
            label="Amount (₦)"
            inputMode="decimal"
            autoComplete="off"
            placeholder="e.g. 2,500"
            {...form.field('amount')}
            hint={`Minimum top-up: ${formatNaira(TOPUP_STATIC_MINIMUM_TEXT_AMOUNT)}`}
          />
          <fieldset>
            <legend className="mb-2 text-sm font-medium text-white/90">Quick amounts</legend>
            <div className="grid grid-cols-2 gap-2 min-[400px]:grid-cols-4">
              {TOPUP_QUICK_AMOUNTS.map((quick) => (
                <button
                  key={quick}
                  type="button"
                  aria-pressed={selected === quick}
                  onClick={() => form.set('amount', String(quick))}
                  className="min-h-11 rounded-xl border border-line bg-card-raised px-2 text-sm font-semibold hover:border-wallet/60 aria-pressed:border-wallet aria-pressed:bg-wallet/15 aria-pressed:text-wallet"
                >
                  {formatNaira(quick)}
                </button>
              ))}
            </div>
          </fieldset>
          <Field as="select" label="Payment method" {...form.field('method')} value={method}>
            {offered.map((value) => (
              <option key={value} value={value}>
                {PAYMENT_METHOD_LABELS[value]}
              </option>
            ))}
          </Field>
          <Button type="submit" loading={topUp.isPending} className="w-full">
            {selected > 0 ? `Top up ${formatNaira(selected)}` : 'Top up'}
          </Button>
          <p className="text-xs text-muted">
            The checkout opens in a new tab. When you have paid, come back here: your balance and
            history update by themselves.
          </p>
        </form>
      )}
      {checkout ? <CheckoutProgress checkout={checkout} /> : null}
      {ageDialog}
    </section>
  );
}
