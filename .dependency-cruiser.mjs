// `pnpm lint` refuses import cycles anywhere in the workspace (and the API's source reaching into
// its test support), type-only imports included: a
// type-only edge still ties two modules together (neither can move or split without the other),
// and the issue that asked for this check counts one (packages/db client.ts <-> sql.ts) as a cycle.
/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other, directly or through others (type-only imports count).',
      from: {},
      to: { circular: true },
    },
    {
      // An import the cruise cannot resolve is an edge it cannot see, and a cycle through it
      // would pass unnoticed.
      name: 'no-unresolvable',
      severity: 'error',
      comment: 'An import that does not resolve to a file or an installed package.',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      // Test support lives in test/ so the server never ships it: a source file that reached
      // into it would pull the harness into the build.
      name: 'no-test-support-in-the-api',
      severity: 'error',
      comment: 'apps/api/src (tests beside their files excepted) imports from apps/api/test.',
      from: { path: '^apps/api/src/', pathNot: '[.]test[.]ts$' },
      to: { path: '^apps/api/test/' },
    },
  ],
  options: {
    doNotFollow: { path: '(^|/)node_modules/' },
    exclude: { path: '(^|/)(node_modules|dist|\\.next|\\.turbo|test-results|playwright-report)/' },
    tsPreCompilationDeps: true,
    webpackConfig: { fileName: 'scripts/depcruise-resolve.mjs' },
    // Workspace packages are imported by name (`@music/db`): pnpm links them under node_modules
    // and their `exports` point at source, so the resolved realpath lands back in the workspace.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
  },
};
