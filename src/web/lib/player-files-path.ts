/**
 * Where the build lists the code files of the player screens (scripts/player-files.ts): not
 * hashed, so the page can ask for it, and revalidated like the pages.
 */
export const PLAYER_FILES_PATH = '/player-files.json';
