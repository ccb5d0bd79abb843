// Starts the built API for the browser tests on a fresh embedded database in a temporary
// folder, and removes that folder when the API exits (Playwright stops it with SIGTERM). The
// API's mail goes to a real SMTP server in this process (mailbox.mjs), which the specs read on
// E2E_MAIL_PORT: the reset links they follow are the ones the API really sent.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMailbox } from './mailbox.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const server = path.resolve(here, '../../api/dist/server.mjs');
const dataDir = mkdtempSync(path.join(tmpdir(), 'music-e2e-'));
const mailbox = await startMailbox(Number(process.env.E2E_MAIL_PORT ?? 4311));

// No shutdown delay: no balancer watches this instance's readiness.
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  SHUTDOWN_DELAY_SECONDS: '0',
  SMTP_URL: mailbox.smtpUrl,
  // webhooks.spec.ts sends to a receiver of its own on http://127.0.0.1: allow plain http and loopback.
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE: 'true',
};
delete env.DATABASE_URL; // always the embedded database: the suite needs no server
const child = spawn(process.execPath, [server], { stdio: 'inherit', env });
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => {
  rmSync(dataDir, { recursive: true, force: true });
  void mailbox.close().finally(() => process.exit(code ?? 0));
});
