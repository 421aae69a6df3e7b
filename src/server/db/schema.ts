import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { LEDGER_ACCOUNTS, LEDGER_KINDS } from '../../shared/ledger.ts';
import { IDENTITY_KEY_KINDS } from '../../shared/responsible-play.ts';
import type { PlanFeatures } from '../../shared/schemas/plans.ts';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
/** Money is integer kobo; bigint mode keeps it exact in JS. */
const kobo = (name: string) => bigint(name, { mode: 'bigint' });
const bytes = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  // PGlite hands bytea back as a Uint8Array, node-postgres as a Buffer.
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/** A single row (id = 1) of operator-tunable settings. */
export const settings = pgTable(
  'settings',
  {
    id: integer('id').primaryKey().default(1),
    withdrawalTransactionFee: kobo('withdrawal_transaction_fee').notNull(),
    minimumPaymentAmount: kobo('minimum_payment_amount').notNull(),
    dailyGameLimit: integer('daily_game_limit').notNull(),
    tournamentLaunchAt: timestamp('tournament_launch_at', { withTimezone: true }),
    /**
     * KYC tier caps (kobo), modelled on the CBN's three-tier KYC: the most a wallet of that tier
     * may hold, and may withdraw in one Africa/Lagos day. Null: no cap for that tier.
     */
    tier1BalanceCap: kobo('tier1_balance_cap').default(sql`30000000`),
    tier1DailyWithdrawalCap: kobo('tier1_daily_withdrawal_cap').default(sql`5000000`),
    tier2BalanceCap: kobo('tier2_balance_cap').default(sql`50000000`),
    tier2DailyWithdrawalCap: kobo('tier2_daily_withdrawal_cap').default(sql`20000000`),
    tier3BalanceCap: kobo('tier3_balance_cap'),
    tier3DailyWithdrawalCap: kobo('tier3_daily_withdrawal_cap').default(sql`500000000`),
    /** Anti-money-laundering: a withdrawal at or above this amount is held for review. */
    amlReviewThreshold: kobo('aml_review_threshold').notNull().default(sql`10000000`),
    /** Where players' bank-transfer account numbers are made (payments/bank-transfers.ts). */
    bankTransferProvider: text('bank_transfer_provider', { enum: ['paystack', 'flutterwave'] })
      .notNull()
      .default('paystack'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('settings_single_row', sql`${t.id} = 1`),
    check('settings_fee_non_negative', sql`${t.withdrawalTransactionFee} >= 0`),
    check('settings_minimum_positive', sql`${t.minimumPaymentAmount} > 0`),
    check('settings_daily_limit_positive', sql`${t.dailyGameLimit} > 0`),
  ],
);

export const categories = pgTable('categories', {
  id: uuid('id').primaryKey().defaultRandom(),
  title: text('title').notNull().unique(),
  emoji: text('emoji').notNull(),
  createdAt: createdAt(),
});

export const plans = pgTable(
  'plans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    planName: text('plan_name').notNull().unique(),
    amountPerDay: kobo('amount_per_day').notNull(),
    features: jsonb('features').$type<PlanFeatures>().notNull(),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [check('plans_amount_positive', sql`${t.amountPerDay} > 0`)],
);

export const banks = pgTable('banks', {
  id: uuid('id').primaryKey().defaultRandom(),
  bankName: text('bank_name').notNull(),
  /** CBN / NIBSS institution code, as the payment providers expect it. */
  code: text('code').notNull().unique(),
});

/** Stored with fillfactor 70 (migration 0007): its rows are rewritten on every play and draw. */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored without the `plucker_` prefix; lower case. */
    handle: text('handle').notNull(),
    fullname: text('fullname').notNull(),
    email: text('email').notNull(),
    phoneNumber: text('phone_number').notNull().default(''),
    passwordHash: text('password_hash'),
    role: text('role', { enum: ['player', 'admin'] })
      .notNull()
      .default('player'),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    ageConfirmedAt: timestamp('age_confirmed_at', { withTimezone: true }),
    planId: uuid('plan_id').references(() => plans.id),
    planExpiresAt: timestamp('plan_expires_at', { withTimezone: true }),
    accountBalance: kobo('account_balance').notNull().default(sql`0`),
    points: integer('points').notNull().default(0),
    level: integer('level').notNull().default(1),
    totalGamesPlayed: integer('total_games_played').notNull().default(0),
    totalGamesWon: integer('total_games_won').notNull().default(0),
    /**
     * The daily game limit's count: games taken on the Lagos day that starts at `dailyGamesDay`
     * (an earlier day counts 0). Both plays keep it in the row they already write, so checking
     * the limit reads nothing more (migration 0022); cancellations leave it, as they always
     * counted.
     */
    dailyGames: integer('daily_games').notNull().default(0),
    dailyGamesDay: timestamp('daily_games_day', { withTimezone: true }),
    totalWinningAmount: kobo('total_winning_amount').notNull().default(sql`0`),
    profilePhoto: text('profile_photo'),
    bankId: uuid('bank_id').references(() => banks.id),
    bankAccountNumber: text('bank_account_number'),
    bankAccountName: text('bank_account_name'),
    /** Google's stable subject id once the account is linked to Google. */
    googleSub: text('google_sub').unique(),
    /** Bumped to revoke every token issued before. */
    tokenVersion: integer('token_version').notNull().default(0),
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    suspendedReason: text('suspended_reason'),
    /** An e-mail change waiting for the code sent to the new address; `email` stays until then. */
    pendingEmail: text('pending_email'),
    /**
     * KYC tier: 1 (verified e-mail and phone number), 2 (BVN or NIN verified through the KYC
     * provider), 3 (documents reviewed by an operator). Caps per tier live in settings.
     */
    kycTier: integer('kyc_tier').notNull().default(1),
    /** The identity the KYC provider returned (tier 2+): payout accounts must carry this name. */
    verifiedName: text('verified_name'),
    verifiedBirthDate: text('verified_birth_date'),
    /** Responsible play: remind the player every N minutes of play (null: off). */
    realityCheckMinutes: integer('reality_check_minutes'),
    /** Marketing e-mails (new tournaments, offers); always off while a player is excluded. */
    marketingEmails: boolean('marketing_emails').notNull().default(true),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
    uniqueIndex('users_handle_unique').on(sql`lower(${t.handle})`),
    // Deleted accounts are few; the leaderboard leaves their entries out through this index.
    index('users_deleted_idx').on(t.id).where(sql`${t.deletedAt} IS NOT NULL`),
    index('users_plan_expiry_idx').on(t.planExpiresAt).where(sql`${t.planExpiresAt} IS NOT NULL`),
    check('users_balance_non_negative', sql`${t.accountBalance} >= 0`),
    check('users_kyc_tier_range', sql`${t.kycTier} BETWEEN 1 AND 3`),
  ],
);

