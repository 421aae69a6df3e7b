import { and, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import { formatNaira, koboToNaira } from '../../../shared/money.ts';
import {
  type NotificationPreferences,
  type PushPayload,
  pushPaths,
} from '../../../shared/schemas/push.ts';
import type { Database, Executor } from '../../db/client.ts';
import { wonSql } from '../../db/outcome.ts';
import {
  gameEntries,
  games,
  notificationDeliveries,
  payments,
  pushSubscriptions,
  users,
  withdrawals,
} from '../../db/schema.ts';
import { enqueueJob } from '../../jobs/queue.ts';
import type { MailMessage } from '../../providers/mail.ts';
import { branded } from '../auth/emails.ts';
import { marketingAudience } from './audience.ts';
import {
  MAX_SUBSCRIPTIONS_PER_PLAYER,
  preferencesByUser,
  type SendOutcome,
  sendPush,
  trimSubscriptions,
  type Vapid,
} from './push.ts';
import { checkEndpointUrl, type PushEndpoints, RefusedPushEndpoint } from './push-endpoint.ts';

/**
 * Something players are told about on their devices. Queued with `queuePush` in the transaction
 * that makes it happen, so a rolled-back event tells nobody, and sent by the worker once it has
 * committed.
 */
export type PushEvent =
  /** A game drawn or cancelled: every player hears their result. */
  | { type: 'results'; gameId: string }
  | { type: 'withdrawal-paid'; withdrawalId: string }
  /** Money sent to the player's account number was added to their wallet. */
  | { type: 'transfer-received'; paymentId: string }
  | { type: 'tournament'; gameId: string; audience: 'early' | 'everyone-else' }
  /** A plan renewed or ended: the texts of the in-app notice. */
  | { type: 'plan'; userId: string; at: string; title: string; body: string };

export const PUSH_JOB = 'push';
/** Recipients per job run: a 100,000-player draw is 200 short runs, with other jobs between. */
export const PUSH_PAGE_SIZE = 500;
/** Sends in flight at once within a page. */
const CONCURRENCY = 16;
/** A delivery the push service keeps refusing (5xx, timeouts) is given up after this many tries. */
const MAX_ATTEMPTS = 5;

type Kind = keyof Omit<NotificationPreferences, 'emails'>;

interface Recipient {
  /** Where the next page starts (an entry id, a user id). */
  cursor: string;
  userId: string;
  payload: PushPayload;
  /** Also e-mailed (wins and paid withdrawals), unless the player turned e-mails off. */
  email: { to: string; subject: string; paragraphs: string[]; label: string } | null;
}

export function eventKeyOf(event: PushEvent): string {
  switch (event.type) {
    case 'results':
      return `results:${event.gameId}`;
    case 'withdrawal-paid':
      return `withdrawal-paid:${event.withdrawalId}`;
    case 'transfer-received':
      return `transfer-received:${event.paymentId}`;
    case 'tournament':
      return `tournament:${event.gameId}:${event.audience}`;
    case 'plan':
      return `plan:${event.userId}:${event.at}`;
  }
}

const KIND_OF: Record<PushEvent['type'], Kind> = {
  results: 'results',
  'withdrawal-paid': 'withdrawals',
  // Money in and out of the wallet by bank is one preference: "wallet money by bank".
  'transfer-received': 'withdrawals',
  tournament: 'tournaments',
  plan: 'planRenewal',
};

/** Queues the event's first page; call it inside the event's own transaction. */
export async function queuePush(tx: Executor, event: PushEvent): Promise<void> {
  await enqueueJob(tx, {
    kind: PUSH_JOB,
    key: `push:${eventKeyOf(event)}:start`,
    payload: { event, after: null },
  });
}

export interface FanOutDeps {
  db: Database;
  vapid: Vapid;
  /** How pushes reach push services: only known ones, at checked public addresses. */
  endpoints: PushEndpoints;
  publicUrl: string;
  sendMail: (message: MailMessage) => Promise<boolean>;
}

/**
 * One page of an event: the next page is queued first (its own job, behind whatever else is
 * due), then each recipient's devices get a delivery record and the records not yet sent are
 * sent. The records' unique keys make a re-run (a retry, a second worker) send nothing twice.
 * Deliveries the push service should be asked again about (5xx, 429, timeouts) fail the job so
 * it runs again later; 404/410 remove the subscription, as does an endpoint the rules refuse.
 */
export async function runPushPage(
  deps: FanOutDeps,
  payload: Record<string, unknown>,
): Promise<{ recipients: number; pushed: number; mailed: number }> {
  const event = payload.event as PushEvent;
  const after = (payload.after as string | null) ?? null;
  const eventKey = eventKeyOf(event);
  // One more than a page is read, to know whether a next page exists without running it.
  const found = await recipientsOf(deps.db, event, after);
  const recipients = found.slice(0, PUSH_PAGE_SIZE);
  const last = recipients.at(-1);
  if (found.length > PUSH_PAGE_SIZE && last)
    await enqueueJob(deps.db, {
      kind: PUSH_JOB,
      key: `push:${eventKey}:${last.cursor}`,
      payload: { event, after: last.cursor },
    });
  if (recipients.length === 0) return { recipients: 0, pushed: 0, mailed: 0 };

  const userIds = [...new Set(recipients.map((r) => r.userId))];
  const preferences = await preferencesByUser(deps.db, userIds);
  const kind = KIND_OF[event.type];
  const wanted = recipients.filter((r) => preferences.get(r.userId)?.[kind]);
  const byUser = new Map(recipients.map((r) => [r.userId, r]));

  const pushed = await pushTo(deps, eventKey, wanted, byUser);
  const mailed = await mailTo(
    deps,
    eventKey,
    recipients.filter((r) => r.email && preferences.get(r.userId)?.emails),
  );
  if (pushed.retry > 0 || mailed.retry > 0)
    throw new Error(`${pushed.retry + mailed.retry} notifications to retry for ${eventKey}`);
  return { recipients: recipients.length, pushed: pushed.sent, mailed: mailed.sent };
}

async function pushTo(
  deps: FanOutDeps,
  eventKey: string,
  wanted: Recipient[],
  byUser: Map<string, Recipient>,
): Promise<{ sent: number; retry: number }> {
  if (wanted.length === 0) return { sent: 0, retry: 0 };
  const subscriptions = await sendableSubscriptions(
    deps,
    wanted.map((r) => r.userId),
  );
  if (subscriptions.length === 0) return { sent: 0, retry: 0 };
  await deps.db
    .insert(notificationDeliveries)
    .values(
      subscriptions.map((s) => ({ eventKey, channel: 'push' as const, subscriptionId: s.id })),
    )
    .onConflictDoNothing();
  const pending = await deps.db
    .select({
      id: notificationDeliveries.id,
      subscriptionId: notificationDeliveries.subscriptionId,
    })
    .from(notificationDeliveries)
    .where(
      and(
        eq(notificationDeliveries.eventKey, eventKey),
        eq(notificationDeliveries.channel, 'push'),
        inArray(
          notificationDeliveries.subscriptionId,
          subscriptions.map((s) => s.id),
        ),
        isNull(notificationDeliveries.sentAt),
        lt(notificationDeliveries.attempts, MAX_ATTEMPTS),
      ),
    );
  const subscriptionById = new Map(subscriptions.map((s) => [s.id, s]));
  let sent = 0;
  let retry = 0;
  const outcomes = settler(deps.db);
  await inParallel(pending, async (delivery) => {
    const subscription = subscriptionById.get(delivery.subscriptionId ?? -1);
    const recipient = subscription && byUser.get(subscription.userId);
    if (!subscription || !recipient) return;
    const outcome = await sendPush(subscription, recipient.payload, deps.vapid, deps.endpoints);
    if (outcome.ok) sent += 1;
    else if (outcome.retry) retry += 1;
    await outcomes.record(delivery.id, outcome, subscription.id);
  });
  await outcomes.flush();
  return { sent, retry };
}

/**
 * The players' subscriptions a push may go to. Rows saved before the rules held (an endpoint
 * off the known push services, more than MAX_SUBSCRIPTIONS_PER_PLAYER devices) are removed
 * here, so no event posts to them.
 */
async function sendableSubscriptions(deps: FanOutDeps, userIds: string[]) {
  const all = await deps.db
    .select()
    .from(pushSubscriptions)
    .where(inArray(pushSubscriptions.userId, userIds));
  const refused = all.filter((s) => {
    try {
      checkEndpointUrl(s.endpoint, deps.endpoints.rules);
      return false;
    } catch (error) {
      if (error instanceof RefusedPushEndpoint) return true;
      throw error;
    }
  });
  if (refused.length > 0)
    await deps.db.delete(pushSubscriptions).where(
      inArray(
        pushSubscriptions.id,
        refused.map((s) => s.id),
      ),
    );
  const perUser = new Map<string, number>();
  for (const s of all) perUser.set(s.userId, (perUser.get(s.userId) ?? 0) + 1);
  const crowded = [...perUser].filter(([, count]) => count > MAX_SUBSCRIPTIONS_PER_PLAYER);
  if (crowded.length > 0)
    await trimSubscriptions(
      deps.db,
      crowded.map(([userId]) => userId),
    );
  if (refused.length === 0 && crowded.length === 0) return all;
  return deps.db.select().from(pushSubscriptions).where(inArray(pushSubscriptions.userId, userIds));
}

/** Outcomes written every this many sends: a page of 500 is a handful of statements, not 500 commits. */
const SETTLE_EVERY = 100;

/**
 * Records what happened to deliveries in batches. A worker that dies between a send and its
 * batch sends those few again when the job is retried: the window is one batch, not the page.
 */
function settler(db: Database) {
  const sent: number[] = [];
  const gone: number[] = [];
  const failed: Array<{ id: number; retry: boolean; error: string }> = [];
  async function flush() {
    const [sentIds, goneIds, failures] = [sent.splice(0), gone.splice(0), failed.splice(0)];
    if (sentIds.length > 0)
      await db
        .update(notificationDeliveries)
        .set({ sentAt: new Date(), attempts: sql`${notificationDeliveries.attempts} + 1` })
        .where(inArray(notificationDeliveries.id, sentIds));
    // The browser unsubscribed or the subscription expired; its delivery records go with it.
    if (goneIds.length > 0)
      await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, goneIds));
    for (const failure of failures)
      await db
        .update(notificationDeliveries)
        .set({
          // A refusal that will not change (400, 413…) is not tried again.
          attempts: failure.retry ? sql`${notificationDeliveries.attempts} + 1` : MAX_ATTEMPTS,
          lastError: failure.error.slice(0, 500),
        })
        .where(eq(notificationDeliveries.id, failure.id));
  }
  return {
    async record(deliveryId: number, outcome: SendOutcome, subscriptionId?: number) {
      if (outcome.ok) sent.push(deliveryId);
      else if (outcome.gone && subscriptionId !== undefined) gone.push(subscriptionId);
      else failed.push({ id: deliveryId, retry: outcome.retry, error: outcome.error });
      if (sent.length + gone.length + failed.length >= SETTLE_EVERY) await flush();
    },
    flush,
  };
}

