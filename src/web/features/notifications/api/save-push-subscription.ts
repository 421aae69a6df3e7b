import type { PushSubscriptionInput } from '@shared/schemas/push.ts';
import { http } from '@web/lib/http.ts';

/** POST /notification/push/subscription: this browser's subscription, as PushManager gave it. */
export const savePushSubscription = (subscription: PushSubscriptionInput) =>
  http.post<{ message: string }>('/notification/push/subscription', subscription);
