import { Button } from './Button.tsx';

interface PaginationProps {
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
  /** Names the navigation landmark, e.g. 'Payment history pages'. */
  label: string;
  /** True while the next page loads: the buttons wait so a tap is not counted twice. */
  busy?: boolean;
}

/** Previous / Page n of m / Next for the page-based lists of docs/product.md#data; hidden for one page. */
export function Pagination({ page, totalPages, onChange, label, busy = false }: PaginationProps) {
  if (totalPages <= 1) return null;
  return (
    <nav aria-label={label} className="mt-4 flex items-center justify-between gap-3">
      <Button
        variant="outline"
        disabled={busy || page <= 1}
        onClick={() => onChange(page - 1)}
        className="px-4"
      >
        Previous
      </Button>
      <span className="text-sm text-muted" aria-live="polite">
        Page {page} of {totalPages}
      </span>
      <Button
        variant="outline"
        disabled={busy || page >= totalPages}
        onClick={() => onChange(page + 1)}
        className="px-4"
      >
        Next
      </Button>
    </nav>
  );
}