export const games = pgTable(
  'games',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    categoryId: uuid('category_id').references(() => categories.id),
    entryFee: kobo('entry_fee').notNull().default(sql`0`),
    reward: kobo('reward').notNull(),
    maximumPlayers: integer('maximum_players').notNull(),
    playerCount: integer('player_count').notNull().default(0),
    status: text('status', {
      enum: ['UPCOMING', 'ONGOING', 'CLOSED', 'COMPLETED', 'CANCELLED'],
    })
      .notNull()
      .default('ONGOING'),
    isTournament: boolean('is_tournament').notNull().default(false),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    /** Secret until the draw; hex of 32 random bytes. */
    seed: text('seed').notNull(),
    /** sha256(seed), published from creation. */
    commitment: text('commitment').notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    drawnAt: timestamp('drawn_at', { withTimezone: true }),
    /** sha256 over the ordered entry list the draw used, published with the seed. */
    entriesDigest: text('entries_digest'),
    /**
     * 1: winners from the seed alone (games created before the beacon). 2: entries sealed at
     * close (`merkle_root`), winners from the seed and the first public beacon round after close.
     */
    drawVersion: integer('draw_version').notNull().default(2),
    /** Merkle root of the entries as they stood at close, set in the closing transaction. */
    merkleRoot: text('merkle_root'),
    /** The verified beacon round the draw used: its number, signature and randomness (hex). */
    beaconRound: bigint('beacon_round', { mode: 'number' }),
    beaconSignature: text('beacon_signature'),
    beaconRandomness: text('beacon_randomness'),
    /** Why the game was cancelled, as published in the fairness log. */
    cancelReason: text('cancel_reason'),
    createdAt: createdAt(),
  },
  (t) => [
    index('games_status_idx').on(t.status, t.createdAt),
    check('games_entry_fee_non_negative', sql`${t.entryFee} >= 0`),
    check('games_reward_non_negative', sql`${t.reward} >= 0`),
    check('games_maximum_players_positive', sql`${t.maximumPlayers} > 0`),
    check(
      'games_player_count_in_range',
      sql`${t.playerCount} >= 0 AND ${t.playerCount} <= ${t.maximumPlayers}`,
    ),
  ],
);

