/**
 * A signed-in player and the published settings as the API returns them, for tests on a fake
 * or unreachable server (tests on the real one make their own players). Imported by tests only.
 */
import type { Settings } from '@shared/schemas/settings.ts';
import type { User } from '@shared/schemas/users.ts';

export const samplePlayer: User = {
  id: '4b0c7d5e-1111-4c4c-9d9d-000000000001',
  username: 'plucker_ada',
  fullname: 'Ada Obi',
  email: 'ada@example.test',
  phoneNumber: '+2348012345678',
  planID: null,
  planExpiresAt: null,
  isVerified: false,
  role: 'player',
  accountBalance: 2500,
  level: 1,
  points: 10,
  totalGamesPlayed: 1,
  totalGamesWon: 0,
  totalWinningAmount: 0,
  profilePhoto: null,
  hasSetPassword: true,
  ageConfirmed: true,
  bankAccount: null,
  pendingEmail: null,
};

export const sampleSettings: Settings = {
  withdrawalTransactionFee: 50,
  minimumPaymentAmount: 100,
  dailyGameLimit: 5,
  tournamentLaunchAt: null,
};