async function mailTo(
  deps: FanOutDeps,
  eventKey: string,
  recipients: Recipient[],
): Promise<{ sent: number; retry: number }> {
  if (recipients.length === 0) return { sent: 0, retry: 0 };
  await deps.db
    .insert(notificationDeliveries)
    .values(recipients.map((r) => ({ eventKey, channel: 'email' as const, userId: r.userId })))
    .onConflictDoNothing();
  const pending = await deps.db
    .select({ id: notificationDeliveries.id, userId: notificationDeliveries.userId })
    .from(notificationDeliveries)
    .where(
      and(
        eq(notificationDeliveries.eventKey, eventKey),
        eq(notificationDeliveries.channel, 'email'),
        inArray(
          notificationDeliveries.userId,
          recipients.map((r) => r.userId),
        ),
        isNull(notificationDeliveries.sentAt),
        lt(notificationDeliveries.attempts, MAX_ATTEMPTS),
      ),
    );
  const byUser = new Map(recipients.map((r) => [r.userId, r]));
  let sent = 0;
  let retry = 0;
  const outcomes = settler(deps.db);
  await inParallel(pending, async (delivery) => {
    const recipient = byUser.get(delivery.userId ?? '');
    const email = recipient?.email;
    if (!recipient || !email) return;
    const ok = await deps.sendMail(
      branded(
        email.to,
        email.subject,
        email.paragraphs,
        { label: email.label, url: `${deps.publicUrl}${recipient.payload.url}` },
        undefined,
        'notice',
      ),
    );
    if (ok) sent += 1;
    else retry += 1;
    await outcomes.record(
      delivery.id,
      ok ? { ok } : { ok, gone: false, retry: true, error: 'sending mail failed' },
    );
  });
  await outcomes.flush();
  return { sent, retry };
}

