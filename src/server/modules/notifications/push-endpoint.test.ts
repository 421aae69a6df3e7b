import { describe, expect, it } from 'vitest';
import { DEFAULT_PUSH_SERVICE_HOSTS } from '../../config.ts';
import {
  checkEndpointUrl,
  matchesServiceHost,
  pushEndpoints,
  RefusedPushEndpoint,
  type Resolve,
} from './push-endpoint.ts';

const rules = { serviceHosts: DEFAULT_PUSH_SERVICE_HOSTS, allowLocal: false };

describe('push endpoints by default', () => {
  it("accepts the endpoints browsers' push services hand out", () => {
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/dQw4w9WgXcQ:APA91bH',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk',
      'https://web.push.apple.com/QGx0ZXN0',
      'https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB',
      'https://FCM.googleapis.com./fcm/send/abc',
    ])
      expect(checkEndpointUrl(endpoint, rules).protocol, endpoint).toBe('https:');
  });

  it('a wildcard covers names under it, not the name itself nor look-alikes', () => {
    expect(matchesServiceHost('a.b.push.apple.com', ['*.push.apple.com'])).toBe(true);
    for (const host of ['push.apple.com', 'evilpush.apple.com', 'push.apple.com.evil.test'])
      expect(matchesServiceHost(host, ['*.push.apple.com']), host).toBe(false);
    for (const endpoint of [
      'https://push.services.mozilla.com/x',
      'https://googleapis.com/fcm/send/x',
      'https://android.googleapis.com/gcm/send/x',
    ])
      expect(() => checkEndpointUrl(endpoint, rules), endpoint).toThrow(RefusedPushEndpoint);
  });

  it('at subscribe time, a listed name is judged by what it resolves to now', async () => {
    const answers: Record<string, string[]> = {
      'fcm.googleapis.com': ['142.250.180.10', '2a00:1450:4009:81f::200a'],
      'updates.push.services.mozilla.com': ['34.117.65.55', '10.1.2.3'],
      'web.push.apple.com': ['::ffff:169.254.169.254'],
    };
    const resolve: Resolve = async (host) =>
      (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    const endpoints = pushEndpoints(rules, resolve);
    await expect(endpoints.vet('https://fcm.googleapis.com/fcm/send/abc')).resolves.toBeUndefined();
    await expect(
      endpoints.vet('https://updates.push.services.mozilla.com/wpush/v2/abc'),
    ).rejects.toThrow(/10\.1\.2\.3/);
    await expect(endpoints.vet('https://web.push.apple.com/abc')).rejects.toThrow(
      RefusedPushEndpoint,
    );
    // No answer at all (DNS down): let through, the send checks again.
    await expect(endpoints.vet('https://a.notify.windows.com/w/?token=x')).resolves.toBeUndefined();
  });
});
