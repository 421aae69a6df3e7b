import type { FairnessLogPage } from '@shared/schemas/fairness.ts';
import { http } from '@web/lib/http.ts';
import { useCallback, useEffect, useState } from 'react';

/** GET /fairness/log?from=&limit=: one page of the public, hash-chained fairness log. */
export const getFairnessLog = (from: number, limit?: number) =>
  http
    .get<{ data: FairnessLogPage }>('/fairness/log', { query: { from, limit } })
    .then((body) => body.data);

type HeadState =
  | { status: 'pending' }
  | { status: 'error'; error: unknown }
  | { status: 'success'; head: FairnessLogPage['head'] };

/**
 * The head (latest position and hash): one record is enough to learn it. Static pages render
 * outside the signed-in data layer, so this is a plain effect rather than a cached query.
 */
export function useFairnessHead() {
  const [state, setState] = useState<HeadState>({ status: 'pending' });
  const load = useCallback(() => {
    setState({ status: 'pending' });
    getFairnessLog(1, 1).then(
      (page) => setState({ status: 'success', head: page.head }),
      (error: unknown) => setState({ status: 'error', error }),
    );
  }, []);
  useEffect(load, [load]);
  return { ...state, retry: load };
}
