/*
 * Whether this player has been here before, for the compact hero on phones (issue 20 point 12):
 * games played (the count rises when a draw runs) or Home seen on this device in an earlier
 * visit. Read once per page load, so the hero does not shrink under a first-time player.
 */
const KEY = 'pluckers:homeSeen';

function readSeen(): boolean {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

const seenOnEarlierVisit = readSeen();

export function markHomeSeen(): void {
  try {
    localStorage.setItem(KEY, '1');
  } catch {
    // Private mode or storage off: the full hero every time.
  }
}

export function isReturningPlayer(gamesPlayed: number): boolean {
  return gamesPlayed > 0 || seenOnEarlierVisit;
}