/**
 * Messages sent from the support page: kept for operators, each with the
 * reference e-mailed to the sender. `user_id` when the sender was signed in.
 */
export const supportTickets = pgTable(
  'support_tickets',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    reference: text('reference').notNull().unique(),
    userId: uuid('user_id').references(() => users.id),
    name: text('name').notNull(),
    email: text('email').notNull(),
    category: text('category').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('support_tickets_created_idx').on(t.createdAt)],
);

export const notifications = pgTable(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    // No foreign key: users are never deleted (closing an account sets deleted_at), and every
    // notice is written for a user the same statement read, so the key guarded nothing while its
    // per-row check cost half of a draw's million notices (migration 0018).
    userId: uuid('user_id').notNull(),
    title: text('title').notNull(),
    message: text('message').notNull(),
    /** Where the notification leads in the web app (a game, the wallet); null: nowhere. */
    link: text('link'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.id),
    index('notifications_unread_idx').on(t.userId).where(sql`${t.readAt} IS NULL`),
  ],
);

/**
 * A drawn game's result notice, one row for all of its players instead of one notification
 * each (a million-entry draw wrote a million rows): every player of the game reads it in their
 * notification list, the winner's or the loser's text by their entry (notifications/service.ts).
 * Its id comes from the notifications' sequence, so it sorts and pages among a player's own
 * notifications as the per-player row did. Games drawn before migration 0020 have none: their
 * players hold notification rows.
 */
export const gameResultNotices = pgTable('game_result_notices', {
  id: bigint('id', { mode: 'number' }).primaryKey().default(sql`nextval('notifications_id_seq')`),
  gameId: uuid('game_id')
    .notNull()
    .unique()
    .references(() => games.id),
  winnerTitle: text('winner_title').notNull(),
  winnerMessage: text('winner_message').notNull(),
  loserTitle: text('loser_title').notNull(),
  loserMessage: text('loser_message').notNull(),
  link: text('link'),
  createdAt: createdAt(),
});

/** Which players have read a game's result notice (marking all as read writes one each). */
export const gameResultReads = pgTable(
  'game_result_reads',
  {
    userId: uuid('user_id').notNull(),
    gameId: uuid('game_id').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.gameId] })],
);

/** 6-digit codes sent by e-mail; only a hash is stored. */
export const emailCodes = pgTable(
  'email_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    email: text('email').notNull(),
    purpose: text('purpose', {
      enum: ['verify_email', 'reset_password', 'change_email', 'step_up'],
    }).notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('email_codes_lookup_idx').on(t.email, t.purpose, t.id)],
);

/** E-mail addresses proven by code before their account exists (signup modal). */
export const verifiedEmails = pgTable('verified_emails', {
  email: text('email').primaryKey(),
  verifiedAt: timestamp('verified_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Single-use links: e-mail validation, and the hand-off after a Google login. */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    purpose: text('purpose', { enum: ['validate_email', 'login'] }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('one_time_tokens_user_idx').on(t.userId)],
);

/** In-flight Google authorisations: state → PKCE verifier and nonce. */
export const oauthStates = pgTable('oauth_states', {
  state: text('state').primaryKey(),
  codeVerifier: text('code_verifier').notNull(),
  nonce: text('nonce').notNull(),
  createdAt: createdAt(),
});

/** The ledger's closed lists (src/shared/ledger.ts). */
export const ledgerKind = pgEnum('ledger_kind', LEDGER_KINDS);
export const ledgerAccount = pgEnum('ledger_account', LEDGER_ACCOUNTS);

/**
 * Double-entry ledger. A transaction's entries sum to zero; a wallet's entries sum to the
 * user's cached account_balance. `reference` makes each business event post at most once.
 * Written by the SQL function ledger_post only (migration 0026), which PostgreSQL enforces.
 */
export const ledgerTransactions = pgTable('ledger_transactions', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  kind: ledgerKind('kind').notNull(),
  reference: text('reference').notNull().unique(),
  description: text('description').notNull(),
  createdAt: createdAt(),
});

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /**
     * No foreign keys here (migration 0033): ledger_post inserts the transaction before its
     * lines and a transaction is never deleted, and the deferred check of each transaction
     * (functions/ledger_transaction_balanced.sql) finds a wallet line's player, set-based.
     */
    transactionId: bigint('transaction_id', { mode: 'number' }).notNull(),
    /** `wallet` for a player's wallet (with user_id), otherwise a platform account name. */
    account: ledgerAccount('account').notNull(),
    userId: uuid('user_id'),
    amount: kobo('amount').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_entries_transaction_idx').on(t.transactionId),
    index('ledger_entries_wallet_idx').on(t.userId, t.id),
    index('ledger_entries_account_idx').on(t.account),
    check('ledger_entries_amount_non_zero', sql`${t.amount} <> 0`),
    check(
      'ledger_entries_wallet_has_user',
      sql`(${t.account} = 'wallet') = (${t.userId} IS NOT NULL)`,
    ),
  ],
);