async function inParallel<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(CONCURRENCY, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next];
      next += 1;
      if (item !== undefined) await work(item);
    }
  });
  await Promise.all(lanes);
}

/** The event's next page of recipients, each with what to show them. */
async function recipientsOf(
  database: Executor,
  event: PushEvent,
  after: string | null,
): Promise<Recipient[]> {
  switch (event.type) {
    case 'results':
      return resultRecipients(database, event.gameId, after);
    case 'withdrawal-paid':
      return after ? [] : paidWithdrawalRecipient(database, event.withdrawalId);
    case 'transfer-received':
      return after ? [] : receivedTransferRecipient(database, event.paymentId);
    case 'tournament':
      return tournamentRecipients(database, event, after);
    case 'plan':
      return after
        ? []
        : [
            {
              cursor: event.userId,
              userId: event.userId,
              payload: {
                title: event.title,
                body: event.body,
                url: pushPaths.pricing,
                tag: `plan:${event.userId}`,
              },
              email: null,
            },
          ];
  }
}

async function resultRecipients(
  database: Executor,
  gameId: string,
  after: string | null,
): Promise<Recipient[]> {
  const [game] = await database
    .select({ title: games.title, status: games.status, reward: games.reward })
    .from(games)
    .where(eq(games.id, gameId));
  if (!game || (game.status !== 'COMPLETED' && game.status !== 'CANCELLED')) return [];
  const rows = await database
    .select({
      id: gameEntries.id,
      userId: gameEntries.userId,
      isWinner: wonSql(gameEntries),
      email: users.email,
      deletedAt: users.deletedAt,
    })
    .from(gameEntries)
    .innerJoin(users, eq(users.id, gameEntries.userId))
    .where(
      and(eq(gameEntries.gameId, gameId), after ? gt(gameEntries.id, Number(after)) : undefined),
    )
    .orderBy(gameEntries.id)
    .limit(PUSH_PAGE_SIZE + 1);
  const url = pushPaths.game(gameId);
  const reward = formatNaira(koboToNaira(game.reward));
  return rows.map((row) => {
    const won = game.status === 'COMPLETED' && row.isWinner === true;
    const payload: PushPayload =
      game.status === 'CANCELLED'
        ? {
            title: 'Game cancelled',
            body: `"${game.title}" was cancelled. Any entry fee you paid is back in your wallet.`,
            url,
            tag: `game:${gameId}`,
          }
        : won
          ? {
              title: 'You won!',
              body: `Congratulations! You are a winner of "${game.title}". ${reward} has been added to your wallet.`,
              url,
              tag: `game:${gameId}`,
            }
          : {
              title: 'Results are in',
              body: `The draw for "${game.title}" is done. You did not win this time; keep plucking!`,
              url,
              tag: `game:${gameId}`,
            };
    return {
      cursor: String(row.id),
      userId: row.userId,
      payload,
      email:
        won && !row.deletedAt
          ? {
              to: row.email,
              subject: 'You won on Pluckers!',
              paragraphs: [payload.body],
              label: 'See your answer',
            }
          : null,
    };
  });
}

