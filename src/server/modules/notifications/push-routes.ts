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
import { pushEndpoints, RefusedPushEndpoint } from './push-endpoint.ts';

export async function pushRoutes(app: FastifyInstance, { config }: { config: AppConfig }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const endpoints = pushEndpoints({
    serviceHosts: config.push.serviceHosts,
    allowLocal: config.push.allowLocalEndpoints,
  });

  /** The server posts to this endpoint on every event: only a known push service, outside. */
  async function checkEndpoint(endpoint: string) {
    try {
      await endpoints.vet(endpoint);
    } catch (error) {
      if (error instanceof RefusedPushEndpoint) throw badRequest(PUSH_MESSAGES.badEndpoint);
      throw error;
    }
  }

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
          'The body is `PushSubscription.toJSON()`. The endpoint identifies the browser: subscribing again replaces its keys, and a browser that signs in to another account moves to it. The endpoint must be https on a known push service (PUSH_SERVICE_HOSTS) resolving to a public address, else 400. A player keeps at most 10 subscriptions: the oldest goes.',
        body: pushSubscriptionSchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      await checkEndpoint(request.body.endpoint);
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
