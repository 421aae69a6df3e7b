import { describe, expect, it } from 'vitest';
import type { MailMessage } from '../../providers/mail.ts';
import {
  bankAccountAddedMail,
  bankAccountChangedMail,
  branded,
  EMAIL_FOOTERS,
  type EmailFooter,
  emailChangeCodeMail,
  emailChangedMail,
  emailChangeRequestedMail,
  passwordChangedMail,
  resetCodeMail,
  signupAttemptMail,
  signupCodeMail,
  stepUpCodeMail,
  verificationMail,
} from './emails.ts';

const TO = 'ada@example.com';

/** Every e-mail the server sends through the branded frame, with the footer it must end on. */
const TEMPLATES: Array<[string, MailMessage, EmailFooter]> = [
  ['verification', verificationMail(TO, 'Ada', 'https://pluckers.test/v/abc', '123456'), 'request'],
  ['sign-up code', signupCodeMail(TO, '123456'), 'request'],
  ['sign-up attempt on a taken address', signupAttemptMail(TO, 'https://pluckers.test'), 'request'],
  ['password reset code', resetCodeMail(TO, '123456'), 'request'],
  ['code for the new e-mail', emailChangeCodeMail(TO, '123456'), 'request'],
  ['step-up code', stepUpCodeMail(TO, '123456'), 'security'],
  ['e-mail change asked for', emailChangeRequestedMail(TO, 'new@example.com'), 'security'],
  ['e-mail changed', emailChangedMail(TO, 'new@example.com'), 'security'],
  ['password changed', passwordChangedMail(TO), 'security'],
  ['bank account added', bankAccountAddedMail(TO, 'ADA LOVELACE, GTBank 0123456789'), 'security'],
  [
    'bank account changed',
    bankAccountChangedMail(TO, 'ADA LOVELACE, GTBank 0123456789'),
    'security',
  ],
  // The notification fan-out's e-mails ("You won", a paid withdrawal) use the notice footer.
  [
    'notification',
    branded(
      TO,
      'You won on Pluckers!',
      ['You won ₦500.'],
      { label: 'See the game', url: 'https://pluckers.test/g' },
      undefined,
      'notice',
    ),
    'notice',
  ],
];

describe('bank account e-mails', () => {
  it('the first account reads added, a later one changed', () => {
    const added = bankAccountAddedMail(TO, 'ADA LOVELACE, GTBank 0123456789');
    expect(added.subject).toBe('A withdrawal bank account was added');
    expect(added.text).toContain(
      'Withdrawals from your Pluckers wallet will go to ADA LOVELACE, GTBank 0123456789.',
    );
    expect(added.text).not.toMatch(/changed/);
    expect(added.html).toContain('>A withdrawal bank account was added</h1>');
    const changed = bankAccountChangedMail(TO, 'ADA LOVELACE, GTBank 0123456789');
    expect(changed.subject).toBe('Your withdrawal bank account was changed');
    expect(changed.text).toContain('will now go to ADA LOVELACE, GTBank 0123456789.');
  });
});

describe('e-mail footers', () => {
  it.each(TEMPLATES)('the %s e-mail ends with the footer that fits it', (_name, mail, footer) => {
    const text = mail.text.split('\n');
    expect(text.at(-2)).toBe(EMAIL_FOOTERS[footer]);
    expect(mail.html).toContain(
      `>${EMAIL_FOOTERS[footer].replaceAll("'", '&#39;')} Pluckers players`,
    );
    for (const other of Object.keys(EMAIL_FOOTERS) as EmailFooter[]) {
      if (other !== footer) expect(mail.text).not.toContain(EMAIL_FOOTERS[other]);
    }
  });

  it('never tells the reader to ignore an e-mail about a change to their account', () => {
    for (const [, mail, footer] of TEMPLATES) {
      if (footer !== 'request') expect(mail.text).not.toMatch(/ignore this e-mail/);
    }
  });
});
