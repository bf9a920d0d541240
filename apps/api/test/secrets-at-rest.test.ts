import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { sql } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import { authEndpoints, webhookEndpoints } from '@customer-core/contracts';
import { createTestDatabase, type TestDatabase } from '@customer-core/database/testing';
import { idpMigrations } from '@customer-core/idp';
import { runCli } from '../src/cli/run.js';
import { apiMigrations } from '../src/db/migrations.js';
import {
  completeSignInWithSessionToken,
  freePort,
  startTestServer,
  type TestServer,
} from '../testing/index.js';
import { OPERATOR_ENV, OPERATOR_SECRET } from './support/loans.js';
import { json, post } from './support/session.js';

// Secrets kept in the database (authenticator apps' secrets, the provider's and the API's signing
// keys) are sealed with a key-encryption key from SECRETS_KEYS: the raw rows hold none in plain text,
// and rotating the key keeps every factor, token and signing key working.

const PASSWORD = 'Borrower-Pass-42';
const ringKey = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;

/** The code of the step `offset` steps from now: each sign-in takes a later step than the one before. */
const totpCode = (secret: string, offset: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: Date.now() + offset * 30_000,
  });

type Answer = Record<string, unknown> & {
  status?: string;
  stateToken?: string;
  sessionToken?: string;
  _embedded?: {
    factors?: Array<{ _links: { enroll?: { href: string }; verify?: { href: string } } }>;
    factor?: { _embedded: { activation: { sharedSecret: string } } };
  };
  _links?: { next?: { href: string } };
};

interface SecretRows {
  factorSecrets: string[];
  privateKeys: string[];
  providerKeys: string[];
  webhookSecrets: string[];
}

