import { EmptyState } from '@web/components/ui/EmptyState.tsx';
import { Link } from 'wouter';

export function NotFoundPage() {
  return (
    <section aria-labelledby="not-found-title" className="py-10">
      <h1 id="not-found-title" className="sr-only">
        Page not found
      </h1>
      <EmptyState icon="🧭" title="We couldn't find that page">
        <p>The link may be old or mistyped.</p>
        <Link href="/" className="mt-4 inline-block font-semibold text-accent underline">
          Go to Home
        </Link>
      </EmptyState>
    </section>
  );
}
