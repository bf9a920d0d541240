/** Import boundaries, checked by `npm run lint`: no cycles between files or folders, web features apart, the API modules through their public faces, HTTP plumbing below them. */

/**
 * Each API module's public face: the files of its folder (apps/api/src/<module>/) that other modules
 * may import, its services and their types. The rest (routes, repositories, helpers) is its own, free
 * to change. A folder not listed shows nothing. The files at the top of apps/api/src may import any
 * file: the composition root (services.ts builds every part of an instance once and connects them),
 * app.ts (registers the plugins of what it built) and the process around them (server.ts, main.ts,
 * cluster.ts, maintenance.ts, demo-borrower.ts).
 */
const PUBLIC_FACES = {
  account: ['step-up', 'second-factors'],
  // The repository for its retention purge, which the maintenance purge runs with the others.
  audit: ['audit-trail', 'recorded-calls', 'audit-repository', 'audit-forwarding'],
  activity: ['security-activity', 'device'],
  applications: [],
  borrowers: ['borrower-repository'],
  cli: [],
  // Its repository's list of a borrower's rows: the console's page of a borrower reads the legal hold.
  'data-rights': ['borrower-export', 'borrower-erasure', 'borrower-data-repository'],
  // The staff console: the operators' access check (every operators' call), what its pages read.
  console: ['operator-access', 'borrower-file', 'staff-users'],
  // owner-only-file: the CLI writes the bank's files as the portal writes its keys.
  config: ['config', 'service-credentials', 'operator-credential', 'owner-only-file'],
  db: ['schema', 'batched-calls', 'readiness-repository', 'outbox-loop', 'sealed-columns'],
  documents: ['borrower-documents'],
  'email-links': [
    'email-links',
    'link-token-repository',
    'request-count-repository',
    'request-limits',
    'link-problems',
  ],
  http: [
    'bearer',
    'device-cookie',
    'endpoint-route',
    'http-error',
    'logging',
    'redaction',
    'route-module',
    'service-credential',
    'sign-in-client',
  ],
  identity: ['directory', 'staff-groups'],
  joining: ['invitations'],
  loans: ['borrower-loans', 'borrower-overview', 'loan-book', 'loan-checkout'],
  mail: ['index'],
  maintenance: [],
  metrics: [],
  operators: [],
  passwords: ['common-passwords', 'password-refusals'],
  // The settings' types (config), and what the operators' routes and the console's page use.
  payments: ['banking-days', 'nacha-file', 'bank-accounts', 'loan-payments', 'settlement'],
  tracing: [],
  session: [
    'access-tokens',
    'product-token',
    'secrets-key-rotation',
    'sessions',
    // The ID token's checks and spending, which the console's sign-in shares with the borrower's.
    'sign-in',
    'id-token-verifier',
    'token-problems',
    'signed-in-borrower',
    // The rule by which superseded keys retire, applied by the maintenance purge too.
    'signing-key-repository',
    'signing-keys',
  ],
  web: [],
  webhooks: ['webhooks'],
};

const publicFaces = Object.entries(PUBLIC_FACES)
  .filter(([, files]) => files.length > 0)
  .map(([module, files]) => `^apps/api/src/${module}/(${files.join('|')})\\.ts$`);

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
        'Folders depend one way: a module that reaches itself through another cannot be read, tested or moved without it.',
      scope: 'folder',
      from: {},
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
      name: 'console-apart',
      severity: 'error',
      comment:
        "The staff console loads on its own (app/router.tsx's one lazy route): no borrower code imports it, so a borrower's page never carries it.",
      from: {
        path: '^apps/web/src/',
        pathNot: ['^apps/web/src/console/', '^apps/web/src/app/router\\.tsx$'],
      },
      to: { path: '^apps/web/src/console/' },
    },
    {
      name: 'module-public-face',
      severity: 'error',
      comment:
        'One API module uses another only through its public face (PUBLIC_FACES above), never its routes, repositories or helpers.',
      from: { path: '^apps/api/src/([^/]+)/' },
      to: { path: '^apps/api/src/[^/]+/', pathNot: ['^apps/api/src/$1/', ...publicFaces] },
    },
    {
      name: 'idp-through-ports',
      severity: 'error',
      comment:
        "The API reaches the identity provider through ports (the Directory, and those its services declare): only the composition root (services.ts) and the bundled provider's Directory adapter import it.",
      from: {
        path: '^apps/api/src/',
        pathNot: '^apps/api/src/(services\\.ts|identity/bundled-directory\\.ts)$',
      },
      to: { path: '^apps/idp/' },
    },
    {
      name: 'web-lib-below-components',
      severity: 'error',
      comment:
        "The portal's lib (sessions, API calls, state) lies below its components: a component may use lib, lib never renders a component.",
      from: { path: '^apps/web/src/lib/' },
      to: { path: '^apps/web/src/components/' },
    },
    {
      name: 'http-below-modules',
      severity: 'error',
      comment: "HTTP plumbing serves the modules' routes; it does not import them or their plugins.",
      from: { path: '^apps/api/src/http/' },
      to: { path: '^apps/api/src/[^/]+/(routes/|module\\.ts$)' },
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