export const gameEntries = pgTable(
  'game_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    gameId: uuid('game_id')
      .notNull()
      .references(() => games.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    answer: text('answer').notNull(),
    /**
     * sha256 of "<id>:<answer>" in UTF-8, the answer's hash as the seal's leaf and the public
     * proof take it (src/shared/merkle.ts answerHashOf), computed by PostgreSQL as the entry is
     * written (migration 0033), so a seal hashes each entry once.
     */
    answerHash: bytes('answer_hash')
      .notNull()
      .generatedAlwaysAs(
        sql`sha256(decode(replace("game_entries"."id"::text || ':' || "game_entries"."answer", '\\', '\\\\'), 'escape'))`,
      ),
    amountPaid: kobo('amount_paid').notNull(),
    refunded: boolean('refunded').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('game_entries_one_per_player').on(t.gameId, t.userId),
    index('game_entries_user_idx').on(t.userId, t.id),
    // TRENDING's count of each live game's entries of the last 24 hours, a range of it per game.
    index('game_entries_game_created_idx').on(t.gameId, t.createdAt),
    // A player's entries in a window (the leaderboard's points); undrawn ones included, since a
    // loser is told from a pending entry by its game's status.
    index('game_entries_player_entries_idx')
      .on(t.userId, t.createdAt, t.gameId)
      .where(sql`NOT ${t.refunded}`),
  ],
);

/**
 * A drawn game's winning entries (migration 0033): the draw inserts these rows and writes
 * nothing of the entries, so an entry of a COMPLETED game without one lost. Player and time are
 * the entry's (the statement trigger of functions/game_winners_of_their_entries.sql checks it),
 * so the leaderboard reads a window's winnings from this table alone.
 */
