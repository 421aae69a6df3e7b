import type { GameType } from '@shared/constants.ts';

export type HomeTab = Exclude<GameType, 'TOURNAMENT'>;

/** Home's three game lists (docs/product.md#screens), in tab order. */
export const HOME_TABS: ReadonlyArray<{ key: HomeTab; label: string }> = [
  { key: 'TRENDING', label: 'Trending Games' },
  { key: 'NEW_CHALLANGES', label: 'New Challenges' },
  { key: 'HIGHEST_PAYOUTS', label: 'Highest Payouts' },
];

/** The list Home opens on (also requested ahead by the entry on a cold start). */
export const HOME_FIRST_TAB: HomeTab = 'TRENDING';
