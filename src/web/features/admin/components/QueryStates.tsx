import { Button } from '@web/components/ui/Button.tsx';
import { EmptyState } from '@web/components/ui/EmptyState.tsx';
import { Spinner } from '@web/components/ui/Spinner.tsx';
import { useErrorToast } from '@web/components/ui/useErrorToast.ts';
import { errorMessage } from '@web/lib/http.ts';

/** A block-sized spinner for a section that is loading. */
export function Loading({ label }: { label: string }) {
  return (
    <div className="grid min-h-48 place-items-center rounded-2xl border border-dashed border-line">
      <Spinner label={label} className="size-8" />
    </div>
  );
}

/** A failed load: the server's message as a toast and in place, with a retry. */
export function LoadError({
  error,
  what,
  onRetry,
  retrying = false,
}: {
  error: unknown;
  /** e.g. 'the games' */
  what: string;
  onRetry: () => void;
  retrying?: boolean;
}) {
  const message = errorMessage(error, `We could not load ${what}`);
  useErrorToast(error, `We could not load ${what}`, `admin-load-${what}`);
  return (
    <EmptyState icon="📡" title={`We could not load ${what}`}>
      <p>{message}</p>
      <Button variant="outline" className="mt-4" loading={retrying} onClick={onRetry}>
        Try again
      </Button>
    </EmptyState>
  );
}
