import { describe, expect, it } from 'vitest';
import { untrustedText } from './untrusted-text.ts';

describe('untrustedText', () => {
  it('keeps ordinary text as it is', () => {
    expect(untrustedText('The payment was declined', 100)).toBe('The payment was declined');
    expect(untrustedText(null, 100)).toBe('');
  });

  it('puts everything on one line and drops control and bidi characters', () => {
    expect(untrustedText('Declined\n\n\tcall\u202Eus\u0000 now\u200B', 100)).toBe(
      'Declined call us now',
    );
  });

  it('cuts long text at the limit, counting characters rather than UTF-16 units', () => {
    const cut = untrustedText('₦'.repeat(500), 120);
    expect(Array.from(cut)).toHaveLength(120);
    expect(cut.endsWith('…')).toBe(true);
    expect(untrustedText('😀'.repeat(10), 5)).toBe('😀😀😀😀…');
  });
});
