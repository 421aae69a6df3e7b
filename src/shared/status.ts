/** Colour family of a payment or withdrawal status (docs/product.md#states), case-insensitive. */
export type StatusTone = 'success' | 'danger' | 'warning';

export function statusTone(status: string | null | undefined): StatusTone {
  const value = (status ?? '').toLowerCase();
  if (value === 'success' || value === 'successful') return 'success';
  if (value === 'failed' || value === 'cancelled') return 'danger';
  return 'warning';
}

export function isSuccessStatus(status: string | null | undefined): boolean {
  return statusTone(status) === 'success';
}

/** Leaderboard badge by level (docs/product.md#states). */
export function levelBadge(level: number): string {
  if (level === 1) return 'Rookie';
  if (level === 2) return 'Rising Talent';
  return 'Steady Player';
}

export type LevelTone = 'green' | 'blue' | 'purple' | 'grey';

export function levelTone(level: number): LevelTone {
  if (level === 1) return 'green';
  if (level === 2) return 'blue';
  if (level === 3) return 'purple';
  return 'grey';
}
