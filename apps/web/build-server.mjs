import { build } from 'esbuild';

// Bundles the console's server (console-server/main.ts) and the workspace code it uses
// (@music/auth/trust-proxy, which exports TypeScript source) into one file that plain node runs;
// `next` and every other npm package stay external, loaded from node_modules at run time.
await build({
  entryPoints: ['console-server/main.ts'],
  outfile: 'dist/console-server.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'externalize-npm',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@music/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
