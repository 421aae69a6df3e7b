import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * SMTP when SMTP_URL is set; otherwise a development outbox that writes each message to the
 * log (subject, links and codes included) so a newcomer can sign up locally without a mail server.
 */
export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  log: FastifyBaseLogger;
}): Mailer {
  if (!options.smtpUrl) {
    return {
      async send(message) {
        options.log.info(
          { mail: { to: message.to, subject: message.subject } },
          `dev outbox (SMTP_URL unset): mail to ${message.to}\n${message.text}`,
        );
      },
      close() {},
    };
  }
  // Pooled: a mail reuses an open connection instead of paying a connection, the server's
  // greeting and a TLS handshake of its own (nodemailer re-sends a message whose connection
  // closed under it). `?pool=false` in SMTP_URL opts out.
  const transport = nodemailer.createTransport({ pool: true, url: options.smtpUrl });
  return {
    async send(message) {
      await transport.sendMail({ from: options.from, ...message });
    },
    close: () => transport.close(),
  };
}
