import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  createIdentityProvider,
  LoginAlreadyExistsError,
  OWASP_PASSWORD_HASH_COST,
  type PasswordHashCost,
} from '../src/index.js';
import { passwordHasher } from '../src/passwords.js';
import { quietProviderOptions, TEST_PASSWORD_HASH_COST } from '../testing/index.js';
import { authn, openTestDb, PASSWORD, startApp, TEST_SECRETS, type TestApp, type TestDb } from './support.js';

/** How an argon2id hash made at `cost` begins: argon2 writes its parameters into the hash. */
const hashPrefix = (cost: PasswordHashCost) =>
  `$argon2id$v=19$m=${cost.memoryCost},t=${cost.timeCost},p=${cost.parallelism}$`;

describe('users and session tokens', () => {
  let testDb: TestDb;
  let server: TestApp;

  before(async () => {
    testDb = await openTestDb('pglite');
    server = await startApp(testDb.db);
  });
  after(async () => {
    await server?.close();
    await testDb?.close();
  });

  test('create stores an argon2id hash at the provider’s cost and finds logins case-insensitively', async () => {
    const user = await server.idp.users.create({
      login: ' Mary@Example.com ',
      password: PASSWORD,
      firstName: 'Mary',
      lastName: 'Jackson',
    });
    assert.equal(user.login, 'Mary@Example.com');
    assert.equal(user.locale, 'en_US');
    assert.equal(user.timeZone, 'UTC');
    assert.equal(user.emailVerified, true);
    assert.ok(user.passwordChangedAt instanceof Date);
    assert.ok(user.createdAt instanceof Date);
    assert.deepEqual(await server.idp.users.findByLogin('mary@example.COM'), user);
    assert.deepEqual(await server.idp.users.findById(user.id), user);
    assert.equal(await server.idp.users.findById('nope'), undefined);
    assert.equal(await server.idp.users.findByLogin('nobody@example.com'), undefined);

    const row = await testDb.db
      .selectFrom('idp_user')
      .select('password_hash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    assert.ok(row.password_hash.startsWith(hashPrefix(TEST_PASSWORD_HASH_COST)), row.password_hash);
    assert.ok(!row.password_hash.includes(PASSWORD));
  });

  test('a provider created without a hash cost hashes at OWASP’s parameters; hashes of either cost verify at both', async () => {
    // As production creates it: no passwordHashCost.
    const production = await createIdentityProvider({
      db: testDb.db,
      secrets: TEST_SECRETS,
      issuer: server.issuer,
      ...quietProviderOptions(),
      passwordHashCost: undefined,
    });
    const storedHash = async (id: string) =>
      (
        await testDb.db
          .selectFrom('idp_user')
          .select('password_hash')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).password_hash;
    try {
      const grace = await production.users.create({
        login: 'grace.hopper@example.com',
        password: PASSWORD,
        firstName: 'Grace',
        lastName: 'Hopper',
      });
      assert.ok((await storedHash(grace.id)).startsWith('$argon2id$v=19$m=19456,t=2,p=1$'));
      // The tests' cheap cost is theirs alone: what their helpers give is not what production gets.
      assert.notDeepEqual(TEST_PASSWORD_HASH_COST, OWASP_PASSWORD_HASH_COST);
      const annie = await server.idp.users.create({
        login: 'annie.easley@example.com',
        password: PASSWORD,
        firstName: 'Annie',
        lastName: 'Easley',
      });
      assert.ok(!(await storedHash(annie.id)).startsWith('$argon2id$v=19$m=19456,t=2,p=1$'));

      // A hash carries its parameters: one database may hold hashes of both costs, and each signs in.
      const network = '192.0.2.10';
      assert.equal(await production.users.verifyPassword(annie.id, PASSWORD, network), true);
      assert.equal(await server.idp.users.verifyPassword(grace.id, PASSWORD, network), true);
      assert.equal(await server.idp.users.verifyPassword(grace.id, 'Wrong-password-1', network), false);
      assert.equal((await authn(server.baseUrl, { username: grace.login, password: PASSWORD })).status, 200);
      // A new password is hashed at the cost of the provider that sets it.
      await production.users.setPassword(annie.id, 'New-password-3');
      assert.ok((await storedHash(annie.id)).startsWith('$argon2id$v=19$m=19456,t=2,p=1$'));
    } finally {
      await production.close();
    }
  });

  test('the dummy hash an unknown login is checked against is made at the cost of real ones', async () => {
    for (const cost of [OWASP_PASSWORD_HASH_COST, TEST_PASSWORD_HASH_COST]) {
      const passwords = passwordHasher(cost);
      const dummy = await passwords.dummyHash();
      assert.ok(dummy.startsWith(hashPrefix(cost)), dummy);
      assert.ok((await passwords.hash(PASSWORD)).startsWith(hashPrefix(cost)));
      assert.equal(await passwords.dummyHash(), dummy, 'made once');
    }
  });

  test('create refuses a taken login, whatever its case', async () => {
    await server.idp.users.create({
      login: 'kath@example.com',
      password: PASSWORD,
      firstName: 'K',
      lastName: 'J',
    });
    await assert.rejects(
      server.idp.users.create({
        login: 'KATH@example.com',
        password: PASSWORD,
        firstName: 'K',
        lastName: 'J',
      }),
      LoginAlreadyExistsError,
    );
  });

  test('create validates its input', async () => {
    await assert.rejects(
      server.idp.users.create({ login: '', password: PASSWORD, firstName: 'A', lastName: 'B' }),
    );
    await assert.rejects(
      server.idp.users.create({
        login: 'tz@example.com',
        password: PASSWORD,
        firstName: 'A',
        lastName: 'B',
        timeZone: 'Mars/Base',
      }),
    );
  });

  test('ensure is idempotent and never overwrites a password', async () => {
    const input = {
      login: 'dorothy@example.com',
      password: PASSWORD,
      firstName: 'Dorothy',
      lastName: 'Vaughan',
    };
    const [a, b] = await Promise.all([server.idp.users.ensure(input), server.idp.users.ensure(input)]);
    assert.equal(a.id, b.id);
    const again = await server.idp.users.ensure({
      ...input,
      password: 'Another-password-2',
      firstName: 'Changed',
    });
    assert.deepEqual(again, a);
    assert.equal((await authn(server.baseUrl, { username: input.login, password: PASSWORD })).status, 200);
    assert.equal(
      (await authn(server.baseUrl, { username: input.login, password: 'Another-password-2' })).status,
      401,
    );
  });

  test('setPassword replaces the password, stamps the change and lifts lockouts', async () => {
    const user = await server.idp.users.create({
      login: 'hedy@example.com',
      password: PASSWORD,
      firstName: 'Hedy',
      lastName: 'Lamarr',
    });
    const address = { 'x-forwarded-for': '203.0.113.200' };
    for (let i = 0; i < 10; i += 1)
      await authn(server.baseUrl, { username: 'hedy@example.com', password: 'Wrong-1' }, address);
    assert.equal(
      (await authn(server.baseUrl, { username: 'hedy@example.com', password: PASSWORD }, address)).status,
      401,
    );

    await server.idp.users.setPassword(user.id, 'New-password-3');
    const updated = await server.idp.users.findById(user.id);
    assert.ok(updated && updated.passwordChangedAt >= user.passwordChangedAt);
    assert.equal(
      (await authn(server.baseUrl, { username: 'hedy@example.com', password: PASSWORD }, address)).status,
      401,
    );
    const ok = await authn(
      server.baseUrl,
      { username: 'hedy@example.com', password: 'New-password-3' },
      address,
    );
    assert.equal(ok.status, 200);
    const embedded = ok.body._embedded as { user: { passwordChanged: string } };
    assert.equal(embedded.user.passwordChanged, updated?.passwordChangedAt.toISOString());
    await assert.rejects(server.idp.users.setPassword('no-such-user', 'New-password-3'));
  });

  test('session tokens are stored hashed, with a 300 s default lifetime', async () => {
    const user = await server.idp.users.create({
      login: 'annie@example.com',
      password: PASSWORD,
      firstName: 'Annie',
      lastName: 'Easley',
    });
    const { sessionToken, expiresAt } = await server.idp.issueSessionToken(user.id);
    assert.ok(Buffer.from(sessionToken, 'base64url').length >= 32);
    const lifetime = expiresAt.getTime() - Date.now();
    assert.ok(lifetime > 290_000 && lifetime <= 301_000, `${lifetime}`);
    const rows = await testDb.db
      .selectFrom('idp_session_token')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.token_hash, createHash('sha256').update(sessionToken).digest('hex'));
    assert.equal(rows[0]?.consumed_at, null);
    await assert.rejects(server.idp.issueSessionToken('no-such-user'));
  });

  test('purgeExpired removes expired artefacts only', async () => {
    const user = await server.idp.users.create({
      login: 'purge@example.com',
      password: PASSWORD,
      firstName: 'P',
      lastName: 'E',
    });
    const live = await server.idp.issueSessionToken(user.id);
    const dead = await server.idp.issueSessionToken(user.id);
    await testDb.db
      .updateTable('idp_session_token')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('token_hash', '=', createHash('sha256').update(dead.sessionToken).digest('hex'))
      .execute();
    await testDb.db
      .insertInto('idp_oidc_model')
      .values([
        { model: 'AccessToken', id: 'old', payload: '{}', expires_at: new Date(Date.now() - 1000) },
        { model: 'AccessToken', id: 'new', payload: '{}', expires_at: new Date(Date.now() + 60_000) },
      ])
      .execute();
    await server.idp.purgeExpired();
    const tokens = await testDb.db
      .selectFrom('idp_session_token')
      .select('token_hash')
      .where('user_id', '=', user.id)
      .execute();
    assert.deepEqual(
      tokens.map((t) => t.token_hash),
      [createHash('sha256').update(live.sessionToken).digest('hex')],
    );
    const models = await testDb.db
      .selectFrom('idp_oidc_model')
      .select('id')
      .where('model', '=', 'AccessToken')
      .execute();
    assert.deepEqual(
      models.map((m) => m.id),
      ['new'],
    );
  });
});
