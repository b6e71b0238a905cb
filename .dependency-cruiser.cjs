// Import rules checked by `npm test` (dependency-cruiser over the TypeScript import graph, type-only
// imports included): no cycles anywhere, and the walls between workspaces.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'A module must not import (directly or through others) a module that imports it.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'packages-never-import-apps',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'browser-apps-never-import-the-server',
      severity: 'error',
      from: { path: '^apps/(web|viewer)/' },
      to: { path: '^apps/server/' },
    },
    {
      name: 'bench-and-e2e-use-package-entries',
      comment:
        'Benchmarks and browser tests import what an app exports (@tinygs/server, @tinygs/server/testing), never its files.',
      severity: 'error',
      from: { path: '^(bench|e2e)/' },
      to: { path: '^apps/[^/]+/src/', dependencyTypes: ['local'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|generated|results)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    moduleSystems: ['es6', 'cjs'],
  },
};
