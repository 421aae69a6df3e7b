import { ERROR_MESSAGES, PAGE_TEXTS } from '@shared/messages.ts';
import type { TopUpOutcome } from '@shared/schemas/wallet.ts';
import { buttonBase, buttonStyles } from '@web/components/ui/Button.tsx';
import { Loading } from '@web/components/ui/LoadingState.tsx';
import { useEffect } from 'react';
import { Link, Redirect, useSearch } from 'wouter';
import { usePaymentOutcome } from '../api/get-payment-outcome.ts';
import { refreshUser } from '../lib/session-data.ts';

export type PaymentOutcome = 'success' | 'pending' | 'failed';

export const PAYMENT_PENDING_TITLE = 'Confirming your payment';
export const PAYMENT_PENDING_DEFAULT =
  'Your payment has not been confirmed yet. We will notify you as soon as it lands, so there is no need to pay again.';
export const PAYMENT_SUCCESS_TEXT = 'Your wallet balance is updated as soon as we confirm it.';
const CHECKING_LABEL = 'Checking your payment';

/**
 * docs/product.md#screens: 'success' or 'successful' (any case) is a success. Our callback also sends
 * 'pending' when the provider has not confirmed yet; that is not a failure, so it reads as
 * still confirming. Anything else failed.
 */
export function paymentOutcome(status: string): PaymentOutcome {
  const value = status.trim().toLowerCase();
  if (value === 'success' || value === 'successful') return 'success';
  if (value === 'pending') return 'pending';
  return 'failed';
}

function OutcomeIcon({ outcome }: { outcome: PaymentOutcome }) {
  const look = {
    success: { ring: 'border-vip/50 bg-vip/10 text-vip', path: 'M7 12.5l3.2 3.2L17 9' },
    pending: { ring: 'border-wallet/50 bg-wallet/10 text-wallet', path: 'M12 7.5V12l3 2' },
    failed: {
      ring: 'border-danger/50 bg-danger/10 text-danger',
      path: 'M8.5 8.5l7 7M15.5 8.5l-7 7',
    },
  }[outcome];
  return (
    <span className={`grid size-20 place-items-center rounded-full border-2 ${look.ring}`}>
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="size-10"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.4"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        {outcome === 'pending' ? <circle cx="12" cy="12" r="8.5" /> : null}
        <path d={look.path} />
      </svg>
    </span>
  );
}

const SERVER_OUTCOME: Record<TopUpOutcome['status'], PaymentOutcome> = {
  successful: 'success',
  pending: 'pending',
  failed: 'failed',
};

/** Our own words for an outcome, where the server has said nothing about the payment. */
const FIXED_TEXT: Record<PaymentOutcome, string> = {
  success: PAYMENT_SUCCESS_TEXT,
  pending: PAYMENT_PENDING_DEFAULT,
  failed: ERROR_MESSAGES.paymentFailedDefault,
};

/**
 * docs/product.md#screens /PaymentStatus?status=&message=: where the checkout returns the player,
 * with the payment's `reference` too. Anyone can send a player such a link, so its `message` is
 * never shown: the page asks the server about the payment the reference names (one of this
 * player's) and shows its status and sentence; for anything else, fixed words for the status.
 */
export function PaymentStatusPage() {
  const params = new URLSearchParams(useSearch());
  const status = params.get('status')?.trim() ?? '';
  const linked = status ? paymentOutcome(status) : null;
  const reference = linked ? params.get('reference')?.trim() || null : null;
  const payment = usePaymentOutcome(reference);
  const known = payment.data;
  const outcome = known ? SERVER_OUTCOME[known.status] : linked;
  const checking = reference !== null && payment.isPending;

  useEffect(() => {
    // The wallet changed (or may have): the nav balance must show the server's figure.
    if (!checking && (outcome === 'success' || outcome === 'pending')) void refreshUser();
  }, [checking, outcome]);

  if (!outcome) return <Redirect to="/" replace />;

  const title =
    outcome === 'success'
      ? PAGE_TEXTS.paymentSuccessful
      : outcome === 'pending'
        ? PAYMENT_PENDING_TITLE
        : PAGE_TEXTS.paymentFailed;
  // The server's sentence about this player's payment, or ours; never a link's words such as
  // "₦5,000,000 added, call …" or "your wallet is frozen, call …".
  const text = known ? known.message : FIXED_TEXT[outcome];

  return (
    <section
      aria-labelledby="payment-status-title"
      aria-busy={checking}
      className="mx-auto flex max-w-md flex-col items-center gap-5 rounded-3xl border border-line bg-card px-6 py-10 text-center sm:mt-6"
    >
      {checking ? (
        <>
          <span className="grid size-20 place-items-center">
            <Loading className="size-10" />
          </span>
          <h1 id="payment-status-title" className="text-2xl font-bold sm:text-3xl">
            {CHECKING_LABEL}
          </h1>
        </>
      ) : (
        <>
          <OutcomeIcon outcome={outcome} />
          <h1 id="payment-status-title" className="text-2xl font-bold sm:text-3xl">
            {title}
          </h1>
          <p className="max-w-sm text-white/80 break-words">{text}</p>
        </>
      )}
      <Link href="/topup" className={`${buttonBase} ${buttonStyles.primary} w-full sm:w-auto`}>
        Go To Wallet
      </Link>
    </section>
  );
}
