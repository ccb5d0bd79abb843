/**
 * esbuild's options for a server entry bundled with the workspace packages it imports (which
 * export TypeScript source) into one ES module that plain node runs; every npm dependency stays
 * external and is loaded from node_modules at run time, so the bundling package lists the runtime
 * dependencies of the workspace code it takes in. The API (apps/api/build.mjs) and the console's
 * server (apps/web/build-server.mjs) are built this way, each with its own esbuild.
 */
export function serverBundle(entry, outfile) {
  return {
    entryPoints: [entry],
    outfile,
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
  };
}
