import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Child, findTool, freePort, startChild, until } from './processes';

export interface Balanced {
  /** The frontend's name (and its backend's). */
  name: string;
  /** Ports on 127.0.0.1 of the instances behind it. */
  servers: number[];
  /** The readiness check, e.g. `GET /v1/health`; none: every server always counts as up. */
  check?: string;
  /** Check interval in ms (one failure takes a server out, one success brings it back). */
  checkIntervalMs?: number;
}

export interface HAProxy {
  /** The port of a frontend, on 127.0.0.1. */
  port(name: string): number;
  url(name: string): string;
  stop(): Promise<void>;
}

/**
 * HAProxy in front of instances on 127.0.0.1, round robin, keep-alive to the servers, and no
 * second chances: `retries 0`, no `option redispatch`, no `retry-on`. A request that reaches an
 * instance which then fails it, or whose connection it drops, fails the client: exactly what a
 * rolling restart must not cause. `X-Forwarded-For` is appended (`option forwardfor`).
 */
export async function startHaproxy(frontends: Balanced[]): Promise<HAProxy> {
  const binary = findTool('haproxy', ['/usr/sbin/haproxy', '/usr/bin/haproxy']);
  const dir = mkdtempSync(path.join(tmpdir(), 'music-haproxy-'));
  const ports = new Map<string, number>();
  for (const frontend of frontends) ports.set(frontend.name, await freePort());
  const lines = [
    'global',
    '  maxconn 4000',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  retries 0',
    '  option forwardfor',
  ];
  for (const frontend of frontends) {
    lines.push(
      `frontend ${frontend.name}`,
      `  bind 127.0.0.1:${ports.get(frontend.name)}`,
      `  default_backend ${frontend.name}`,
      `backend ${frontend.name}`,
      '  balance roundrobin',
    );
    if (frontend.check) {
      lines.push(
        `  option httpchk ${frontend.check}`,
        '  http-check expect status 200',
        `  default-server inter ${frontend.checkIntervalMs ?? 500}ms fall 1 rise 1`,
      );
    }
    frontend.servers.forEach((port, i) => {
      lines.push(`  server ${frontend.name}${i + 1} 127.0.0.1:${port}${frontend.check ? ' check' : ''}`);
    });
  }
  const config = path.join(dir, 'haproxy.cfg');
  writeFileSync(config, `${lines.join('\n')}\n`);
  const child: Child = startChild(binary, ['-db', '-f', config]);
  for (const [name, port] of ports) {
    await until(
      () =>
        new Promise<true | undefined>((resolve) => {
          if (child.process.exitCode !== null) resolve(undefined);
          const socket = connect({ host: '127.0.0.1', port });
          socket.once('connect', () => {
            socket.destroy();
            resolve(true);
          });
          socket.once('error', () => resolve(undefined));
        }),
      10_000,
      `haproxy to listen for ${name} (${child.output()})`,
    );
  }
  return {
    port: (name) => ports.get(name) as number,
    url: (name) => `http://127.0.0.1:${ports.get(name)}`,
    async stop() {
      await child.stop('SIGTERM', 5_000);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
