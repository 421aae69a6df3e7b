/*
 * Downloads the player screens' code files (PLAYER_FILES_PATH) into the browser's cache for
 * lib/player-files.ts, a few at a time, then ends. In a worker so that none of it (starting
 * the requests, taking in the bodies) runs on the page's main thread.
 */
import { PLAYER_FILES_PATH } from './player-files-path.ts';

const AT_ONCE = 3;

async function download(): Promise<void> {
  const listed = await fetch(PLAYER_FILES_PATH);
  // A build without the list (the dev server): the screens load when opened.
  const files: unknown = listed.ok ? await listed.json() : [];
  const queue = Array.isArray(files) ? files.map(String) : [];
  const next = async (): Promise<void> => {
    const file = queue.shift();
    if (file === undefined || !navigator.onLine) return;
    // Read to the end: a body left unread is not kept. A file that does not come costs
    // nothing: opening its screen asks again and says why it cannot.
    await fetch(file)
      .then((response) => response.arrayBuffer())
      .catch(() => undefined);
    return next();
  };
  await Promise.all(Array.from({ length: AT_ONCE }, next));
}

void download()
  .catch(() => undefined)
  .finally(() => self.close());
