import { build } from 'esbuild';
import { serverBundle } from '../../scripts/bundle.mjs';

// The API and the workspace packages it uses in one file (dist/server.mjs); npm dependencies stay
// external, so this package lists the runtime dependencies of the workspace packages it bundles.
await build(serverBundle('src/server.ts', 'dist/server.mjs'));
