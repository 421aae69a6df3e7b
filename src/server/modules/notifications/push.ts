import { and, eq, inArray, sql } from 'drizzle-orm';
import webpush from 'web-push';
import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  type NotificationPreferences,
  type PushPayload,
  type PushSubscriptionInput,
} from '../../../shared/schemas/push.ts';
import type { Database, Executor } from '../../db/client.ts';
import { notificationPreferences, pushSubscriptions, users } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { type PushEndpoints, RefusedPushEndpoint } from './push-endpoint.ts';

export type Vapid = { publicKey: string; privateKey: string; subject: string };
export type SubscriptionRow = typeof pushSubscriptions.$inferSelect;

/**
 * Devices one player may have subscribed. Every event posts once per subscription, so without a
 * bound one account could make the server post to its push service as often as it liked.
 */
export const MAX_SUBSCRIPTIONS_PER_PLAYER = 10;

/**
 * Saves a browser's subscription for the player. The endpoint is the browser's identity: the
 * same browser subscribing again (new keys, or another account signed in on it) takes the row
 * over, so one device never gets another account's pushes, and counts as the newest. Beyond
 * MAX_SUBSCRIPTIONS_PER_PLAYER the oldest go.
 */
export async function saveSubscription(
  db: Database,
  userId: string,
  input: PushSubscriptionInput,
  userAgent: string | undefined,
): Promise<void> {
  const values = {
    userId,
    endpoint: input.endpoint,
    p256dh: input.keys.p256dh,
    auth: input.keys.auth,
    userAgent: userAgent?.slice(0, 300) ?? null,
  };
  await inTransaction(db, async (tx) => {
    // One player's subscribes one at a time, so two at once cannot both keep an eleventh.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    await tx
      .insert(pushSubscriptions)
      .values(values)
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: {
          userId,
          p256dh: values.p256dh,
          auth: values.auth,
          userAgent: values.userAgent,
          createdAt: sql`now()`,
        },
      });
    await trimSubscriptions(tx, [userId]);
  });
}

/** Removes each player's subscriptions beyond the newest MAX_SUBSCRIPTIONS_PER_PLAYER. */
export async function trimSubscriptions(db: Executor, userIds: string[]): Promise<void> {
  if (userIds.length === 0) return;
  await db.execute(sql`
    DELETE FROM push_subscriptions WHERE id IN (
      SELECT id FROM (
        SELECT id, row_number() OVER (
          PARTITION BY user_id ORDER BY created_at DESC, id DESC
        ) AS newness
        FROM push_subscriptions
        WHERE user_id IN (${sql.join(
          userIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})
      ) ranked WHERE newness > ${MAX_SUBSCRIPTIONS_PER_PLAYER}
    )`);
}

/** Only the caller's own subscription goes: an endpoint is not proof of owning it. */
export async function removeSubscription(
  db: Executor,
  userId: string,
  endpoint: string,
): Promise<boolean> {
  const removed = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  return removed.length > 0;
}

export async function preferencesOf(
  db: Executor,
  userId: string,
): Promise<NotificationPreferences> {
  const [row] = await db
    .select()
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId));
  if (!row) return { ...DEFAULT_NOTIFICATION_PREFERENCES };
  const { results, withdrawals, tournaments, planRenewal, emails } = row;
  return { results, withdrawals, tournaments, planRenewal, emails };
}

export async function savePreferences(
  db: Executor,
  userId: string,
  preferences: NotificationPreferences,
): Promise<NotificationPreferences> {
  await db
    .insert(notificationPreferences)
    .values({ userId, ...preferences })
    .onConflictDoUpdate({
      target: notificationPreferences.userId,
      set: { ...preferences, updatedAt: new Date() },
    });
  return preferences;
}

/** The players' preferences, defaults for those who never changed them. */
export async function preferencesByUser(
  db: Executor,
  userIds: string[],
): Promise<Map<string, NotificationPreferences>> {
  const rows =
    userIds.length === 0
      ? []
      : await db
          .select()
          .from(notificationPreferences)
          .where(inArray(notificationPreferences.userId, userIds));
  const byUser = new Map<string, NotificationPreferences>();
  for (const id of userIds) byUser.set(id, { ...DEFAULT_NOTIFICATION_PREFERENCES });
  for (const { userId, results, withdrawals, tournaments, planRenewal, emails } of rows)
    byUser.set(userId, { results, withdrawals, tournaments, planRenewal, emails });
  return byUser;
}

