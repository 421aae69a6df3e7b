import { cleanup, configure } from '@testing-library/react';
import { toast } from '@web/lib/toast.tsx';
import { afterEach } from 'vitest';
import { DEFAULT_PAGE_URL, setPageUrl } from './browser.ts';
import { WEB_WAIT_MS } from './wait.ts';

configure({ asyncUtilTimeout: WEB_WAIT_MS });

/**
 * Web component tests (Vitest project `web`, happy-dom). After each test: unmount what was
 * rendered, drop toasts, forget the stored token and session copy, and put the page back on
 * the default URL, so no test sees what another left behind.
 */
afterEach(() => {
  cleanup();
  toast.remove();
  localStorage.clear();
  sessionStorage.clear();
  setPageUrl(DEFAULT_PAGE_URL);
});