export const gameWinners = pgTable(
  'game_winners',
  {
    gameId: uuid('game_id').notNull(),
    entryId: bigint('entry_id', { mode: 'number' }).notNull(),
    userId: uuid('user_id').notNull(),
    prize: kobo('prize').notNull(),
    /** The entry's created_at: the leaderboard's windows are the entries' time. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.gameId, t.entryId] }),
    // The leaderboard (modules/leaderboard/service.ts): a window's winnings from the index alone.
    index('game_winners_winnings_idx').on(t.createdAt, t.userId, t.prize, t.gameId),
    check('game_winners_prize_not_negative', sql`${t.prize} >= 0`),
  ],
);

/** Durable background work (draws, renewals, reconciliation) on the same database. */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    /** Unique: enqueueing the same work twice is a no-op. */
    key: text('key').notNull().unique(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    /** The worker (host:pid) holding the lock, for operators asking who runs what. */
    lockedBy: text('locked_by'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    doneAt: timestamp('done_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('jobs_due_idx').on(t.runAt).where(sql`${t.doneAt} IS NULL`)],
);

export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    method: text('method', { enum: ['transactpay', 'paystack', 'flutterwave'] }).notNull(),
    /** Our reference, sent to the provider; it credits at most once. */
    reference: text('reference').notNull().unique(),
    amount: kobo('amount').notNull(),
    currency: text('currency').notNull().default('NGN'),
    /**
     * HELD: paid, but past the player's deposit limit when it landed, so kept in the held
     * account (not the wallet) for an operator; REFUNDED: such a payment returned to the payer.
     */
    status: text('status', { enum: ['PENDING', 'SUCCESS', 'FAILED', 'HELD', 'REFUNDED'] })
      .notNull()
      .default('PENDING'),
    failureReason: text('failure_reason'),
    /** Why a payment was held ("it would have taken you past your daily deposit limit of ₦1,000"). */
    holdReason: text('hold_reason'),
    heldAt: timestamp('held_at', { withTimezone: true }),
    /** The operator who released or returned a held payment (null: refunded automatically). */
    holdResolvedBy: uuid('hold_resolved_by').references(() => users.id),
    holdResolvedAt: timestamp('hold_resolved_at', { withTimezone: true }),
    holdResolutionNote: text('hold_resolution_note'),
    /** Whether the provider ran live or in this server's sandbox. */
    mode: text('mode', { enum: ['live', 'sandbox'] }).notNull(),
    /**
     * A sandbox credit found in a live system stays a failure of the ledger check, and blocks
     * payouts, until an operator has dealt with it and marked it here (who, when, what was done).
     */
    sandboxReviewedAt: timestamp('sandbox_reviewed_at', { withTimezone: true }),
    sandboxReviewedBy: uuid('sandbox_reviewed_by').references(() => users.id),
    sandboxReviewNote: text('sandbox_review_note'),
    /**
     * checkout: a top-up the player started (our PLK- reference); bank_transfer: money sent to
     * the player's account number, under the provider's own transaction reference.
     */
    channel: text('channel', { enum: ['checkout', 'bank_transfer'] })
      .notNull()
      .default('checkout'),
    /** A bank transfer's sender, as the provider reported them. */
    senderName: text('sender_name'),
    senderBank: text('sender_bank'),
    /** The provider's id of a bank transfer (Flutterwave refunds and verifies by it). */
    providerTransactionId: text('provider_transaction_id'),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('payments_user_idx').on(t.userId, t.createdAt),
    index('payments_pending_idx').on(t.createdAt).where(sql`${t.status} = 'PENDING'`),
    index('payments_held_idx').on(t.heldAt).where(sql`${t.status} = 'HELD'`),
    index('payments_user_settled_idx').on(t.userId, t.settledAt),
    check('payments_amount_positive', sql`${t.amount} > 0`),
  ],
);

/** A player's own account number for top-ups by bank transfer, one per provider. */
export const virtualAccounts = pgTable(
  'virtual_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    method: text('method', { enum: ['paystack', 'flutterwave'] }).notNull(),
    mode: text('mode', { enum: ['live', 'sandbox'] }).notNull(),
    accountNumber: text('account_number').notNull(),
    accountName: text('account_name').notNull(),
    bankName: text('bank_name').notNull(),
    /** The provider's customer (Paystack's customer_code). */
    providerCustomer: text('provider_customer'),
    /** The provider's id of the account (Paystack's dedicated account id, Flutterwave's order_ref). */
    providerReference: text('provider_reference'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('virtual_accounts_user_method_unique').on(t.userId, t.method, t.mode),
    unique('virtual_accounts_number_unique').on(t.method, t.mode, t.accountNumber),
  ],
);

/** Every webhook delivery we accepted, for audit; duplicates of one event are stored once. */
export const webhookEvents = pgTable('webhook_events', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  method: text('method').notNull(),
  eventKey: text('event_key').notNull().unique(),
  reference: text('reference'),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The built-in sandbox provider's own record of its checkouts (stands in for the provider). */
export const sandboxOrders = pgTable('sandbox_orders', {
  reference: text('reference').primaryKey(),
  method: text('method').notNull(),
  amount: kobo('amount').notNull(),
  status: text('status', { enum: ['pending', 'paid', 'cancelled'] })
    .notNull()
    .default('pending'),
  createdAt: createdAt(),
});

/**
 * The sandbox's record of bank transfers its page sent to players' account numbers: it stands in
 * for the provider that a transfer's webhook is verified with (and reconciliation lists).
 */
export const sandboxTransfers = pgTable(
  'sandbox_transfers',
  {
    reference: text('reference').primaryKey(),
    method: text('method').notNull(),
    accountNumber: text('account_number').notNull(),
    amount: kobo('amount').notNull(),
    senderName: text('sender_name').notNull(),
    senderBank: text('sender_bank').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('sandbox_transfers_created_idx').on(t.method, t.createdAt),
    check('sandbox_transfers_amount_positive', sql`${t.amount} > 0`),
  ],
);

export const withdrawals = pgTable(
  'withdrawals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /**
     * What the player and support read out (shared/short-reference.ts): ten characters, made by
     * the server and retried on a collision; the id stays the key and the transfer's reference.
     */
    shortReference: text('short_reference').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    amount: kobo('amount').notNull(),
    fee: kobo('fee').notNull(),
    status: text('status', {
      enum: ['PENDING', 'PROCESSING', 'SUCCESSFUL', 'FAILED', 'REJECTED'],
    })
      .notNull()
      .default('PENDING'),
    bankCode: text('bank_code').notNull(),
    bankName: text('bank_name').notNull(),
    accountNumber: text('account_number').notNull(),
    accountName: text('account_name').notNull(),
    idempotencyKey: text('idempotency_key'),
    providerReference: text('provider_reference'),
    reason: text('reason'),
    /** Anti-money-laundering rules that matched at request time: the operator must review. */
    holdReasons: jsonb('hold_reasons').$type<string[]>().notNull().default([]),
    decidedBy: uuid('decided_by').references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('withdrawals_user_idx').on(t.userId, t.createdAt),
    index('withdrawals_status_idx').on(t.status, t.createdAt),
    uniqueIndex('withdrawals_idempotency_unique').on(t.userId, t.idempotencyKey),
    uniqueIndex('withdrawals_short_reference_unique').on(t.shortReference),
    check('withdrawals_amount_positive', sql`${t.amount} > 0`),
  ],
);

/**
 * Keys every instance must share and no one has to choose (the Web Push key pair): the first
 * instance to start writes one, every other reads it (plugins/secrets.ts).
 */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

/** Every operator action: who, when, what, and the record before and after. Append-only. */
export const adminAudit = pgTable(
  'admin_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Null for the system's own actions (a break bound to another account of its player). */
    adminId: uuid('admin_id').references(() => users.id),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    before: jsonb('before').$type<unknown>(),
    after: jsonb('after').$type<unknown>(),
    createdAt: createdAt(),
  },
  (t) => [index('admin_audit_created_idx').on(t.createdAt)],
);

/**
 * One row per sign-in: the token carries its id (`sid`), so one device can be signed out
 * (`POST /auth/logout`) without touching the others; "log out of all devices" revokes them all.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    userAgent: text('user_agent'),
    ipAddress: text('ip_address'),
    /**
     * When this session last proved an operator's second factor (null: never). The console
     * refuses a session without one; payouts, wallet adjustments, lifted breaks and settings
     * want one no older than 15 minutes (auth/second-factor.ts).
     */
    secondFactorAt: timestamp('second_factor_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('sessions_user_idx').on(t.userId).where(sql`${t.revokedAt} IS NULL`)],
);

/**
 * Failure counters for guessable secrets (passwords, codes), shared by every instance: a key
 * such as `login:<email>:<address>` counts failures in a window and may hold a block.
 */
export const authThrottles = pgTable('auth_throttles', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowEndsAt: timestamp('window_ends_at', { withTimezone: true }).notNull(),
  blockedUntil: timestamp('blocked_until', { withTimezone: true }),
});

