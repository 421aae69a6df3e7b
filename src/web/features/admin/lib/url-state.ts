import { useSearchParams } from 'wouter';

type Patch = Record<string, string | number | undefined | null>;

/**
 * Filters and page numbers live in the address (?status=…&page=2), so a refresh, the back
 * button or a shared link shows the same list. Blank values and page 1 are left out.
 */
export function useUrlState() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Math.trunc(Number(params.get('page'))) || 1);

  function update(patch: Patch) {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(patch)) {
          if (
            value === undefined ||
            value === null ||
            value === '' ||
            (key === 'page' && value === 1)
          )
            next.delete(key);
          else next.set(key, String(value));
        }
        return next;
      },
      { replace: true },
    );
  }

  return { params, page, update };
}
