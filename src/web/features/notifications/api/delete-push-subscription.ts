import { http } from '@web/lib/http.ts';

/** DELETE /notification/push/subscription: this browser stops getting pushes. */
export const deletePushSubscription = (endpoint: string) =>
  http.delete<{ message: string }>('/notification/push/subscription', { endpoint });
