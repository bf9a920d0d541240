/** Import boundaries, checked by `npm run lint`: no cycles between files or folders, web features apart, HTTP plumbing below the API modules. */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'A module that imports itself through others cannot be read or changed on its own.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-module-cycle',
      severity: 'error',
      comment:
        "Folders depend one way: a module that reaches itself through another cannot be read, tested or moved without it. (The portal's folders, apps/web, are not free of such cycles yet.)",
      scope: 'folder',
      from: { pathNot: '^apps/web/' },
      to: { circular: true },
    },
    {
      name: 'web-features-apart',
      severity: 'error',
      comment: 'A feature does not reach into another: move what both need to a shared folder.',
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: { path: '^apps/web/src/features/', pathNot: '^apps/web/src/features/$1/' },
    },
    {
      name: 'http-below-modules',
      severity: 'error',
      comment: "HTTP plumbing serves the modules' routes; it does not import them or their plugins.",
      from: { path: '^apps/api/src/http/' },
      to: { path: '^apps/api/src/[^/]+/(routes/|routes\\.ts$|module\\.ts$)' },
    },
    {
      name: 'no-test-helpers-in-production',
      severity: 'error',
      comment:
        "Test helpers (a package's test/ or testing/ folder, the browser tests) are not built; production code cannot lean on them.",
      from: { path: '^(apps|packages)/[^/]+/src/' },
      to: { path: '^((apps|packages)/[^/]+/(test|testing)/|e2e/)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['source', 'import', 'types', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
    },
  },
};
