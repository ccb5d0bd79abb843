import type { Logger } from '@music/api-router';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;

/** One JSON object per line on stdout: easy to read by eye, easy for any log shipper. */
export function createLogger(level: LogLevel): Logger & { debug: Logger['info'] } {
  const threshold = LEVELS[level];
  const write = (lvl: Exclude<LogLevel, 'silent'>) => (message: string, fields?: Record<string, unknown>) => {
    if (LEVELS[lvl] < threshold) return;
    process.stdout.write(
      `${JSON.stringify({ time: new Date().toISOString(), level: lvl, msg: message, ...fields })}\n`,
    );
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
