import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, messageSchema } from '../../../shared/schemas/common.ts';
import {
  notificationPreferencesSchema,
  PUSH_MESSAGES,
  pushSubscriptionSchema,
  unsubscribeSchema,
  vapidKeySchema,
} from '../../../shared/schemas/push.ts';
import type { AppConfig } from '../../config.ts';
import { badRequest } from '../../errors.ts';
import { requireUser } from '../../plugins/auth.ts';
import { preferencesOf, removeSubscription, savePreferences, saveSubscription } from './push.ts';

/**
 * Push services are https; the server posts to whatever endpoint a browser hands it, so an
 * http one (a way to make the server call inside its own network) is refused outside tests
 * and development, where the local push-service stand-in listens on http.
 */
function checkEndpoint(endpoint: string, config: AppConfig) {
  const { protocol } = new URL(endpoint);
  if (protocol === 'https:') return;
  if (protocol === 'http:' && config.nodeEnv !== 'production') return;
  throw badRequest(PUSH_MESSAGES.badEndpoint);
}

export async function pushRoutes(app: FastifyInstance, { config }: { config: AppConfig }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  // Public in itself, but only a signed-in player has anything to subscribe.
  typed.get(
    '/notification/push/key',
    {
      schema: {
        tags: ['notifications'],
        summary: "The server's VAPID public key, for PushManager.subscribe",
        response: { 200: envelope(vapidKeySchema) },
      },
    },
    async () => ({ data: { publicKey: app.secrets.vapid.publicKey } }),
  );

  typed.post(
    '/notification/push/subscription',
    {
      schema: {
        tags: ['notifications'],
        summary: "Saves this browser's push subscription for the caller",
        description:
          'The body is `PushSubscription.toJSON()`. The endpoint identifies the browser: subscribing again replaces its keys, and a browser that signs in to another account moves to it.',
        body: pushSubscriptionSchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      checkEndpoint(request.body.endpoint, config);
      await saveSubscription(
        app.db,
        requireUser(request).id,
        request.body,
        request.headers['user-agent'],
      );
      return { message: PUSH_MESSAGES.subscribed };
    },
  );

  typed.delete(
    '/notification/push/subscription',
    {
      schema: {
        tags: ['notifications'],
        summary: "Removes the caller's push subscription of this browser",
        description: 'Answers the same whether or not it was saved, so it can always be called.',
        body: unsubscribeSchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      await removeSubscription(app.db, requireUser(request).id, request.body.endpoint);
      return { message: PUSH_MESSAGES.unsubscribed };
    },
  );

  typed.get(
    '/notification/preferences',
    {
      schema: {
        tags: ['notifications'],
        summary:
          'What the caller is told about, by kind, and whether wins and payouts are e-mailed',
        response: { 200: envelope(notificationPreferencesSchema) },
      },
    },
    async (request) => ({ data: await preferencesOf(app.db, requireUser(request).id) }),
  );

  typed.put(
    '/notification/preferences',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Sets every switch at once',
        body: notificationPreferencesSchema,
        response: { 200: envelope(notificationPreferencesSchema) },
      },
    },
    async (request) => ({
      message: PUSH_MESSAGES.saved,
      data: await savePreferences(app.db, requireUser(request).id, request.body),
    }),
  );
}
