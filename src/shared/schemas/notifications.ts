import { z } from 'zod';
import { paginationSchema, timestampSchema } from './common.ts';

export const notificationSchema = z.object({
  id: z.string(),
  title: z.string(),
  message: z.string(),
  /** Where it leads in the web app (a game, the wallet), a path of the app; null: nowhere. */
  link: z.string().nullable(),
  hasRead: z.boolean(),
  createdAt: timestampSchema,
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationPageSchema = z.object({
  notifications: z.array(notificationSchema),
  pagination: paginationSchema,
  unreadCount: z.number().int(),
});
export type NotificationPage = z.infer<typeof notificationPageSchema>;