async function paidWithdrawalRecipient(
  database: Executor,
  withdrawalId: string,
): Promise<Recipient[]> {
  const [row] = await database
    .select({
      userId: withdrawals.userId,
      shortReference: withdrawals.shortReference,
      amount: withdrawals.amount,
      bankName: withdrawals.bankName,
      accountNumber: withdrawals.accountNumber,
      status: withdrawals.status,
      email: users.email,
      deletedAt: users.deletedAt,
    })
    .from(withdrawals)
    .innerJoin(users, eq(users.id, withdrawals.userId))
    .where(eq(withdrawals.id, withdrawalId));
  if (row?.status !== 'SUCCESSFUL') return [];
  const body = `${formatNaira(koboToNaira(row.amount))} has been sent to ${row.bankName} ${row.accountNumber}.`;
  return [
    {
      cursor: withdrawalId,
      userId: row.userId,
      payload: {
        title: 'Withdrawal paid',
        body,
        url: pushPaths.wallet,
        tag: `withdrawal:${withdrawalId}`,
      },
      email: row.deletedAt
        ? null
        : {
            to: row.email,
            subject: 'Your withdrawal is paid',
            // The reference on the receipt, for the player to quote if the money does not arrive.
            paragraphs: [body, `Reference: ${row.shortReference}`],
            label: 'Open my wallet',
          },
    },
  ];
}

