/**
 * `npm start`: builds the web app when it is missing or older than its sources, then runs the
 * server (which applies migrations and seeds on its own).
 */
import { buildWeb } from './build-web.ts';
import { webBuildState } from './web-build-state.ts';

const state = webBuildState();
if (state !== 'fresh') {
  console.info(state === 'missing' ? 'Building the web app…' : 'Web sources changed, rebuilding…');
  await buildWeb();
}
await import('../src/server/main.ts');
