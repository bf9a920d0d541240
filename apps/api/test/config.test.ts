import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { ConfigError, identityProviderAtPublicUrl, loadConfig } from '../src/config/config.js';
import { ensureSecretsKeyFile } from '../src/config/secrets-key-file.js';
import {
  ensureOperatorCredential,
  OperatorCredentialError,
  readOperatorCredential,
  withEmbeddedOperatorCredential,
} from '../src/config/operator-credential.js';
import { TEST_ACH_SETTINGS } from '../testing/index.js';

const keyOf = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
const KEY_RING = keyOf('k1');

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('configuration', () => {
  it('runs embedded by default: PGlite, bundled identity provider for both configurations, demo borrower', () => {
    const config = loadConfig({});
    assert.equal(config.port, 8080);
    assert.equal(config.publicUrl, 'http://localhost:8080');
    assert.equal(config.database.kind, 'pglite');
    assert.deepEqual(config.bundledIdp, {
      issuer: 'http://localhost:8080/oauth2/default',
      clientId: 'customer-portal',
    });
    assert.deepEqual(config.identityProviders.production, config.bundledIdp);
    assert.deepEqual(config.identityProviders.nonProduction, config.bundledIdp);
    assert.equal(config.seedDemoBorrower, true);
  });

  it('uses PostgreSQL when DATABASE_URL is set', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://app@db:5432/portal' });
    assert.deepEqual(config.database, {
      kind: 'postgres',
      url: 'postgres://app@db:5432/portal',
      maxConnections: 10,
      preparedStatements: true,
    });
  });

  it('sizes the pool by DATABASE_POOL_SIZE, and LISTENs at DATABASE_LISTEN_URL when given (PgBouncer)', () => {
    const postgres = { DATABASE_URL: 'postgres://app@pgbouncer:6432/portal' };
    assert.deepEqual(
      loadConfig({
        ...postgres,
        DATABASE_POOL_SIZE: '40',
        DATABASE_LISTEN_URL: 'postgres://app@db:5432/portal',
      }).database,
      {
        kind: 'postgres',
        url: 'postgres://app@pgbouncer:6432/portal',
        maxConnections: 40,
        listenUrl: 'postgres://app@db:5432/portal',
        // A pooler in transaction mode may not keep prepared statements: unnamed unless said otherwise.
        preparedStatements: false,
      },
    );
    const behind = { ...postgres, DATABASE_LISTEN_URL: 'postgres://app@db:5432/portal' };
    const prepared = (env: Record<string, string>) =>
      (loadConfig(env).database as { preparedStatements?: boolean }).preparedStatements;
    assert.equal(prepared({ ...behind, DATABASE_PREPARED_STATEMENTS: 'true' }), true);
    assert.equal(prepared({ ...postgres, DATABASE_PREPARED_STATEMENTS: 'false' }), false);
    assert.deepEqual(
      problemsOf({ ...postgres, DATABASE_PREPARED_STATEMENTS: 'yes' }).map((p) => p.split(':')[0]),
      ['DATABASE_PREPARED_STATEMENTS'],
    );
    for (const bad of ['0', '1', 'ten', '2.5', '5000'])
      assert.deepEqual(
        problemsOf({ ...postgres, DATABASE_POOL_SIZE: bad }).map((p) => p.split(':')[0]),
        ['DATABASE_POOL_SIZE'],
        bad,
      );
    assert.deepEqual(
      problemsOf({ ...postgres, DATABASE_LISTEN_URL: 'http://db' }).map((p) => p.split(':')[0]),
      ['DATABASE_LISTEN_URL'],
    );
    assert.match(
      problemsOf({ DATABASE_LISTEN_URL: 'postgres://app@db/portal' }).join('\n'),
      /^DATABASE_LISTEN_URL: only with DATABASE_URL/,
    );
  });

  it('migrates at start-up unless MIGRATE_ON_START is false (production runs migrate up as a step)', () => {
    assert.equal(loadConfig({}).migrateOnStart, true);
    assert.equal(loadConfig({ MIGRATE_ON_START: 'false' }).migrateOnStart, false);
    assert.deepEqual(
      problemsOf({ MIGRATE_ON_START: 'later' }).map((p) => p.split(':')[0]),
      ['MIGRATE_ON_START'],
    );
  });

  it('asks a second factor of borrowers who have one unless MFA_POLICY says otherwise', () => {
    assert.equal(loadConfig({}).mfaPolicy, 'optional');
    assert.equal(loadConfig({ MFA_POLICY: 'required' }).mfaPolicy, 'required');
    assert.equal(loadConfig({ MFA_POLICY: 'off' }).mfaPolicy, 'off');
    for (const bad of ['REQUIRED', 'on', '']) {
      assert.deepEqual(
        problemsOf({ MFA_POLICY: bad }).map((p) => p.split(':')[0]),
        ['MFA_POLICY'],
        bad,
      );
    }
  });

  it('bounds the line of sign-ins waiting for a password check: 64 unless SIGN_IN_QUEUE_DEPTH says', () => {
    assert.equal(loadConfig({}).signInQueueDepth, 64);
    assert.equal(loadConfig({ SIGN_IN_QUEUE_DEPTH: '8' }).signInQueueDepth, 8);
    for (const bad of ['-1', 'many', '2.5', '20000']) {
      assert.deepEqual(
        problemsOf({ SIGN_IN_QUEUE_DEPTH: bad }).map((p) => p.split(':')[0]),
        ['SIGN_IN_QUEUE_DEPTH'],
        bad,
      );
    }
  });

  it('runs one server process unless SERVER_PROCESSES says; more only with PostgreSQL', () => {
    const postgres = { DATABASE_URL: 'postgres://app@db:5432/portal' };
    assert.equal(loadConfig({}).serverProcesses, 1);
    assert.equal(loadConfig({ ...postgres, SERVER_PROCESSES: '3' }).serverProcesses, 3);
    assert.equal(
      loadConfig({ ...postgres, SERVER_PROCESSES: 'auto' }).serverProcesses,
      availableParallelism(),
    );
    assert.match(problemsOf({ SERVER_PROCESSES: '2' }).join('\n'), /^SERVER_PROCESSES: .*needs DATABASE_URL/);
    for (const bad of ['0', 'all', '1.5']) {
      assert.deepEqual(
        problemsOf({ ...postgres, SERVER_PROCESSES: bad }).map((p) => p.split(':')[0]),
        ['SERVER_PROCESSES'],
        bad,
      );
    }
  });

  it('serves metrics only on a port of their own, on loopback unless METRICS_HOST says', () => {
    assert.equal(loadConfig({}).metrics, null);
    assert.deepEqual(loadConfig({ METRICS_PORT: '9464' }).metrics, { port: 9464, host: '127.0.0.1' });
    assert.deepEqual(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }).metrics, {
      port: 9464,
      host: '0.0.0.0',
    });
    assert.deepEqual(problemsOf({ PORT: '9000', METRICS_PORT: '9000' }), [
      'METRICS_PORT: must differ from PORT (metrics are never served on the public port)',
    ]);
    assert.match(problemsOf({ METRICS_PORT: 'ninety' }).join(), /^METRICS_PORT: /);
    const clustered = problemsOf({
      METRICS_PORT: '9464',
      SERVER_PROCESSES: '2',
      DATABASE_URL: 'postgres://portal@db.internal/portal',
    });
    assert.match(clustered.join(), /^METRICS_PORT: not served with more than one server process/);
  });

  it('names every bad variable', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      DATABASE_URL: 'mysql://x',
      TRUST_PROXY: 'yes',
      LENDER_WEBSITE_URL: 'ftp://x',
    });
    assert.deepEqual(problems.map((p) => p.split(':')[0]).sort(), [
      'DATABASE_URL',
      'LENDER_WEBSITE_URL',
      'PORT',
      'TRUST_PROXY',
    ]);
  });

  it('limits e-mailed links per address and client, with a higher ceiling per address; refuses the old single limit', () => {
    assert.deepEqual(loadConfig({}).emailLinkLimits, {
      perAddressAndClient: 3,
      perAddress: 10,
      perClient: 20,
      windowSeconds: 900,
    });
    const old = problemsOf({ EMAIL_LINK_LIMIT_PER_ADDRESS: '3' });
    assert.equal(old.length, 1);
    assert.match(
      old[0]!,
      /^EMAIL_LINK_LIMIT_PER_ADDRESS: no longer read: set EMAIL_LINK_LIMIT_PER_ADDRESS_AND_CLIENT/,
    );
    assert.deepEqual(
      problemsOf({
        EMAIL_LINK_LIMIT_PER_ADDRESS_AND_CLIENT: '5',
        EMAIL_LINK_FLOOD_LIMIT_PER_ADDRESS: '4',
      }).map((p) => p.split(':')[0]),
      ['EMAIL_LINK_FLOOD_LIMIT_PER_ADDRESS'],
    );
  });

  it('takes a hosted Okta org as issuer and client id', () => {
    const config = loadConfig({
      IDP_BUNDLED: 'false',
      IDP_ISSUER: 'https://lender.okta.com/oauth2/default/',
      IDP_CLIENT_ID: '0oa1',
      IDP_NONPROD_ISSUER: 'https://lender-stg.okta.com/oauth2/default',
      IDP_NONPROD_CLIENT_ID: '0oa2',
      OKTA_API_TOKEN: '00a-test-api-token-of-the-org',
    });
    assert.equal(config.bundledIdp, null);
    assert.equal(config.oktaApiToken, '00a-test-api-token-of-the-org');
    assert.deepEqual(config.identityProviders, {
      production: { issuer: 'https://lender.okta.com/oauth2/default', clientId: '0oa1' },
      nonProduction: { issuer: 'https://lender-stg.okta.com/oauth2/default', clientId: '0oa2' },
    });
  });

  it("signs in at the origin's identity provider: the non-production one where it names dev, local or stg", () => {
    const hosted = {
      IDP_BUNDLED: 'false',
      IDP_ISSUER: 'https://lender.okta.com/oauth2/default',
      IDP_CLIENT_ID: '0oa1',
      IDP_NONPROD_ISSUER: 'https://lender-stg.okta.com/oauth2/default',
      IDP_NONPROD_CLIENT_ID: '0oa2',
      OKTA_API_TOKEN: '00a-test-api-token-of-the-org',
    };
    const issuerAt = (publicUrl: string) =>
      identityProviderAtPublicUrl(loadConfig({ ...hosted, PUBLIC_URL: publicUrl })).issuer;
    assert.equal(issuerAt('https://portal.lender.example'), 'https://lender.okta.com/oauth2/default');
    for (const publicUrl of [
      'https://portal.stg.lender.example',
      'http://localhost:8080',
      'https://dev.lender.example',
    ])
      assert.equal(issuerAt(publicUrl), 'https://lender-stg.okta.com/oauth2/default', publicUrl);
  });

  it('refuses an incomplete identity provider', () => {
    assert.deepEqual(problemsOf({ IDP_ISSUER: 'https://lender.okta.com/oauth2/default' }), [
      'IDP_ISSUER and IDP_CLIENT_ID: set both or neither',
    ]);
    assert.equal(problemsOf({ IDP_BUNDLED: 'false' }).length, 2);
  });

  it('refuses a hosted Okta org without the API token its user flows need', () => {
    assert.deepEqual(
      problemsOf({
        IDP_BUNDLED: 'false',
        IDP_ISSUER: 'https://lender.okta.com/oauth2/default',
        IDP_CLIENT_ID: '0oa1',
      }),
      [
        "OKTA_API_TOKEN: required when IDP_BUNDLED is false (an API token of the Okta org's user administrator)",
      ],
    );
  });

  it('holds production to https, PostgreSQL, an SMTP relay and no demo borrower', () => {
    const problems = problemsOf({ NODE_ENV: 'production', SEED_DEMO_BORROWER: 'true' });
    assert.deepEqual(
      problems.map((p) => p.split(':')[0]),
      [
        'PUBLIC_URL',
        'DATABASE_URL',
        'SEED_DEMO_BORROWER',
        'SMTP_URL',
        'ACH_IMMEDIATE_DESTINATION',
        'ACH_IMMEDIATE_ORIGIN',
        'ACH_COMPANY_ID',
        'ACH_ODFI_ROUTING',
        'SECRETS_KEYS',
      ],
    );
    const config = loadConfig({
      NODE_ENV: 'production',
      ...TEST_ACH_SETTINGS,
      PUBLIC_URL: 'https://portal.lender.example',
      DATABASE_URL: 'postgres://app@db/portal',
      SMTP_URL: 'smtp://relay.internal:587',
      SECRETS_KEYS: KEY_RING,
    });
    assert.equal(config.seedDemoBorrower, false);
  });
});