/**
 * An operator's TOTP authenticator (RFC 6238): `secret` is the base32 secret encrypted with a
 * key derived from the server secret, `confirmedAt` null until the first code proved the
 * enrolment, `lastStep` the last 30-second step whose code was accepted (no replays).
 */
export const operatorSecondFactors = pgTable('operator_second_factors', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id),
  secret: text('secret').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/** One-use recovery codes of an operator's second factor, kept as SHA-256 hashes only. */
export const operatorRecoveryCodes = pgTable(
  'operator_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('operator_recovery_codes_user_idx').on(t.userId).where(sql`${t.usedAt} IS NULL`)],
);

/** Addresses an account has signed in from: they keep working while strangers are throttled. */
export const knownLoginAddresses = pgTable(
  'known_login_addresses',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    address: text('address').notNull(),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.address] })],
);

/**
 * Files players upload (profile photos) when no object storage is configured: in the database,
 * so every instance behind a load balancer serves the same files.
 */
export const storedFiles = pgTable('stored_files', {
  key: text('key').primaryKey(),
  contentType: text('content_type').notNull(),
  body: bytes('body').notNull(),
  createdAt: createdAt(),
});

/**
 * Request counters shared by every instance: hits per key (a limit and what it counts, e.g. a
 * client address) in a window that starts at the key's first hit; windows long over are swept
 * now and then.
 */
