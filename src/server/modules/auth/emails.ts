import type { MailMessage } from '../../providers/mail.ts';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The closing line, by what the e-mail is: a code or link the reader may not have asked for
 * (ignoring it is safe), a change to the account's security (never to be ignored: the body
 * says what to do if it was not them), or news about their games and money.
 */
export const EMAIL_FOOTERS = {
  request: 'If you did not ask for this, you can ignore this e-mail.',
  security:
    'We e-mail you about every change to the security of your account, so that you hear of it at once.',
  notice: 'You get this e-mail because it is about your Pluckers games or wallet.',
} as const;
export type EmailFooter = keyof typeof EMAIL_FOOTERS;

/** One branded frame for every e-mail: dark header, readable body, plain-text twin. */
export function branded(
  to: string,
  subject: string,
  paragraphs: string[],
  action?: { label: string; url: string },
  code?: string,
  footer: EmailFooter = 'request',
): MailMessage {
  const textParts = [...paragraphs];
  if (code) textParts.push(`Your code: ${code}`);
  if (action) textParts.push(`${action.label}: ${action.url}`);
  textParts.push('', EMAIL_FOOTERS[footer], '— The Pluckers team');

  const html = `<!doctype html><html><body style="margin:0;background:#0b0b0b;font-family:Arial,Helvetica,sans-serif;color:#ffffff">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#0b0b0b;padding:24px 0"><tr><td align="center">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;width:100%;background:#1a1a1a;border-radius:16px;border:1px solid #2e2e2e">
<tr><td style="padding:24px 28px;border-bottom:1px solid #2e2e2e;font-size:22px;font-weight:bold">Pluck<span style="color:#00dae4">ers</span></td></tr>
<tr><td style="padding:28px;font-size:16px;line-height:1.5;color:#e5e5e5">
<h1 style="margin:0 0 16px;font-size:22px;color:#ffffff">${escapeHtml(subject)}</h1>
${paragraphs.map((p) => `<p style="margin:0 0 14px">${escapeHtml(p)}</p>`).join('')}
${code ? `<p style="margin:20px 0;font-size:32px;font-weight:bold;letter-spacing:8px;color:#00dae4">${escapeHtml(code)}</p>` : ''}
${action ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#00dae4;color:#000000;text-decoration:none;font-weight:bold;padding:12px 22px;border-radius:10px">${escapeHtml(action.label)}</a></p><p style="margin:0;font-size:13px;color:#a3a3a3">Or paste this link into your browser: ${escapeHtml(action.url)}</p>` : ''}
</td></tr>
<tr><td style="padding:18px 28px;border-top:1px solid #2e2e2e;font-size:12px;color:#a3a3a3">${escapeHtml(EMAIL_FOOTERS[footer])} Pluckers players must be 18 or over.</td></tr>
</table></td></tr></table></body></html>`;
  return { to, subject, text: textParts.join('\n'), html };
}

export const CODE_TTL_MINUTES = 10;

export function verificationMail(
  to: string,
  name: string,
  link: string,
  code: string,
): MailMessage {
  return branded(
    to,
    'Verify your e-mail address',
    [
      `Hi ${name}, welcome to Pluckers!`,
      `Confirm your e-mail with the button below, or enter this code in the app (it expires in ${CODE_TTL_MINUTES} minutes).`,
    ],
    { label: 'Verify my e-mail', url: link },
    code,
  );
}

export function signupCodeMail(to: string, code: string): MailMessage {
  return branded(
    to,
    'Your Pluckers verification code',
    [
      `Enter this code on the sign-up page to verify your e-mail. It expires in ${CODE_TTL_MINUTES} minutes.`,
    ],
    undefined,
    code,
  );
}

/** Sent instead of a sign-up's mail when the address already has an account. */
export function signupAttemptMail(to: string, publicUrl: string): MailMessage {
  return branded(
    to,
    'Someone tried to sign up with your e-mail',
    [
      'Someone tried to create a new Pluckers account with this e-mail address, which already has one.',
      `If it was you, log in or reset your password: your account is waiting at ${publicUrl}/login.`,
      'If it was not you, nothing has changed and no new account was made.',
    ],
    { label: 'Reset my password', url: `${publicUrl}/ForgotPassword` },
  );
}

export function resetCodeMail(to: string, code: string): MailMessage {
  return branded(
    to,
    'Reset your Pluckers password',
    [
      `Someone (hopefully you) asked to reset your password. Enter this code to choose a new one. It expires in ${CODE_TTL_MINUTES} minutes.`,
    ],
    undefined,
    code,
  );
}

export function stepUpCodeMail(to: string, code: string): MailMessage {
  return branded(
    to,
    'Confirm a change to your Pluckers account',
    [
      `Enter this code in the app to confirm a change to your e-mail, password or withdrawal bank account. It expires in ${CODE_TTL_MINUTES} minutes.`,
      'If you did not ask for this, someone may have access to your account: log out of all devices from your profile.',
    ],
    undefined,
    code,
    'security',
  );
}

/** To the NEW address: only its owner can finish the change. */
export function emailChangeCodeMail(to: string, code: string): MailMessage {
  return branded(
    to,
    'Confirm your new Pluckers e-mail',
    [
      `Enter this code on your Pluckers profile to make ${to} your account's e-mail. It expires in ${CODE_TTL_MINUTES} minutes.`,
    ],
    undefined,
    code,
  );
}

/** To the OLD address when a change is asked for: a warning, never the code. */
export function emailChangeRequestedMail(to: string, newEmail: string): MailMessage {
  return branded(
    to,
    'Someone asked to change your Pluckers e-mail',
    [
      `A request was made to change the e-mail on your Pluckers account to ${newEmail}. Nothing changes until the code sent to that address is entered.`,
      'If this was not you, change your password and log out of all devices from your profile straight away.',
    ],
    undefined,
    undefined,
    'security',
  );
}

export function emailChangedMail(to: string, newEmail: string): MailMessage {
  return branded(
    to,
    'Your Pluckers e-mail was changed',
    [
      `The e-mail address on your Pluckers account was changed to ${newEmail}.`,
      'If this was not you, contact support straight away.',
    ],
    undefined,
    undefined,
    'security',
  );
}

export function passwordChangedMail(to: string): MailMessage {
  return branded(
    to,
    'Your Pluckers password was changed',
    [
      'Your password was changed and every other session was signed out.',
      'If this was not you, reset your password and contact support straight away.',
    ],
    undefined,
    undefined,
    'security',
  );
}

/** The account's first payout account: nothing was replaced, so nothing "changed". */
export function bankAccountAddedMail(to: string, account: string): MailMessage {
  return branded(
    to,
    'A withdrawal bank account was added',
    [
      `Withdrawals from your Pluckers wallet will go to ${account}.`,
      'If this was not you, change your password and contact support straight away.',
    ],
    undefined,
    undefined,
    'security',
  );
}

export function bankAccountChangedMail(to: string, account: string): MailMessage {
  return branded(
    to,
    'Your withdrawal bank account was changed',
    [
      `Withdrawals from your Pluckers wallet will now go to ${account}.`,
      'If this was not you, change your password and contact support straight away.',
    ],
    undefined,
    undefined,
    'security',
  );
}
