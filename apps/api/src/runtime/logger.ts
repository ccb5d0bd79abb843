import type { Logger } from '@music/api-router';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;
/** `json` (the default): one object per line, for log shippers; `pretty`: for people (`pnpm dev`). */
export type LogFormat = 'json' | 'pretty';

type Level = Exclude<LogLevel, 'silent'>;
type Fields = Record<string, unknown>;

export interface AppLogger extends Logger {
  debug: Logger['info'];
  /** One answered request (the access log). */
  request(fields: { method?: string; path?: string; status: number; ms: number; requestId: string }): void;
}

/**
 * Logs to stdout. JSON: every line a JSON object, every request logged at info. Pretty: a short
 * line a person can scan (`12:03:04 GET /v1/songs 200 3.1 ms`), fields as key=value, and only
 * the requests worth a look at info (a 4xx or 5xx, or slower than a second); the others at debug,
 * so a development session is not a wall of access lines.
 */
export function createLogger(level: LogLevel, format: LogFormat = 'json'): AppLogger {
  const threshold = LEVELS[level];
  const out = format === 'pretty' ? pretty : json;
  const write = (lvl: Level) => (message: string, fields?: Fields) => {
    if (LEVELS[lvl] >= threshold) process.stdout.write(out(lvl, message, fields));
  };
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    request(fields) {
      const lvl: Level = format === 'json' || fields.status >= 400 || fields.ms >= 1000 ? 'info' : 'debug';
      if (LEVELS[lvl] < threshold) return;
      process.stdout.write(
        format === 'json'
          ? json(lvl, 'request', fields)
          : `${clock()} ${fields.method} ${fields.path} ${paint(fields.status >= 500 ? 'error' : fields.status >= 400 ? 'warn' : 'debug', String(fields.status))} ${fields.ms} ms\n`,
      );
    },
  };
}

function json(lvl: Level, message: string, fields?: Fields): string {
  return `${JSON.stringify({ time: new Date().toISOString(), level: lvl, msg: message, ...fields })}\n`;
}

function pretty(lvl: Level, message: string, fields?: Fields): string {
  const rest = Object.entries(fields ?? {})
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
  const tag = lvl === 'info' ? '' : `${paint(lvl, lvl.toUpperCase())} `;
  return `${clock()} ${tag}${message}${rest ? ` ${dim(rest)}` : ''}\n`;
}

const clock = () => new Date().toTimeString().slice(0, 8);
// Colours unless NO_COLOR is set (https://no-color.org); `pnpm dev` pipes the output, so a TTY
// check would always say no.
const COLOURS: Record<Level, string> = { debug: '32', info: '0', warn: '33', error: '31' };
const plain = 'NO_COLOR' in process.env;
const paint = (lvl: Level, text: string) => (plain ? text : `\x1b[${COLOURS[lvl]}m${text}\x1b[0m`);
const dim = (text: string) => (plain ? text : `\x1b[2m${text}\x1b[0m`);
