import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '../test/smtp.ts';
import { createMailer, type Mailer } from './mail.ts';

let smtp: TestSmtpServer;
let mailer: Mailer | undefined;
beforeEach(async () => {
  smtp = await startSmtpServer();
});
afterEach(async () => {
  mailer?.close();
  mailer = undefined;
  await smtp.close();
});

const openMailer = (smtpUrl: string) => {
  mailer = createMailer({
    smtpUrl,
    from: 'Pluckers <no-reply@pluckers.test>',
    log: pino({ enabled: false }),
  });
  return mailer;
};
const message = (to: string) => ({
  to,
  subject: `for ${to}`,
  text: 'Your code is 123456',
  html: '<p>Your code is 123456</p>',
});

describe('mail over SMTP', () => {
  it('sends one mail after another over the connection it already has', async () => {
    const mail = openMailer(smtp.url);
    for (const to of ['a@example.test', 'b@example.test', 'c@example.test']) {
      await mail.send(message(to));
    }
    expect(smtp.messages.map((received) => received.subject)).toEqual([
      'for a@example.test',
      'for b@example.test',
      'for c@example.test',
    ]);
    expect(smtp.connections()).toBe(1);
  });

  it('opens a new connection when the server has hung up on the last one', async () => {
    const mail = openMailer(smtp.url);
    await mail.send(message('first@example.test'));
    smtp.dropConnections();
    await mail.send(message('second@example.test'));
    expect((await smtp.waitForMail('second@example.test')).code).toBe('123456');
    expect(smtp.connections()).toBe(2);
  });

  it('fails the next mail, rather than waiting, once the server has gone away', async () => {
    const mail = openMailer(smtp.url);
    await mail.send(message('first@example.test'));
    await smtp.close();
    await expect(mail.send(message('second@example.test'))).rejects.toThrow(/ECONNREFUSED/);
  });

  it('opens a connection per mail when SMTP_URL says pool=false', async () => {
    const mail = openMailer(`${smtp.url}?pool=false`);
    await mail.send(message('a@example.test'));
    await mail.send(message('b@example.test'));
    expect(smtp.messages).toHaveLength(2);
    expect(smtp.connections()).toBe(2);
  });
});