describe('secrets at rest', () => {
  const databases: TestDatabase[] = [];
  const running: TestServer[] = [];
  const k1 = ringKey('k1');
  const k2 = ringKey('k2');

  after(async () => {
    for (const server of running) await server.close();
    for (const database of databases) await database.drop();
  });

  /**
   * One deployment's database, which its portals share one after another, as they share `./data` or
   * PostgreSQL: it outlives each server.
   */
  const deployment = async (): Promise<TestDatabase> => {
    const database = await createTestDatabase('pglite', { api: apiMigrations, idp: idpMigrations });
    databases.push(database);
    return database;
  };

  /** A portal on the database with this key ring; a stopped one's successor, as a redeploy. */
  const start = async (database: TestDatabase, ring: string, port: string) => {
    const server = await startTestServer(
      'pglite',
      {
        ...OPERATOR_ENV,
        MFA_POLICY: 'required',
        SECRETS_KEYS: ring,
        PORT: port,
        PUBLIC_URL: `http://localhost:${port}`,
      },
      { database },
    );
    running.push(server);
    return server;
  };
  const stop = async (server: TestServer) => {
    running.splice(running.indexOf(server), 1);
    await server.close();
  };

  /** The raw rows, as a copy of the database or a backup holds them. */
  const rawRows = async (server: TestServer): Promise<SecretRows> => {
    const db = server.server.db;
    const factors = await sql<{ secret: string }>`
      select secret from idp_factor where secret is not null`.execute(db);
    const keys = await sql<{
      private_key_pem: string;
    }>`select private_key_pem from product_signing_key`.execute(db);
    const provider = await sql<{
      material: string;
    }>`select material::text as material from idp_key`.execute(db);
    const webhooks = await sql<{ secret: string }>`select secret from webhook_endpoint`.execute(db);
    return {
      factorSecrets: factors.rows.map((r) => r.secret),
      privateKeys: keys.rows.map((r) => r.private_key_pem),
      providerKeys: provider.rows.map((r) => r.material),
      webhookSecrets: webhooks.rows.map((r) => r.secret),
    };
  };

  const assertAllSealedWith = (rows: SecretRows, kid: string, plainSecrets: string[]) => {
    const all = [...rows.factorSecrets, ...rows.privateKeys, ...rows.providerKeys, ...rows.webhookSecrets];
    assert.ok(
      rows.factorSecrets.length > 0 &&
        rows.privateKeys.length > 0 &&
        rows.providerKeys.length === 2 &&
        rows.webhookSecrets.length === 1,
      JSON.stringify(rows).slice(0, 300),
    );
    for (const value of all) {
      assert.match(value, new RegExp(`^"?v1:${kid}:`), `not sealed with ${kid}: ${value.slice(0, 40)}`);
      assert.doesNotMatch(value, /PRIVATE KEY|"d"\s*:|"keys"/, 'a private key in plain text');
      for (const secret of plainSecrets) assert.ok(!value.includes(secret), 'a TOTP secret in plain text');
    }
  };

  const follow = async (server: TestServer, href: string, body: unknown) => {
    const { status, body: answer } = await json<Answer>(
      await post(server.baseUrl, new URL(href, server.baseUrl).pathname, body),
    );
    assert.equal(status, 200, JSON.stringify(answer));
    return answer;
  };

  /** Password, then the app's code; the product access token of the sign-in. */
  const signIn = async (server: TestServer, login: string, secret: string, step: number) => {
    const first = await follow(server, '/api/v1/authn', { username: login, password: PASSWORD });
    assert.equal(first.status, 'MFA_REQUIRED', JSON.stringify(first));
    const done = await follow(server, first._embedded!.factors![0]!._links.verify!.href, {
      stateToken: first.stateToken,
      passCode: totpCode(secret, step),
    });
    assert.equal(done.status, 'SUCCESS', JSON.stringify(done));
    return exchange(server, done.sessionToken!);
  };

  /** The provider signs an ID token; the API verifies it and answers with an access token. */
  const exchange = async (server: TestServer, sessionToken: string) => {
    const tokens = await completeSignInWithSessionToken(server.baseUrl, sessionToken);
    assert.ok(tokens);
    const exchanged = await json<{ access_token: string }>(
      await post(server.baseUrl, authEndpoints.tokenExchange.path, { token: tokens.idToken }),
    );
    assert.equal(exchanged.status, 200, JSON.stringify(exchanged.body));
    return exchanged.body.access_token;
  };

  /** A new borrower who adds an authenticator app at their first sign-in; its secret and their token. */
  const enrol = async (server: TestServer) => {
    const login = `sealed.${randomUUID()}@example.com`;
    await server.server.identityProvider!.users.create({
      login,
      password: PASSWORD,
      firstName: 'Rosa',
      lastName: 'Martinez',
    });
    const start = await follow(server, '/api/v1/authn', { username: login, password: PASSWORD });
    assert.equal(start.status, 'MFA_ENROLL');
    const activation = await follow(server, start._embedded!.factors![0]!._links.enroll!.href, {
      stateToken: start.stateToken,
      factorType: 'token:software:totp',
      provider: 'GOOGLE',
    });
    const secret = activation._embedded!.factor!._embedded.activation.sharedSecret;
    const done = await follow(server, activation._links!.next!.href, {
      stateToken: activation.stateToken,
      passCode: totpCode(secret, -1),
    });
    assert.equal(done.status, 'SUCCESS');
    return { login, secret, accessToken: await exchange(server, done.sessionToken!) };
  };

  const validates = async (server: TestServer, token: string) =>
    (await post(server.baseUrl, authEndpoints.validate.path, { access_token: token })).status === 200;

  /** Every sealed value opened and written back in plain text. */
  const unseal = async (server: TestServer) => {
    const { db, secrets } = server.server;
    const factors = await sql<{ id: string; secret: string }>`
      select id, secret from idp_factor where secret is not null`.execute(db);
    for (const row of factors.rows)
      await sql`update idp_factor set secret = ${secrets.open(row.secret, `idp_factor.secret:${row.id}`)}
        where id = ${row.id}`.execute(db);
    const keys = await sql<{ kid: string; private_key_pem: string }>`
      select kid, private_key_pem from product_signing_key`.execute(db);
    for (const row of keys.rows)
      await sql`update product_signing_key
        set private_key_pem = ${secrets.open(row.private_key_pem, `product_signing_key.private_key_pem:${row.kid}`)}
        where kid = ${row.kid}`.execute(db);
    const material = await sql<{ name: string; material: string }>`
      select name, material #>> '{}' as material from idp_key`.execute(db);
    for (const row of material.rows)
      await sql`update idp_key set material = ${secrets.open(row.material, `idp_key.material:${row.name}`)}::jsonb
        where name = ${row.name}`.execute(db);
  };

  /** A webhook endpoint of the lender's: its signing secret, which the answer alone shows. */
  const addWebhookEndpoint = async (server: TestServer) => {
    const added = await json<{ secret: string }>(
      await post(
        server.baseUrl,
        webhookEndpoints.addEndpoint.path,
        { url: 'https://los.lender.example/hooks' },
        {
          authorization: `Bearer ${OPERATOR_SECRET}`,
        },
      ),
    );
    assert.equal(added.status, 201);
    return added.body.secret.slice('whsec_'.length);
  };

  const rotateWithCli = async (server: TestServer) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      ['rotate-secrets-key', '--json'],
      { PORTAL_URL: server.baseUrl, OPERATOR_CREDENTIAL: OPERATOR_SECRET },
      { out: (line) => out.push(line), err: (line) => err.push(line) },
    );
    assert.equal(code, 0, err.join('\n'));
    return JSON.parse(out.join('\n')) as { activeKeyId: string; resealed: number };
  };

  it('keeps no secret in plain text; seals older plain rows at start-up; a key rotation keeps everything working', async () => {
    const database = await deployment();
    // One origin for the deployment's successive portals, so tokens issued by one are another's.
    const port = String(await freePort());
    const first = await start(database, k1, port);
    const borrower = await enrol(first);
    const webhookSecret = await addWebhookEndpoint(first);
    assertAllSealedWith(await rawRows(first), 'k1', [borrower.secret, webhookSecret]);

    // As a database from before sealing began holds them: the same values in plain text.
    await unseal(first);
    const plain = await rawRows(first);
    assert.ok(plain.factorSecrets.includes(borrower.secret) && plain.privateKeys[0]!.includes('PRIVATE KEY'));
    await stop(first);
    const upgraded = await start(database, k1, port);
    assertAllSealedWith(await rawRows(upgraded), 'k1', [borrower.secret, webhookSecret]);
    assert.ok(await validates(upgraded, borrower.accessToken), 'an access token issued before');
    assert.ok(await validates(upgraded, await signIn(upgraded, borrower.login, borrower.secret, 0)));
    await stop(upgraded);

    // The new key first, the old one still opening what it sealed; then every secret sealed again.
    const both = await start(database, `${k2},${k1}`, port);
    const rotation = await rotateWithCli(both);
    assert.equal(rotation.activeKeyId, 'k2');
    // the factor, the API's key, the provider's two, the webhook endpoint's secret
    assert.ok(rotation.resealed >= 5, JSON.stringify(rotation));
    assertAllSealedWith(await rawRows(both), 'k2', [borrower.secret, webhookSecret]);
    await stop(both);

    // The old key gone: the factor's codes still verify, tokens still validate, the provider still signs.
    const only = await start(database, k2, port);
    assert.ok(await validates(only, borrower.accessToken), 'an access token issued under k1');
    const again = await signIn(only, borrower.login, borrower.secret, 1);
    assert.ok(await validates(only, again));
    assert.equal((await rotateWithCli(only)).resealed, 0, 'nothing left to seal again');
  });
});