export type SendOutcome =
  | { ok: true }
  /**
   * gone: the subscription is of no further use and is removed: the push service says it no
   * longer exists (404, 410), its keys cannot encrypt, or its endpoint is refused (not a known
   * push service, or resolving inside). Other refusals (400, 401, 403, 413, a redirect) are
   * about this request, ours to fix: not retried, but the subscription stays, so a wrong VAPID
   * key or clock does not cost every player every device.
   */
  | { ok: false; gone: boolean; retry: boolean; error: string };

/** A day: a result the phone only sees after that is old news. */
const PUSH_TTL_SECONDS = 24 * 60 * 60;
const PUSH_TIMEOUT_MS = 10_000;

/** A VAPID token's lifetime, as web-push gives it (the spec allows at most a day). */
const VAPID_TOKEN_SECONDS = 12 * 60 * 60;
/** A token is sent for this long after it was signed, so every token sent has 11 hours left. */
const VAPID_REUSE_MS = 60 * 60 * 1000;
/** Tokens in the cache at most: push services times VAPID key pairs, a handful in practice. */
const VAPID_CACHE_LIMIT = 100;

/**
 * Signed tokens by push service origin and key pair. A token names only the push service
 * (its audience), our subject and an expiry, never the subscription, so one token serves every
 * push to that service: a page of 500 pushes signs once instead of 500 times, which was most
 * of the CPU of sending.
 */
const vapidTokens = new Map<string, { authorization: string; signedAt: number }>();

/** The Authorization header for a push to `endpoint`: a token signed within the hour. */
function vapidAuthorization(endpoint: string, vapid: Vapid): string {
  const { protocol, host } = new URL(endpoint);
  const audience = `${protocol}//${host}`;
  const key = [audience, vapid.subject, vapid.publicKey, vapid.privateKey].join('\n');
  const now = Date.now();
  const cached = vapidTokens.get(key);
  if (cached && now - cached.signedAt < VAPID_REUSE_MS) return cached.authorization;
  const { Authorization } = webpush.getVapidHeaders(
    audience,
    vapid.subject,
    vapid.publicKey,
    vapid.privateKey,
    'aes128gcm',
    Math.floor(now / 1000) + VAPID_TOKEN_SECONDS,
  );
  for (const [name, token] of vapidTokens)
    if (now - token.signedAt >= VAPID_REUSE_MS) vapidTokens.delete(name);
  if (vapidTokens.size >= VAPID_CACHE_LIMIT) vapidTokens.clear();
  vapidTokens.set(key, { authorization: Authorization, signedAt: now });
  return Authorization;
}

/**
 * Encrypts the payload for the subscription (aes128gcm, RFC 8291), signs a VAPID JWT and posts
 * it to the push service. web-push builds the request; `endpoints` sends it, checking the
 * endpoint again and pinning the connection to the address it checked.
 */
export async function sendPush(
  subscription: Pick<SubscriptionRow, 'endpoint' | 'p256dh' | 'auth'>,
  payload: PushPayload,
  vapid: Vapid,
  endpoints: PushEndpoints,
): Promise<SendOutcome> {
  let request: ReturnType<typeof webpush.generateRequestDetails>;
  try {
    request = webpush.generateRequestDetails(
      {
        endpoint: subscription.endpoint,
        keys: { p256dh: subscription.p256dh, auth: subscription.auth },
      },
      JSON.stringify(payload),
      {
        // The token web-push would sign for this push, signed once per push service instead.
        headers: { Authorization: vapidAuthorization(subscription.endpoint, vapid) },
        TTL: PUSH_TTL_SECONDS,
        urgency: 'high',
        contentEncoding: 'aes128gcm',
      },
    );
  } catch (error) {
    // Keys the browser gave that cannot encrypt anything: the subscription is useless.
    return { ok: false, gone: true, retry: false, error: (error as Error).message };
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers))
    if (name.toLowerCase() !== 'content-length') headers[name] = String(value);
  try {
    const status = await endpoints.post(
      request.endpoint,
      { method: request.method, headers, body: request.body ?? null },
      PUSH_TIMEOUT_MS,
    );
    if (status >= 200 && status < 300) return { ok: true };
    return {
      ok: false,
      gone: status === 404 || status === 410,
      retry: status === 429 || status >= 500,
      error: `push service answered ${status}`,
    };
  } catch (error) {
    const refused = error instanceof RefusedPushEndpoint;
    return { ok: false, gone: refused, retry: !refused, error: (error as Error).message };
  }
}
