import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  generateTotpSecret,
  hotp,
  matchTotp,
  openSecret,
  otpauthUri,
  sealSecret,
  totpCode,
  totpStep,
} from './totp.ts';

// RFC 6238 appendix B's SHA-1 key: the ASCII digits 1234567890 twice.
const RFC_KEY = Buffer.from('12345678901234567890', 'ascii');
const RFC_SECRET = base32Encode(RFC_KEY);

describe('TOTP (RFC 6238)', () => {
  it("matches the RFC's SHA-1 test vectors (last 6 of the 8 digits)", () => {
    const vectors: Array<[seconds: number, code8: string]> = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [seconds, code8] of vectors) {
      expect(hotp(RFC_KEY, totpStep(seconds * 1000), 8)).toBe(code8);
      expect(totpCode(RFC_SECRET, seconds * 1000)).toBe(code8.slice(2));
    }
  });

  it('matches RFC 4226 HOTP vectors', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314'];
    expected.forEach((code, counter) => {
      expect(hotp(RFC_KEY, counter)).toBe(code);
    });
  });

  it('base32 round-trips and reads what people type', () => {
    const secret = generateTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Encode(base32Decode(secret))).toBe(secret);
    expect(base32Decode(secret.toLowerCase().replace(/(.{4})/g, '$1 '))).toEqual(
      base32Decode(secret),
    );
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
  });

  it('accepts the steps either side of now, once each, and nothing older or further', () => {
    const secret = generateTotpSecret();
    const now = 1_800_000_000_000;
    const step = totpStep(now);
    expect(matchTotp(secret, totpCode(secret, now), now, null)).toBe(step);
    expect(matchTotp(secret, totpCode(secret, now - 30_000), now, null)).toBe(step - 1);
    expect(matchTotp(secret, totpCode(secret, now + 30_000), now, null)).toBe(step + 1);
    expect(matchTotp(secret, totpCode(secret, now - 60_000), now, null)).toBeNull();
    expect(matchTotp(secret, totpCode(secret, now + 60_000), now, null)).toBeNull();
    // Replays: the step already used, or one before it.
    expect(matchTotp(secret, totpCode(secret, now), now, step)).toBeNull();
    expect(matchTotp(secret, totpCode(secret, now - 30_000), now, step)).toBeNull();
    expect(matchTotp(secret, totpCode(secret, now + 30_000), now, step)).toBe(step + 1);
    expect(matchTotp(secret, 'abcdef', now, null)).toBeNull();
  });

  it('seals a secret so only the server secret opens it', () => {
    const server = new TextEncoder().encode('a-server-secret-long-enough-for-this');
    const secret = generateTotpSecret();
    const sealed = sealSecret(server, secret);
    expect(sealed).not.toContain(secret);
    expect(openSecret(server, sealed)).toBe(secret);
    expect(() => openSecret(new TextEncoder().encode('another-server-secret'), sealed)).toThrow();
  });

  it('writes the otpauth URI authenticator apps read', () => {
    const text = otpauthUri({
      issuer: 'Pluckers',
      account: 'ops@pluckers.test',
      secret: 'JBSWY3DPEHPK3PXP',
    });
    expect(text.startsWith('otpauth://totp/Pluckers:ops%40pluckers.test?')).toBe(true);
    expect(Object.fromEntries(new URL(text).searchParams)).toEqual({
      secret: 'JBSWY3DPEHPK3PXP',
      issuer: 'Pluckers',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });
});
