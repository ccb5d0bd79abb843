import { build } from 'esbuild';

// Bundles the API and the workspace packages (which export TypeScript source) into one file;
// every npm dependency stays external and is loaded from node_modules at run time, so this
// package lists the runtime dependencies of the workspace packages it bundles.
await build({
  entryPoints: ['src/server.ts'],
  outfile: 'dist/server.mjs',
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
