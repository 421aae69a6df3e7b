/**
 * `npm start`: builds the web app when it is missing or older than its sources and the server
 * (a second), then runs the built server, which applies migrations and seeds on its own.
 */
import { pathToFileURL } from 'node:url';
import { buildServer, SERVER_DIST, serverBuildAt } from './build-server.ts';
import { buildWeb } from './build-web.ts';
import { webBuildState } from './web-build-state.ts';

const state = webBuildState();
if (state !== 'fresh') {
  console.info(state === 'missing' ? 'Building the web app…' : 'Web sources changed, rebuilding…');
  await buildWeb();
}
await buildServer();
process.setSourceMapsEnabled(true);
await import(pathToFileURL(serverBuildAt(SERVER_DIST).main).href);
