/**
 * Entry of the build's prerender (scripts/prerender-web.ts), run in Node: the app's HTML at a
 * path with nobody signed in and no answer from the API, once every screen's code has loaded,
 * which is exactly what the browser's first render produces there, so React hydrates it.
 */
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { App } from './App.tsx';

export async function renderPage(path: string): Promise<string> {
  const errors: unknown[] = [];
  const { prelude } = await prerender(
    <StrictMode>
      <App ssrPath={path} hydrating />
    </StrictMode>,
    {
      // React would leave such a part to the browser to render: a build error instead.
      onError: (error) => void errors.push(error),
      // Every part in place in the HTML: React would otherwise send a large one after the
      // rest, with an inline script to move it in, which the pages' CSP does not allow.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
    },
  );
  if (errors.length > 0) throw new AggregateError(errors, `prerendering ${path} failed`);
  const html = await new Response(prelude).text();
  if (html.includes('<script')) throw new Error(`prerendering ${path} left an inline script`);
  return html;
}
