import { z } from 'zod';

export const PUSH_MESSAGES = {
  badEndpoint:
    "This browser's push address is not a known push service; notifications cannot be sent to it.",
  badKeys: "This browser's push keys are not valid; turn notifications off and on again.",
  subscribed: 'Notifications are on for this device',
  unsubscribed: 'Notifications are off for this device',
  saved: 'Notification settings saved',
} as const;

const base64url = (length: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+=*$/, PUSH_MESSAGES.badKeys)
    .min(length, PUSH_MESSAGES.badKeys)
    .max(200, PUSH_MESSAGES.badKeys);

/** What PushSubscription.toJSON() gives: the push service's address and the browser's keys. */
export const pushSubscriptionSchema = z.object({
  endpoint: z.url({ error: PUSH_MESSAGES.badEndpoint }).max(1000, PUSH_MESSAGES.badEndpoint),
  /** Browsers add it; the server does not use it (pushes carry their own time to live). */
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    /** The browser's P-256 public key (65 bytes uncompressed → 87 characters). */
    p256dh: base64url(80),
    /** The 16-byte auth secret (22 characters). */
    auth: base64url(16),
  }),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionSchema>;

export const unsubscribeSchema = z.object({
  endpoint: z.url({ error: PUSH_MESSAGES.badEndpoint }).max(1000, PUSH_MESSAGES.badEndpoint),
});

export const vapidKeySchema = z.object({
  /** The server's VAPID public key, base64url: PushManager.subscribe's applicationServerKey. */
  publicKey: z.string(),
});

/** The kinds a player can switch, and the e-mails for wins and paid withdrawals. */
export const notificationPreferencesSchema = z.object({
  results: z.boolean(),
  withdrawals: z.boolean(),
  tournaments: z.boolean(),
  planRenewal: z.boolean(),
  emails: z.boolean(),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = {
  results: true,
  withdrawals: true,
  tournaments: true,
  planRenewal: true,
  emails: true,
};

/** The switches' labels, in the order the settings show them. */
export const PREFERENCE_LABELS: Record<keyof NotificationPreferences, string> = {
  results: 'Results of my games',
  withdrawals: 'Withdrawals paid',
  tournaments: 'New tournaments',
  planRenewal: 'Plan renewal',
  emails: 'E-mail me too when I win or a withdrawal is paid',
};

/** What a push carries; the service worker shows title and body and opens `url` on a tap. */
export const pushPayloadSchema = z.object({
  title: z.string(),
  body: z.string(),
  /** A path of the web app: the game with the player's answer, the wallet. */
  url: z.string().startsWith('/'),
  /** Same tag, same notification on the device: a newer one replaces it. */
  tag: z.string(),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;

/** Where pushes lead (the same screens as the in-app notifications). */
export const pushPaths = {
  game: (gameId: string) => `/GameDetails?id=${encodeURIComponent(gameId)}`,
  wallet: '/wallet',
  pricing: '/Pricing',
} as const;
