import { PAYMENT_MESSAGES } from '@shared/messages.ts';
import { usePaymentModes } from '@web/lib/payment-modes.ts';

/**
 * On every page (and the console) while the server runs the payments sandbox. One line on a
 * 390 px phone (smaller type there), in the page's flow above the sticky navigation, so it
 * scrolls away instead of covering it; the layouts below fill what is left of the screen.
 */
export function SandboxBanner() {
  const sandbox = usePaymentModes()?.sandbox === true;
  if (!sandbox) return null;
  return (
    <section aria-label="Sandbox mode" className="shrink-0 bg-wallet px-4 py-2 text-black">
      <p
        role="status"
        className="mx-auto flex max-w-6xl items-center justify-center gap-2 text-xs font-bold sm:text-sm"
      >
        {/* The words say "Sandbox mode" already: the tag is for the eye only. */}
        <span
          aria-hidden="true"
          className="shrink-0 rounded bg-black px-1.5 py-0.5 text-[11px] tracking-wider text-wallet sm:text-xs"
        >
          SANDBOX
        </span>
        <span className="text-balance">{PAYMENT_MESSAGES.sandboxBanner}</span>
      </p>
    </section>
  );
}
