import { useHydrated } from '@web/lib/hydrated.ts';
import type { ReactNode } from 'react';

/**
 * A form's fields, disabled until React has taken over the prerendered page: typed
 * into the HTML before that, the text would never reach the form's state. Laid out as if it
 * were not there (display: contents). The submit button stays outside: a press before then
 * does nothing (the boot script cancels native submissions, shared/boot-script.ts).
 */
export function LiveFields({ children }: { children: ReactNode }) {
  const hydrated = useHydrated();
  return (
    <fieldset disabled={!hydrated} className="contents">
      {children}
    </fieldset>
  );
}
