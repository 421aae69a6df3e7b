import { EmptyState } from '@web/components/ui/EmptyState.tsx';
import { Link } from 'wouter';

export function AdminNotFound() {
  return (
    <EmptyState icon="🧭" title="No such console page">
      <p>This address is not part of the operator console.</p>
      <Link href="~/admin" className="mt-4 inline-block font-semibold text-accent underline">
        Back to the dashboard
      </Link>
    </EmptyState>
  );
}
