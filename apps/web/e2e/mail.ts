import { expect } from '@playwright/test';
import { MAIL_PORT } from '../playwright.config';

/** A mail the e2e API sent, as the test mailbox received it (e2e/mailbox.mjs). */
export interface Mail {
  to: string[];
  subject: string;
  text: string;
  receivedAt: string;
}

const MAILBOX = `http://127.0.0.1:${MAIL_PORT}`;

/** The mails to `email` so far, oldest first. */
export async function mailsTo(email: string): Promise<Mail[]> {
  const res = await fetch(`${MAILBOX}/mails?to=${encodeURIComponent(email)}`);
  if (!res.ok) throw new Error(`mailbox: ${res.status}`);
  return (await res.json()) as Mail[];
}

/**
 * The `count`-th mail to `email` whose subject matches (1: the first), waited for: the API sends
 * its mail in the background, after it has answered.
 */
export async function waitForMail(email: string, subject: RegExp, count = 1): Promise<Mail> {
  let found: Mail[] = [];
  await expect
    .poll(
      async () => {
        found = (await mailsTo(email)).filter((mail) => subject.test(mail.subject));
        return found.length;
      },
      { message: `mail ${count} to ${email} matching ${subject}`, timeout: 15_000 },
    )
    .toBeGreaterThanOrEqual(count);
  return found[count - 1]!;
}

/** The reset link a mail carries (the console's /reset-password, the token in the fragment). */
export function resetLinkIn(mail: Mail): string {
  const link = /https?:\/\/\S+\/reset-password#token=[\w-]+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no reset link in the mail “${mail.subject}”:\n${mail.text}`);
  return link;
}
