import { buttonBase, buttonStyles } from '@web/components/ui/Button.tsx';
import { Link } from 'wouter';

/** /SuccessfulSubmission: static confirmation after the tournament cards (docs/product.md#screens). */
export function SuccessfulSubmissionPage() {
  return (
    <section
      aria-labelledby="submitted-title"
      className="mx-auto flex max-w-lg flex-col items-center gap-4 rounded-3xl border border-line bg-card px-6 py-12 text-center"
    >
      <span
        aria-hidden="true"
        className="grid size-20 place-items-center rounded-full bg-vip/15 text-vip ring-8 ring-vip/5"
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="size-10"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.5"
        >
          <path d="M5 12.5l4.5 4.5L19 7.5" />
        </svg>
      </span>
      <h1 id="submitted-title" className="text-2xl font-bold sm:text-3xl">
        Submission received
      </h1>
      <p className="text-white/80">
        Nice work, you made it through all five cards. This was a sample round, so nothing was sent
        or charged. Once tournaments run, your answers and their results appear in My Submissions
        and we will tell you in your notifications.
      </p>
      <div className="mt-2 flex w-full flex-col gap-2 sm:flex-row">
        <Link href="/Tournament" className={`${buttonBase} ${buttonStyles.primary} flex-1`}>
          Back to Tournament Hub
        </Link>
        <Link href="/MySubmissions" className={`${buttonBase} ${buttonStyles.outline} flex-1`}>
          My Submissions
        </Link>
      </div>
    </section>
  );
}