describe('service credentials', () => {
  const secret = 's'.repeat(32);
  const sha256 = (value: string) => createHash('sha256').update(value).digest();

  it('each have one scope: name:scope:secret, comma-separated; a system needing two has two entries', () => {
    const config = loadConfig({
      SERVICE_CREDENTIALS: ` servicing:lookup-tokens:${secret}, ops:operator:${secret}x:y ,servicing:operator:${'t'.repeat(40)}`,
    });
    assert.deepEqual(config.serviceCredentials, [
      { name: 'servicing', scope: 'lookup-tokens', digest: sha256(secret) },
      { name: 'ops', scope: 'operator', digest: sha256(`${secret}x:y`) },
      { name: 'servicing', scope: 'operator', digest: sha256('t'.repeat(40)) },
    ]);
  });

  it('refuses the old name:secret form at start-up, saying the new one and never quoting a secret', () => {
    const problems = problemsOf({ SERVICE_CREDENTIALS: `crm:${secret}` });
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /^SERVICE_CREDENTIALS: "crm" has no scope/);
    assert.match(problems[0]!, /name:scope:secret/);
    assert.match(problems[0]!, /lookup-tokens or operator/);
    assert.ok(!problems[0]!.includes(secret));
  });

  it('refuses an unknown scope, a short secret, a bad name and a scope given twice, naming the variable', () => {
    const cases = [
      `crm:${'x'.repeat(40)}:${secret}`, // an old secret with a colon in it: no scope
      `crm:admin:${secret}`,
      `crm:operator:${'s'.repeat(31)}`,
      `c r m:operator:${secret}`,
      `crm:operator:${secret},crm:operator:${'t'.repeat(32)}`,
      'crm:operator:',
    ];
    for (const value of cases) {
      const problems = problemsOf({ SERVICE_CREDENTIALS: value });
      assert.equal(problems.length, 1, value);
      assert.match(problems[0]!, /^SERVICE_CREDENTIALS: /, value);
      assert.ok(!problems[0]!.includes('x'.repeat(40)) && !problems[0]!.includes(secret), 'no secret quoted');
    }
  });
});

