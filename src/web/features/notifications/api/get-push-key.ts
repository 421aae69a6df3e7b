import { http } from '@web/lib/http.ts';

/** GET /notification/push/key: the server's VAPID public key, asked for only when subscribing. */
export const getPushKey = () =>
  http
    .get<{ data: { publicKey: string } }>('/notification/push/key')
    .then((body) => body.data.publicKey);
