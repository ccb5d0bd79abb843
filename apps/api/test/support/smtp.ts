import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A mail as the SMTP server received it, parsed. */
export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  from: string;
}

export interface TestSmtp {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** The first mail to `to` whose subject matches, waiting for it up to `ms`. */
  waitFor(to: string, subject: RegExp, ms?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on loopback (nodemailer's smtp-server) that keeps every mail it accepts:
 * the API sends through it exactly as through any mail server, and the tests read what arrived.
 * No TLS and no authentication: it listens on 127.0.0.1 only, for the test's lifetime.
 */
export async function startTestSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail: ParsedMail) => {
          const addresses = (list: ParsedMail['to']) =>
            (Array.isArray(list) ? list : list ? [list] : []).flatMap((a) =>
              a.value.map((v) => v.address ?? ''),
            );
          received.push({
            to: addresses(mail.to),
            from: mail.from?.text ?? '',
            subject: mail.subject ?? '',
            text: mail.text ?? '',
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    async waitFor(to, subject, ms = 10_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const mail = received.find((m) => m.to.includes(to) && subject.test(m.subject));
        if (mail) return mail;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject} within ${ms} ms`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
