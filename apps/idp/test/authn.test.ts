import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PostgresQueryCompiler, sql, type KyselyPlugin } from 'kysely';
import {
  PORTAL,
  authn,
  clientAddressHeader,
  openTestDb,
  startApp,
  type TestApp,
  type TestDb,
  PASSWORD,
} from './support.js';
import { createLoginThrottle } from '../src/login-failure-repository.js';

describe('POST /api/v1/authn', () => {
  let testDb: TestDb;
  let server: TestApp;

  before(async () => {
    testDb = await openTestDb('pglite');
    server = await startApp(testDb.db);
    await server.idp.users.create({
      login: 'ada@example.com',
      password: PASSWORD,
      firstName: 'Ada',
      lastName: 'Lovelace',
      locale: 'en_GB',
      timeZone: 'Europe/London',
    });
  });
  after(async () => {
    await server?.close();
    await testDb?.close();
  });

  test('right credentials give an Okta SUCCESS transaction with a session token', async () => {
    const { status, body, response } = await authn(server.baseUrl, {
      username: 'ADA@example.com', // logins are case-insensitive
      password: PASSWORD,
      options: { warnBeforePasswordExpired: true, multiOptionalFactorEnroll: false },
    });
    assert.equal(status, 200);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.equal(body.status, 'SUCCESS');
    assert.match(body.sessionToken as string, /^[\w-]{43,}$/);
    const expiresIn = Date.parse(body.expiresAt as string) - Date.now();
    assert.ok(expiresIn > 280_000 && expiresIn <= 301_000, `expires in ${expiresIn} ms`);
    const user = (body._embedded as { user: Record<string, unknown> }).user;
    const found = await server.idp.users.findByLogin('ada@example.com');
    assert.equal(user.id, found?.id);
    assert.equal(user.passwordChanged, found?.passwordChangedAt.toISOString());
    assert.deepEqual(user.profile, {
      login: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      locale: 'en_GB',
      timeZone: 'Europe/London',
    });
  });

  test('control characters in the credentials are refused before any lookup: 400 E0000003', async () => {
    for (const body of [
      { username: 'ada@example.com\u0000', password: PASSWORD },
      { username: 'ada\u0001@example.com', password: PASSWORD },
      { username: 'ada@example.com', password: `${PASSWORD}\u0000` },
      { username: '\ud800', password: PASSWORD },
    ]) {
      const { status, body: answer } = await authn(server.baseUrl, body);
      assert.equal(status, 400, JSON.stringify(body));
      assert.equal(answer.errorCode, 'E0000003');
    }
  });

  test('unknown login and wrong password answer the same 401 E0000004', async () => {
    const unknown = await authn(server.baseUrl, { username: 'nobody@example.com', password: PASSWORD });
    const wrong = await authn(server.baseUrl, {
      username: 'ada@example.com',
      password: 'Wrong-password-1',
    });
    for (const { status, body } of [unknown, wrong]) {
      assert.equal(status, 401);
      assert.deepEqual(Object.keys(body).sort(), [
        'errorCauses',
        'errorCode',
        'errorId',
        'errorLink',
        'errorSummary',
      ]);
      assert.equal(body.errorCode, 'E0000004');
      assert.equal(body.errorSummary, 'Authentication failed');
      assert.equal(body.errorLink, 'E0000004');
      assert.deepEqual(body.errorCauses, []);
    }
    assert.notEqual(unknown.body.errorId, wrong.body.errorId);
    assert.deepEqual(
      [...unknown.response.headers.keys()].filter((h) => h !== 'date' && h !== 'content-length').sort(),
      [...wrong.response.headers.keys()].filter((h) => h !== 'date' && h !== 'content-length').sort(),
    );
  });

  test('malformed bodies get 4xx E0000003, never 5xx', async () => {
    const cases: Array<[string, unknown, Record<string, string>?]> = [
      ['invalid JSON', '{"username": "ada@example.com", "password": '],
      ['empty JSON object', {}],
      ['missing password', { username: 'ada@example.com' }],
      ['non-string username', { username: 42, password: PASSWORD }],
      ['array body', [1, 2]],
      ['null', 'null'],
      ['huge password', { username: 'ada@example.com', password: 'x'.repeat(5000) }],
      ['text/plain', 'username=ada', { 'content-type': 'text/plain' }],
      ['form body', 'username=ada&password=x', { 'content-type': 'application/x-www-form-urlencoded' }],
    ];
    for (const [name, body, headers] of cases) {
      const result = await authn(server.baseUrl, body, headers);
      assert.ok(result.status >= 400 && result.status < 500, `${name}: ${result.status}`);
      assert.equal(result.body.errorCode, 'E0000003', name);
    }
  });

  test('CORS: only the portal origin, with credentials and the Okta header', async () => {
    const preflight = (origin: string) =>
      fetch(`${server.baseUrl}/api/v1/authn`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,x-okta-user-agent-extended',
        },
      });
    const allowed = await preflight(PORTAL);
    assert.equal(allowed.status, 204);
    assert.equal(allowed.headers.get('access-control-allow-origin'), PORTAL);
    assert.equal(allowed.headers.get('access-control-allow-credentials'), 'true');
    assert.match(allowed.headers.get('access-control-allow-headers') ?? '', /X-Okta-User-Agent-Extended/i);
    assert.match(allowed.headers.get('access-control-allow-headers') ?? '', /Content-Type/i);
    assert.match(allowed.headers.get('access-control-allow-methods') ?? '', /POST/);

    const other = await preflight('https://evil.example');
    assert.equal(other.headers.get('access-control-allow-origin'), null);

    const fromPortal = await authn(
      server.baseUrl,
      { username: 'ada@example.com', password: PASSWORD },
      { origin: PORTAL },
    );
    assert.equal(fromPortal.status, 200);
    assert.equal(fromPortal.response.headers.get('access-control-allow-origin'), PORTAL);

    const fromElsewhere = await authn(
      server.baseUrl,
      { username: 'ada@example.com', password: PASSWORD },
      { origin: 'https://evil.example' },
    );
    assert.equal(fromElsewhere.status, 403);
    assert.equal(fromElsewhere.response.headers.get('access-control-allow-origin'), null);
    assert.equal(fromElsewhere.body.sessionToken, undefined);
  });

  test('10 failures from one address lock the account for that address only', async () => {
    await server.idp.users.create({
      login: 'grace@example.com',
      password: PASSWORD,
      firstName: 'Grace',
      lastName: 'Hopper',
    });
    const attacker = { 'x-forwarded-for': '203.0.113.66' };
    for (let i = 0; i < 10; i += 1) {
      const { status } = await authn(
        server.baseUrl,
        { username: 'grace@example.com', password: `Wrong-${i}` },
        attacker,
      );
      assert.equal(status, 401);
    }
    const locked = await authn(
      server.baseUrl,
      { username: 'grace@example.com', password: PASSWORD },
      attacker,
    );
    assert.equal(locked.status, 401);
    assert.equal(locked.body.errorCode, 'E0000004');
    assert.equal(locked.body.errorSummary, 'Authentication failed');
    assert.equal(locked.body.sessionToken, undefined);

    // The real user, elsewhere, is not locked out.
    const elsewhere = await authn(
      server.baseUrl,
      { username: 'grace@example.com', password: PASSWORD },
      { 'x-forwarded-for': '192.0.2.10' },
    );
    assert.equal(elsewhere.status, 200);

    // Only the last X-Forwarded-For entry (the load balancer's) counts: a forged prefix does not escape.
    const forged = await authn(
      server.baseUrl,
      { username: 'grace@example.com', password: PASSWORD },
      { 'x-forwarded-for': '10.9.8.7, 203.0.113.66' },
    );
    assert.equal(forged.status, 401);

    // When the lockout has run out, the right password works and the count starts again.
    await sql`update idp_login_failure set locked_until = now() - interval '1 second'`.execute(testDb.db);
    const afterwards = await authn(
      server.baseUrl,
      { username: 'grace@example.com', password: PASSWORD },
      attacker,
    );
    assert.equal(afterwards.status, 200);
  });

  test('a success resets the failure count', async () => {
    await server.idp.users.create({
      login: 'alan@example.com',
      password: PASSWORD,
      firstName: 'Alan',
      lastName: 'Turing',
    });
    const address = { 'x-forwarded-for': '203.0.113.77' };
    for (let round = 0; round < 2; round += 1) {
      for (let i = 0; i < 9; i += 1) {
        const { status } = await authn(
          server.baseUrl,
          { username: 'alan@example.com', password: 'Wrong-1' },
          address,
        );
        assert.equal(status, 401);
      }
      const { status } = await authn(
        server.baseUrl,
        { username: 'alan@example.com', password: PASSWORD },
        address,
      );
      assert.equal(status, 200, `round ${round}`);
    }
  });

  test('a right password does not end a lockout that began while it was checked', async () => {
    const throttle = createLoginThrottle(testDb.db, { maxFailures: 2 });
    const user = await server.idp.users.create({
      login: 'edsger@example.com',
      password: PASSWORD,
      firstName: 'Edsger',
      lastName: 'Dijkstra',
    });
    const address = '203.0.113.88';
    await throttle.recordFailure(user.id, address);
    assert.equal((await throttle.recordFailure(user.id, address)).lockedNow, true);
    assert.equal(await throttle.recordSuccess(user.id, address), false);
    assert.equal(await throttle.isLocked(user.id, address), true, 'the lockout stays');

    await sql`update idp_login_failure set locked_until = now() - interval '1 second'`.execute(testDb.db);
    assert.equal(await throttle.recordSuccess(user.id, address), true);
    const left = await testDb.db
      .selectFrom('idp_login_failure')
      .select('failures')
      .where('user_id', '=', user.id)
      .execute();
    assert.deepEqual(left, [], 'an expired lockout and its count are cleared');
  });

  test('more than 30 attempts a minute from one address get 429 in Okta shape', async () => {
    const address = clientAddressHeader();
    for (let i = 0; i < 30; i += 1) {
      const { status } = await authn(server.baseUrl, {}, address);
      assert.equal(status, 400);
    }
    const limited = await authn(server.baseUrl, { username: 'ada@example.com', password: PASSWORD }, address);
    assert.equal(limited.status, 429);
    assert.equal(limited.body.errorCode, 'E0000047');
    assert.ok(limited.response.headers.get('retry-after'));
  });

  test('a known and an unknown login run the same database statements, locked out or not', async () => {
    // Every statement the provider sends, as SQL text (parameters apart), in order.
    const statements: string[] = [];
    const compiler = new PostgresQueryCompiler();
    const recorder: KyselyPlugin = {
      transformQuery({ node, queryId }) {
        statements.push(compiler.compileQuery(node, queryId).sql);
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    const counted = await startApp(testDb.db.withPlugin(recorder));
    try {
      await counted.idp.users.create({
        login: 'barbara@example.com',
        password: PASSWORD,
        firstName: 'Barbara',
        lastName: 'Liskov',
      });
      const address = { 'x-forwarded-for': '203.0.113.99' };
      const statementsOf = async (username: string, password: string) => {
        statements.length = 0;
        const { status } = await authn(counted.baseUrl, { username, password }, address);
        assert.equal(status, 401);
        return [...statements];
      };
      const unknown = await statementsOf('nobody.at.all@example.com', 'Wrong-password-1');
      assert.ok(unknown.length > 0);
      assert.deepEqual(
        await statementsOf('barbara@example.com', 'Wrong-password-1'),
        unknown,
        'wrong password',
      );
      for (let i = 0; i < 10; i += 1) await statementsOf('barbara@example.com', `Wrong-${i}`);
      assert.deepEqual(
        await statementsOf('barbara@example.com', PASSWORD),
        unknown,
        'locked out, right password',
      );
      assert.deepEqual(await statementsOf('barbara@example.com', 'Wrong-password-1'), unknown, 'locked out');
    } finally {
      await counted.close();
    }
  });

  test('wrong passwords from 40 addresses stop at the account’s ceiling, which holds for an hour', async () => {
    await server.idp.users.create({
      login: 'katherine@example.com',
      password: PASSWORD,
      firstName: 'Katherine',
      lastName: 'Johnson',
    });
    const from = (n: number) => ({ 'x-forwarded-for': `192.0.2.${n}` });
    const attempt = (password: string, n: number) =>
      authn(server.baseUrl, { username: 'katherine@example.com', password }, from(n));
    // 19 wrong passwords: below the ceiling the right one still works.
    for (let n = 1; n <= 19; n += 1) assert.equal((await attempt(`Wrong-${n}`, n)).status, 401);
    assert.equal((await attempt(PASSWORD, 100)).status, 200);
    // The 20th reaches it; 40 addresses in all, 9 guesses each would change nothing.
    for (let n = 20; n <= 40; n += 1) assert.equal((await attempt(`Wrong-${n}`, n)).status, 401);
    const refused = await attempt(PASSWORD, 101);
    const wrong = await attempt('Wrong-again-1', 102);
    for (const answer of [refused, wrong]) {
      assert.equal(answer.status, 401);
      assert.equal(answer.body.errorCode, 'E0000004');
      assert.equal(answer.body.errorSummary, 'Authentication failed');
      assert.equal(answer.body.sessionToken, undefined);
    }
    assert.deepEqual(Object.keys(refused.body).sort(), Object.keys(wrong.body).sort());
    const counted = await testDb.db
      .selectFrom('idp_account_failure')
      .innerJoin('idp_user', 'idp_user.id', 'idp_account_failure.user_id')
      .select('failures')
      .where('login', '=', 'katherine@example.com')
      .executeTakeFirstOrThrow();
    assert.equal(counted.failures, 20, 'attempts refused at the ceiling are not counted');

    // An hour later (the clock moved in the database) the right password works again.
    await sql`update idp_account_failure set last_failure_at = last_failure_at - interval '1 hour'`.execute(
      testDb.db,
    );
    assert.equal((await attempt(PASSWORD, 103)).status, 200);
  });

  test('addresses in one IPv6 /64 share a lockout and a request limit', async () => {
    await server.idp.users.create({
      login: 'radia@example.com',
      password: PASSWORD,
      firstName: 'Radia',
      lastName: 'Perlman',
    });
    for (let i = 1; i <= 10; i += 1) {
      const { status } = await authn(
        server.baseUrl,
        { username: 'radia@example.com', password: `Wrong-${i}` },
        { 'x-forwarded-for': `2001:db8:1:2::${i.toString(16)}` },
      );
      assert.equal(status, 401);
    }
    const sameNetwork = await authn(
      server.baseUrl,
      { username: 'radia@example.com', password: PASSWORD },
      { 'x-forwarded-for': '2001:db8:1:2:ffff:ffff:ffff:fffe' },
    );
    assert.equal(sameNetwork.status, 401, 'locked for the whole /64');
    const otherNetwork = await authn(
      server.baseUrl,
      { username: 'radia@example.com', password: PASSWORD },
      { 'x-forwarded-for': '2001:db8:1:3::1' },
    );
    assert.equal(otherNetwork.status, 200);

    for (let i = 1; i <= 30; i += 1) {
      const { status } = await authn(
        server.baseUrl,
        {},
        { 'x-forwarded-for': `2001:db8:9:9::${i.toString(16)}` },
      );
      assert.equal(status, 400);
    }
    const limited = await authn(server.baseUrl, {}, { 'x-forwarded-for': '2001:db8:9:9:abcd::1' });
    assert.equal(limited.status, 429);
    assert.equal(limited.body.errorCode, 'E0000047');
  });

  test('no password ever reaches the logs', () => {
    const all = server.logs.join('\n');
    assert.ok(all.length > 0);
    assert.ok(!all.includes(PASSWORD));
    assert.ok(!all.includes('Wrong-password-1'));
  });
});
