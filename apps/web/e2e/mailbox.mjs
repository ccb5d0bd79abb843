// The browser tests' mail: a real SMTP server on loopback (nodemailer's smtp-server, as the API's
// own tests use) that the e2e API sends through exactly as through any mail server, and a small
// HTTP endpoint where the specs read what arrived: GET /mails?to=<email> answers the mails to
// that address as JSON, oldest first. Loopback only, no TLS, no authentication: it lives as long
// as the test run's API.
import { createServer } from 'node:http';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** The mailbox: `smtpUrl` for the API's SMTP_URL, the mails served on `httpPort`. */
export async function startMailbox(httpPort) {
  const received = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const list = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
          received.push({
            to: list.flatMap((address) => address.value.map((v) => (v.address ?? '').toLowerCase())),
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            receivedAt: new Date().toISOString(),
          });
          callback();
        })
        .catch((error) => callback(error));
    },
  });
  await new Promise((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port: smtpPort } = smtp.server.address();

  const http = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== '/mails') {
      res.writeHead(404).end();
      return;
    }
    const to = url.searchParams.get('to')?.toLowerCase();
    const mails = to ? received.filter((mail) => mail.to.includes(to)) : received;
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(mails));
  });
  await new Promise((resolve, reject) => {
    http.once('error', reject);
    http.listen(httpPort, '127.0.0.1', resolve);
  });

  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    close: () =>
      Promise.all([
        new Promise((resolve) => smtp.close(resolve)),
        new Promise((resolve) => http.close(resolve)),
      ]),
  };
}