describe('the embedded operator credential', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'customer-core-config-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));
  const sha256 = (secret: string) => createHash('sha256').update(secret).digest();

  it('is used in development when SERVICE_CREDENTIALS has no operator credential; loading the configuration writes nothing', () => {
    const dir = path.join(dataDir, 'development');
    const config = loadConfig({ DATA_DIR: dir });
    assert.equal(config.operatorCredentialFile, path.join(dir, 'operator-credential'));
    assert.equal(existsSync(dir), false);
    assert.equal(loadConfig({}).operatorCredentialFile, path.resolve('data', 'operator-credential'));
    const others = loadConfig({ DATA_DIR: dir, SERVICE_CREDENTIALS: `crm:lookup-tokens:${'c'.repeat(32)}` });
    assert.equal(others.operatorCredentialFile, path.join(dir, 'operator-credential'));
  });

  it('is not used with a configured operator credential, in tests, or in production', () => {
    const secret = 'o'.repeat(32);
    const configured = loadConfig({ SERVICE_CREDENTIALS: `operator:operator:${secret}` });
    assert.equal(configured.operatorCredentialFile, null);
    assert.deepEqual(configured.serviceCredentials, [
      { name: 'operator', scope: 'operator', digest: sha256(secret) },
    ]);
    assert.equal(withEmbeddedOperatorCredential(configured), configured);
    assert.equal(loadConfig({ NODE_ENV: 'test' }).operatorCredentialFile, null);
    const production = loadConfig({
      NODE_ENV: 'production',
      ...TEST_ACH_SETTINGS,
      PUBLIC_URL: 'https://portal.lender.example',
      DATABASE_URL: 'postgres://app@db/portal',
      SMTP_URL: 'smtp://relay.internal:587',
      SECRETS_KEYS: KEY_RING,
    });
    assert.equal(production.operatorCredentialFile, null);
    assert.deepEqual(production.serviceCredentials, []);
  });

  it('is made on first start: 32 random bytes, base64url, readable by its owner only; then kept', () => {
    const config = loadConfig({ DATA_DIR: path.join(dataDir, 'first-start') });
    const started = withEmbeddedOperatorCredential(config);
    const file = config.operatorCredentialFile!;
    const secret = readFileSync(file, 'utf8').trim();
    assert.match(secret, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(secret, 'base64url').length, 32);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(started.serviceCredentials, [
      { name: 'operator', scope: 'operator', digest: sha256(secret) },
    ]);
    assert.deepEqual(config.serviceCredentials, [], 'the loaded configuration is not changed');

    assert.equal(ensureOperatorCredential(file), secret, 'a restart reads the same secret');
    assert.equal(readOperatorCredential(file), secret);
    assert.deepEqual(withEmbeddedOperatorCredential(config).serviceCredentials[0]?.digest, sha256(secret));
  });

  it('refuses a file that holds no usable secret, and reads no file that is not there', () => {
    const file = path.join(dataDir, 'short-credential');
    assert.equal(readOperatorCredential(file), undefined);
    writeFileSync(file, 'short\n');
    assert.throws(() => ensureOperatorCredential(file), OperatorCredentialError);
    assert.throws(() => readOperatorCredential(file), /at least 32 characters/);
  });
});

