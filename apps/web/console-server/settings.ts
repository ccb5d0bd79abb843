import { parseTrustProxy, type TrustProxy } from '@music/auth/trust-proxy';

/** What the console's server reads from its environment, once, at start-up. */
export interface ConsoleSettings {
  /**
   * `--dev`: the development server (what `next dev` runs); else the built console, whatever
   * NODE_ENV says, as with `next start`.
   */
  dev: boolean;
  hostname: string;
  port: number;
  /**
   * Whose X-Forwarded-For (and -Host, -Proto, -Port) this console believes. Its own setting, not
   * the API's: the API trusts the console, and the console trusts only the proxies in front of it.
   */
  trustProxy: TrustProxy;
}

/** Reads and checks the settings; throws a one-line error naming the one it cannot use. */
export function readSettings(
  env: Record<string, string | undefined>,
  args: readonly string[],
): ConsoleSettings {
  const unknown = args.find((arg) => arg !== '--dev');
  if (unknown !== undefined) throw new Error(`Unknown argument "${unknown}" (the one option is --dev)`);
  const portText = env.WEB_PORT?.trim() || '3000';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 1 || port > 65535) {
    throw new Error(`Invalid configuration: WEB_PORT "${portText}" is not a port number (1 to 65535)`);
  }
  return {
    dev: args.includes('--dev'),
    hostname: env.WEB_HOST?.trim() || '127.0.0.1',
    port,
    trustProxy: parseTrustProxy(env.TRUST_PROXY ?? 'none'),
  };
}
