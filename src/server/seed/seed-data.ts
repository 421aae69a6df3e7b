import type { PlanFeatures } from '../../shared/schemas/plans.ts';

/** Nigerian banks with their CBN/NIBSS institution codes, as payment providers list them. */
export const NIGERIAN_BANKS: ReadonlyArray<{ bankName: string; code: string }> = [
  { bankName: 'Access Bank', code: '044' },
  { bankName: 'Citibank Nigeria', code: '023' },
  { bankName: 'Coronation Merchant Bank', code: '559' },
  { bankName: 'Ecobank Nigeria', code: '050' },
  { bankName: 'Fidelity Bank', code: '070' },
  { bankName: 'First Bank of Nigeria', code: '011' },
  { bankName: 'First City Monument Bank', code: '214' },
  { bankName: 'FSDH Merchant Bank', code: '501' },
  { bankName: 'Globus Bank', code: '00103' },
  { bankName: 'Guaranty Trust Bank', code: '058' },
  { bankName: 'Jaiz Bank', code: '301' },
  { bankName: 'Keystone Bank', code: '082' },
  { bankName: 'Kuda Microfinance Bank', code: '50211' },
  { bankName: 'Lotus Bank', code: '303' },
  { bankName: 'Moniepoint Microfinance Bank', code: '50515' },
  { bankName: 'OPay Digital Services (OPay)', code: '999992' },
  { bankName: 'Optimus Bank', code: '107' },
  { bankName: 'PalmPay', code: '999991' },
  { bankName: 'Polaris Bank', code: '076' },
  { bankName: 'PremiumTrust Bank', code: '105' },
  { bankName: 'Providus Bank', code: '101' },
  { bankName: 'Rand Merchant Bank', code: '502' },
  { bankName: 'Signature Bank', code: '106' },
  { bankName: 'Stanbic IBTC Bank', code: '221' },
  { bankName: 'Standard Chartered Bank', code: '068' },
  { bankName: 'Sterling Bank', code: '232' },
  { bankName: 'SunTrust Bank', code: '100' },
  { bankName: 'TAJBank', code: '302' },
  { bankName: 'Titan Trust Bank', code: '102' },
  { bankName: 'Union Bank of Nigeria', code: '032' },
  { bankName: 'United Bank For Africa', code: '033' },
  { bankName: 'Unity Bank', code: '215' },
  { bankName: 'VFD Microfinance Bank', code: '566' },
  { bankName: 'Wema Bank', code: '035' },
  { bankName: 'Zenith Bank', code: '057' },
];

export const CATEGORIES: ReadonlyArray<{ title: string; emoji: string }> = [
  { title: 'General Knowledge', emoji: '🧠' },
  { title: 'Sports', emoji: '⚽' },
  { title: 'Music', emoji: '🎵' },
  { title: 'Movies & TV', emoji: '🎬' },
  { title: 'Food', emoji: '🍲' },
  { title: 'Naija Culture', emoji: '🇳🇬' },
  { title: 'Tech', emoji: '💻' },
  { title: 'Fun & Random', emoji: '🎲' },
];

export const VIP_FEATURES: PlanFeatures = {
  getVerifiedBadge: true,
  gamesPerDay: null,
  tournamentAccess: true,
  earlyTournamentInvite: true,
  priorityLeaderboardPlacement: true,
  showAds: false,
};

export const VIP_PLAN = { planName: 'VIP', amountPerDayNaira: 200, features: VIP_FEATURES };

export const DEFAULT_SETTINGS = {
  withdrawalTransactionFeeNaira: 50,
  minimumPaymentAmountNaira: 100,
  dailyGameLimit: 5,
  tournamentLaunchAt: new Date('2025-09-22T00:00:00+01:00'),
};

interface DemoGame {
  title: string;
  description: string;
  category: string;
  entryFeeNaira: number;
  rewardNaira: number;
  maximumPlayers: number;
  isTournament: boolean;
  /** Hours from now; UPCOMING games open then. */
  startsInHours?: number;
  endsInHours?: number;
}

/** A handful of games so every list (Trending, New, Highest payouts, Tournament) has content. */
export const DEMO_GAMES: ReadonlyArray<DemoGame> = [
  {
    title: 'What would you buy first with ₦1 million?',
    description: 'No right or wrong.\nTell us in 20 words or fewer.',
    category: 'Fun & Random',
    entryFeeNaira: 0,
    rewardNaira: 500,
    maximumPlayers: 50,
    isTournament: false,
    endsInHours: 48,
  },
  {
    title: 'Describe jollof rice to someone who has never tasted it',
    description: 'Make us hungry.\nShort and sweet wins hearts.',
    category: 'Food',
    entryFeeNaira: 100,
    rewardNaira: 400,
    maximumPlayers: 100,
    isTournament: false,
    endsInHours: 24,
  },
  {
    title: 'Your Super Eagles starting XI in one line',
    description: 'Who makes your dream team?',
    category: 'Sports',
    entryFeeNaira: 200,
    rewardNaira: 900,
    maximumPlayers: 40,
    isTournament: false,
    endsInHours: 72,
  },
  {
    title: 'Name a song that always gets the party started',
    description: 'Afrobeats, highlife, amapiano: anything goes.',
    category: 'Music',
    entryFeeNaira: 50,
    rewardNaira: 200,
    maximumPlayers: 25,
    isTournament: false,
    endsInHours: 12,
  },
  {
    title: 'The best Nollywood line of all time',
    description: 'Quote it or describe it.',
    category: 'Movies & TV',
    entryFeeNaira: 500,
    rewardNaira: 2500,
    maximumPlayers: 20,
    isTournament: false,
    endsInHours: 96,
  },
  {
    title: 'If Lagos traffic could talk, what would it say?',
    description: 'Opens soon. Get your answer ready.',
    category: 'Naija Culture',
    entryFeeNaira: 100,
    rewardNaira: 450,
    maximumPlayers: 60,
    isTournament: false,
    startsInHours: 6,
    endsInHours: 54,
  },
  {
    title: 'Pluckers Cup: pitch your dream start-up',
    description: 'Tournament round one.\nOne sentence, one shot.',
    category: 'Tech',
    entryFeeNaira: 1000,
    rewardNaira: 5000,
    maximumPlayers: 50,
    isTournament: true,
    endsInHours: 120,
  },
  {
    title: 'Pluckers Cup: the wildest Naija proverb',
    description: 'Tournament round two opens soon.',
    category: 'Naija Culture',
    entryFeeNaira: 1000,
    rewardNaira: 5000,
    maximumPlayers: 50,
    isTournament: true,
    startsInHours: 24,
    endsInHours: 168,
  },
];
