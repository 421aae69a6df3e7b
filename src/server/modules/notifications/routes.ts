import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, messageSchema, pageQuerySchema } from '../../../shared/schemas/common.ts';
import { notificationPageSchema } from '../../../shared/schemas/notifications.ts';
import { requireUser } from '../../plugins/auth.ts';
import { listNotifications, markAllAsRead } from './service.ts';

export async function notificationRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/notification',
    {
      schema: {
        tags: ['notifications'],
        summary: "The caller's notifications, newest first",
        querystring: pageQuerySchema,
        response: { 200: envelope(notificationPageSchema) },
      },
    },
    async (request) => ({
      data: await listNotifications(app.db, requireUser(request).id, request.query.page),
    }),
  );

  typed.post(
    '/notification/mark-all-as-read',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Marks every unread notification of the caller as read',
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      const marked = await markAllAsRead(app.db, requireUser(request).id);
      return {
        message: marked === 0 ? 'No unread notifications' : 'All notifications marked as read',
      };
    },
  );
}