describe('the key that seals secrets at rest (SECRETS_KEYS)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'customer-core-secrets-key-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('is a ring of kid:base64 keys, the first sealing; a bad one is refused, naming the variable and no key', () => {
    const [k2, k1] = [keyOf('k2'), keyOf('k1')];
    const config = loadConfig({ SECRETS_KEYS: `${k2}, ${k1}` });
    assert.deepEqual(
      config.secretKeys?.map((k) => k.id),
      ['k2', 'k1'],
    );
    assert.equal(config.secretsKeyFile, null);
    const short = `k1:${randomBytes(16).toString('base64')}`;
    for (const bad of [short, 'k1', `bad id:${randomBytes(32).toString('base64')}`, `${k1},${k1}`, '']) {
      const problems = problemsOf({ SECRETS_KEYS: bad });
      assert.deepEqual(
        problems.map((p) => p.split(':')[0]),
        ['SECRETS_KEYS'],
        bad,
      );
      assert.ok(!problems.join('\n').includes(short.slice(3)), 'a key is never echoed');
    }
  });

  it('outside production without the setting, is made on first start in the data directory, owner-only', () => {
    const dir = path.join(dataDir, 'development');
    const config = loadConfig({ DATA_DIR: dir });
    assert.equal(config.secretKeys, null);
    assert.equal(config.secretsKeyFile, path.join(dir, 'secrets-key'));
    assert.equal(existsSync(dir), false, 'loading the configuration writes nothing');
    const made = ensureSecretsKeyFile(config.secretsKeyFile);
    assert.equal(made.length, 1);
    assert.equal(made[0]!.key.length, 32);
    assert.equal(statSync(config.secretsKeyFile).mode & 0o777, 0o600);
    assert.deepEqual(ensureSecretsKeyFile(config.secretsKeyFile), made, 'a restart reads the same key');
  });
});

