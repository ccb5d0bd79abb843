import type { Mail, Mailer } from '@music/api-router';
import { createTransport } from 'nodemailer';
import type { AppLogger } from './logger';

/** The API's mailer: `post` returns at once; `close` waits (a little) for mails on their way. */
export interface AppMailer extends Mailer {
  close(): Promise<void>;
}

/** How long a shutdown waits for mails still being handed to the SMTP server. */
const CLOSE_WAIT_MS = 5_000;

/**
 * Where mail goes: to the SMTP server at SMTP_URL (nodemailer: `smtp://` or `smtps://`, with
 * credentials in the URL when it needs them); without one, in development, into the log, whole,
 * so a newcomer running `pnpm dev` can follow a reset link from the terminal; in production,
 * nowhere (a reset link in a log would hand the account to whoever reads the log).
 */
export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  development: boolean;
  log: AppLogger;
}): AppMailer {
  const { smtpUrl, from, development, log } = options;
  if (!smtpUrl) {
    return {
      post(mail: Mail) {
        if (development) {
          log.info('mail not sent (SMTP_URL is not set); here it is', {
            to: mail.to,
            subject: mail.subject,
            text: `\n${mail.text}\n`,
          });
        } else log.debug('mail dropped (SMTP_URL is not set)', { subject: mail.subject });
      },
      close: async () => {},
    };
  }
  const transport = createTransport(smtpUrl, { from });
  const pending = new Set<Promise<void>>();
  return {
    post(mail: Mail) {
      const sending = transport
        .sendMail({ to: mail.to, subject: mail.subject, text: mail.text })
        .then(
          () => log.info('mail sent', { subject: mail.subject }),
          // The address is not logged: the log says that a mail failed, not to whom.
          (error: unknown) =>
            log.warn('mail not sent', {
              subject: mail.subject,
              error: error instanceof Error ? error.message : String(error),
            }),
        )
        .finally(() => pending.delete(sending));
      pending.add(sending);
    },
    async close() {
      const timeout = new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref());
      await Promise.race([Promise.allSettled([...pending]), timeout]);
      transport.close();
    },
  };
}