async function receivedTransferRecipient(
  database: Executor,
  paymentId: string,
): Promise<Recipient[]> {
  const [row] = await database
    .select({ payment: payments, email: users.email, deletedAt: users.deletedAt })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.userId))
    .where(eq(payments.id, paymentId));
  if (row?.payment.status !== 'SUCCESS') return [];
  const title = `${formatNaira(koboToNaira(row.payment.amount))} received`;
  const body = receivedTransferText(row.payment);
  return [
    {
      cursor: paymentId,
      userId: row.payment.userId,
      payload: { title, body, url: pushPaths.wallet, tag: `transfer:${paymentId}` },
      email: row.deletedAt
        ? null
        : { to: row.email, subject: title, paragraphs: [body], label: 'Open my wallet' },
    },
  ];
}

/** "₦5,000 from ADAEZE OKAFOR (Guaranty Trust Bank) has been added to your wallet." */
export function receivedTransferText(payment: {
  amount: bigint;
  senderName: string | null;
  senderBank: string | null;
}): string {
  const from = payment.senderName
    ? ` from ${payment.senderName}${payment.senderBank ? ` (${payment.senderBank})` : ''}`
    : '';
  return `${formatNaira(koboToNaira(payment.amount))}${from} has been added to your wallet.`;
}

/** The announcement's audience (announcements.ts), only those with a device subscribed. */
async function tournamentRecipients(
  database: Executor,
  event: Extract<PushEvent, { type: 'tournament' }>,
  after: string | null,
): Promise<Recipient[]> {
  const [game] = await database
    .select({ title: games.title })
    .from(games)
    .where(eq(games.id, event.gameId));
  if (!game) return [];
  const early = sql`coalesce((p.features->>'earlyTournamentInvite')::boolean, false)`;
  const result = await database.execute(sql`
    SELECT u.id FROM users u LEFT JOIN plans p ON p.id = u.plan_id
    WHERE u.deleted_at IS NULL AND ${marketingAudience(new Date())}
      AND ${event.audience === 'early' ? early : sql`NOT ${early}`}
      AND EXISTS (SELECT 1 FROM push_subscriptions s WHERE s.user_id = u.id)
      ${after ? sql`AND u.id > ${after}::uuid` : sql``}
    ORDER BY u.id LIMIT ${PUSH_PAGE_SIZE + 1}`);
  const rows = (result as unknown as { rows: Array<{ id: string }> }).rows;
  const payload: PushPayload =
    event.audience === 'early'
      ? {
          title: 'Early tournament invite',
          body: `You're among the first to know: "${game.title}" is coming to the Tournament Hub.`,
          url: pushPaths.game(event.gameId),
          tag: `tournament:${event.gameId}`,
        }
      : {
          title: 'A tournament is open',
          body: `"${game.title}" is now open in the Tournament Hub.`,
          url: pushPaths.game(event.gameId),
          tag: `tournament:${event.gameId}`,
        };
  return rows.map((row) => ({ cursor: row.id, userId: row.id, payload, email: null }));
}
