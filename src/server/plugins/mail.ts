import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config.ts';
import { createMailer, type Mailer, type MailMessage } from '../providers/mail.ts';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
    /** Sends without failing the request: the player can always ask for the mail again. */
    sendMailSafely: (message: MailMessage) => Promise<boolean>;
  }
}

export default fp<{ config: AppConfig }>(
  async function mailPlugin(app: FastifyInstance, { config }) {
    const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, log: app.log });
    app.decorate('mailer', mailer);
    app.decorate('sendMailSafely', async (message: MailMessage) => {
      try {
        await mailer.send(message);
        return true;
      } catch (error) {
        app.log.error({ err: error, subject: message.subject }, 'sending mail failed');
        return false;
      }
    });
    app.addHook('onClose', async () => mailer.close());
  },
  { name: 'mail' },
);