export const rateLimitHits = pgTable('rate_limit_hits', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  hits: integer('hits').notNull().default(0),
});

/**
 * Limits a player sets on themselves (responsible play): how much they may top up (`deposit`) or
 * spend on entry fees (`spend`) per day, week or month (Africa/Lagos calendar). Lowering applies
 * at once; raising or removing waits 24 hours in `pending_*` before it replaces `amount`.
 */
export const playLimits = pgTable(
  'play_limits',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind', { enum: ['deposit', 'spend'] }).notNull(),
    period: text('period', { enum: ['day', 'week', 'month'] }).notNull(),
    /** Null: no limit. */
    amount: kobo('amount'),
    /** A raise or removal waiting out its cooling-off: applies from `pending_from`. */
    pendingAmount: kobo('pending_amount'),
    pendingRemoval: boolean('pending_removal').notNull().default(false),
    pendingFrom: timestamp('pending_from', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.kind, t.period] }),
    check('play_limits_amount_positive', sql`${t.amount} IS NULL OR ${t.amount} > 0`),
    check(
      'play_limits_pending_positive',
      sql`${t.pendingAmount} IS NULL OR ${t.pendingAmount} > 0`,
    ),
  ],
);

/**
 * Time-outs (24 hours to 30 days) and self-exclusions (6 months to 5 years). While one runs the
 * player may only see and withdraw their balance. Lifting early needs an operator and a reason,
 * both kept here and in the audit log.
 */
export const playExclusions = pgTable(
  'play_exclusions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind', { enum: ['timeout', 'self_exclusion'] }).notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    liftedAt: timestamp('lifted_at', { withTimezone: true }),
    liftedBy: uuid('lifted_by').references(() => users.id),
    liftedReason: text('lifted_reason'),
    /**
     * A break binds the person: this account shares an identity key (`boundBy`) with the player
     * of the break `boundFrom`, so it carries a copy of it (migration 0023, pluckers_bind_person).
     */
    boundFrom: uuid('bound_from').references((): AnyPgColumn => playExclusions.id),
    boundBy: text('bound_by', { enum: IDENTITY_KEY_KINDS }).array(),
    createdAt: createdAt(),
  },
  (t) => [
    index('play_exclusions_user_idx').on(t.userId, t.endsAt),
    check('play_exclusions_ends_after_start', sql`${t.endsAt} > ${t.startsAt}`),
    check('play_exclusions_bound_has_keys', sql`(${t.boundFrom} IS NULL) = (${t.boundBy} IS NULL)`),
    uniqueIndex('play_exclusions_bound_once')
      .on(t.userId, t.boundFrom)
      .where(sql`${t.boundFrom} IS NOT NULL`),
    index('play_exclusions_bound_from_idx').on(t.boundFrom).where(sql`${t.boundFrom} IS NOT NULL`),
  ],
);

/**
 * The identity keys of a break's player as the break ran (digests of the normalised values),
 * kept so that an account deleted or changed during the break still binds a new one.
 */
export const breakIdentities = pgTable(
  'break_identities',
  {
    exclusionId: uuid('exclusion_id')
      .notNull()
      .references(() => playExclusions.id),
    kind: text('kind', { enum: IDENTITY_KEY_KINDS }).notNull(),
    digest: text('digest').notNull(),
  },
  (t) => [
    primaryKey({ name: 'break_identities_pk', columns: [t.exclusionId, t.kind, t.digest] }),
    index('break_identities_digest_idx').on(t.digest),
  ],
);

/**
 * Identity checks against the KYC provider (tier 2). The BVN or NIN itself is never stored:
 * `id_hash` is an HMAC of it under a server key, so one identity cannot verify two accounts.
 */
