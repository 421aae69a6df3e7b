/**
 * First setup file of the `web` project: each test file starts as if in a page of its own.
 *
 * The project's files share their worker (`isolate: false` in vitest.config.ts): one happy-dom
 * window and one module cache serve file after file, where a fresh worker per file cost more
 * than most files' tests. What a file could inherit from the one before it is put back here,
 * before the file and the other setup files import anything:
 *
 * - the app's modules are evaluated afresh (`vi.resetModules()`), so module state (the session,
 *   toasts, the payment methods, the session gate, the prefetch cache…) starts empty as on a
 *   page load;
 * - the document is empty again, storage is cleared and the page is on the default URL;
 * - timers are real, and globals a test stubbed are back.
 *
 * Within a file, tests still share what they always shared (setup.ts puts back what a test
 * leaves behind).
 */
import { vi } from 'vitest';
import { DEFAULT_PAGE_URL, setPageUrl } from './browser.ts';

vi.resetModules();
vi.useRealTimers();
vi.unstubAllGlobals();
vi.unstubAllEnvs();

for (const element of [document.documentElement, document.head, document.body]) {
  for (const name of element.getAttributeNames()) element.removeAttribute(name);
}
document.head.replaceChildren();
document.body.replaceChildren();
document.title = '';
localStorage.clear();
sessionStorage.clear();
setPageUrl(DEFAULT_PAGE_URL);
