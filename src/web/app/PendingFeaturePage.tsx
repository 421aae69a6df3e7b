import { EmptyState } from '@web/components/ui/EmptyState.tsx';
import { Link } from 'wouter';

/** Placeholder for a screen whose feature issue has not landed yet. */
export function PendingFeaturePage({ title }: { title: string }) {
  return (
    <section aria-labelledby="pending-title" className="py-10">
      <h1 id="pending-title" className="mb-6 text-2xl font-bold">
        {title}
      </h1>
      <EmptyState icon="🛠️" title="This part of Pluckers is on its way">
        <p>We are still building this screen. Check back soon.</p>
        <Link href="/Home" className="mt-4 inline-block font-semibold text-accent underline">
          Back to Home
        </Link>
      </EmptyState>
    </section>
  );
}