export const identityVerifications = pgTable(
  'identity_verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    idType: text('id_type', { enum: ['BVN', 'NIN'] }).notNull(),
    idHash: text('id_hash').notNull(),
    /** The last four digits, so the player can tell which number they used. */
    idLastFour: text('id_last_four').notNull(),
    provider: text('provider').notNull(),
    providerReference: text('provider_reference'),
    mode: text('mode', { enum: ['live', 'sandbox'] }).notNull(),
    status: text('status', { enum: ['VERIFIED', 'REJECTED'] }).notNull(),
    /** Why a check was refused (name or date of birth mismatch, under 18, duplicate…). */
    failureReason: text('failure_reason'),
    returnedName: text('returned_name'),
    returnedBirthDate: text('returned_birth_date'),
    createdAt: createdAt(),
  },
  (t) => [
    index('identity_verifications_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('identity_verifications_identity_unique')
      .on(t.idHash)
      .where(sql`${t.status} = 'VERIFIED'`),
  ],
);

/** Tier 3: identity documents for an operator to review, re-encoded and stored like photos. */
export const kycDocuments = pgTable(
  'kyc_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    documentType: text('document_type', {
      enum: ['passport', 'drivers_licence', 'voters_card', 'national_id', 'utility_bill'],
    }).notNull(),
    /** Key in file storage (never under a public path: served to operators only). */
    fileKey: text('file_key').notNull(),
    status: text('status', { enum: ['PENDING', 'APPROVED', 'REJECTED'] })
      .notNull()
      .default('PENDING'),
    reviewedBy: uuid('reviewed_by').references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewNote: text('review_note'),
    createdAt: createdAt(),
  },
  (t) => [
    index('kyc_documents_user_idx').on(t.userId, t.createdAt),
    index('kyc_documents_pending_idx').on(t.createdAt).where(sql`${t.status} = 'PENDING'`),
  ],
);

/**
 * The public, append-only fairness log: commitments, seals, beacon rounds, results and
 * cancellations. Rows are written in the business transaction without a position; the worker
 * then chains them in order (`position`, `prev_hash`, `hash` = sha256(prev_hash + "\n" + body)),
 * so appending never serialises plays and draws on one lock. `body` is the exact JSON text hashed.
 */
export const fairnessLog = pgTable(
  'fairness_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    position: bigint('position', { mode: 'number' }).unique(),
    kind: text('kind', {
      enum: ['commitment', 'seal', 'beacon', 'result', 'cancellation'],
    }).notNull(),
    gameId: uuid('game_id').references(() => games.id),
    body: text('body').notNull(),
    prevHash: text('prev_hash'),
    hash: text('hash'),
    createdAt: createdAt(),
  },
  (t) => [
    index('fairness_log_unchained_idx').on(t.id).where(sql`${t.position} IS NULL`),
    index('fairness_log_game_idx').on(t.gameId),
  ],
);

/**
 * A browser's Web Push subscription (one per device and browser): where the push service takes
 * messages for it and the keys that encrypt them (RFC 8291). The endpoint is unique: the same
 * browser subscribing again (or for another account) replaces its row.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull().unique(),
    /** The browser's P-256 public key and auth secret, base64url as PushManager gives them. */
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [index('push_subscriptions_user_idx').on(t.userId)],
);

/**
 * What a player wants to be told, by kind. No row: every kind on (the defaults), e-mails on.
 * `emails` covers the e-mails for wins and paid withdrawals.
 */
export const notificationPreferences = pgTable('notification_preferences', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  results: boolean('results').notNull().default(true),
  withdrawals: boolean('withdrawals').notNull().default(true),
  tournaments: boolean('tournaments').notNull().default(true),
  planRenewal: boolean('plan_renewal').notNull().default(true),
  emails: boolean('emails').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One row per event per recipient and channel, written before sending: a push to a subscription
 * (`subscription_id`) or an e-mail to a player (`user_id`). The unique keys make a re-run of a
 * fan-out job send nothing twice; `sent_at` null is a send still to do (or retry).
 */
export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The event: `draw:<gameId>`, `withdrawal-paid:<id>`, `tournament:<gameId>`, `plan:<…>`. */
    eventKey: text('event_key').notNull(),
    channel: text('channel', { enum: ['push', 'email'] }).notNull(),
    subscriptionId: bigint('subscription_id', { mode: 'number' }).references(
      () => pushSubscriptions.id,
      { onDelete: 'cascade' },
    ),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('notification_deliveries_push_idx')
      .on(t.eventKey, t.subscriptionId)
      .where(sql`${t.channel} = 'push'`),
    uniqueIndex('notification_deliveries_email_idx')
      .on(t.eventKey, t.userId)
      .where(sql`${t.channel} = 'email'`),
  ],
);
