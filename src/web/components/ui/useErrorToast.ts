import { errorMessage } from '@web/lib/http.ts';
import { toast } from '@web/lib/toast.tsx';
import { useEffect } from 'react';

/**
 * docs/product.md#errors: a failed load shows a toast with the server's message, or the screen's own fallback.
 * The toast id keeps one toast per screen however often the query retries or re-renders.
 */
export function useErrorToast(error: unknown, fallback: string, id: string): void {
  useEffect(() => {
    if (error) toast.error(errorMessage(error, fallback), { id });
  }, [error, fallback, id]);
}
