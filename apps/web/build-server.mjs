import { build } from 'esbuild';
import { serverBundle } from '../../scripts/bundle.mjs';

// The console's server (console-server/main.ts) and the workspace code it uses
// (@music/auth/trust-proxy) in one file that plain node runs; `next` stays external.
await build(serverBundle('console-server/main.ts', 'dist/console-server.mjs'));