describe('secret settings from files (<NAME>_FILE)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'customer-core-setting-files-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, content: string) => {
    const at = path.join(dir, name);
    writeFileSync(at, content, { mode: 0o600 });
    return at;
  };
  const secret = 'f'.repeat(32);

  it('reads each secret setting from its file, without the trailing newline', () => {
    const ring = keyOf('filed');
    const config = loadConfig({
      NODE_ENV: 'production',
      ...TEST_ACH_SETTINGS,
      PUBLIC_URL: 'https://portal.lender.example',
      DATABASE_URL_FILE: file('database-url', 'postgres://app:pw@db/portal\n'),
      DATABASE_LISTEN_URL_FILE: file('database-listen-url', 'postgres://app:pw@db-direct/portal\n'),
      SMTP_URL_FILE: file('smtp-url', 'smtps://user:pass@relay.internal:465\n'),
      SERVICE_CREDENTIALS_FILE: file('service-credentials', `ops:operator:${secret}\n`),
      SECRETS_KEYS_FILE: file('secrets-keys', `${ring}\n`),
      ERROR_REPORTING_DSN_FILE: file(
        'error-reporting-dsn',
        'https://public-key@o1.ingest.reports.example/42\n',
      ),
      PRODUCTION_HOST: 'portal.lender.example',
    });
    assert.deepEqual(config.database, {
      kind: 'postgres',
      url: 'postgres://app:pw@db/portal',
      maxConnections: 10,
      listenUrl: 'postgres://app:pw@db-direct/portal',
      preparedStatements: false,
    });
    assert.equal(config.errorReporting.dsn, 'https://public-key@o1.ingest.reports.example/42');
    assert.equal(config.mail.smtpUrl, 'smtps://user:pass@relay.internal:465');
    assert.deepEqual(
      config.serviceCredentials.map((c) => c.name),
      ['ops'],
    );
    assert.deepEqual(
      config.secretKeys?.map((k) => k.id),
      ['filed'],
    );
    const hosted = loadConfig({
      IDP_BUNDLED: 'false',
      IDP_ISSUER: 'https://lender.okta.com/oauth2/default',
      IDP_CLIENT_ID: '0oa1',
      OKTA_API_TOKEN_FILE: file('okta-api-token', '00abcdefghijklmnopqrstuvwxyz\n'),
    });
    assert.equal(hosted.oktaApiToken, '00abcdefghijklmnopqrstuvwxyz');
  });

  it('refuses a setting given both ways, and a file it cannot read, naming the variable and never the value', () => {
    const both = problemsOf({
      SERVICE_CREDENTIALS: `ops:operator:${secret}`,
      SERVICE_CREDENTIALS_FILE: file('both', `ops:operator:${secret}`),
    });
    assert.deepEqual(both, [
      'SERVICE_CREDENTIALS_FILE: set SERVICE_CREDENTIALS or SERVICE_CREDENTIALS_FILE, not both',
    ]);
    const missing = problemsOf({ SECRETS_KEYS_FILE: path.join(dir, 'not-there') });
    assert.equal(missing.length, 1);
    assert.match(missing[0]!, /^SECRETS_KEYS_FILE: .*not-there cannot be read \(ENOENT\)$/);
  });
});
