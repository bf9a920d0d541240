import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import {
  apiToken,
  authn,
  newUser,
  oktaApi,
  openTestDb,
  PASSWORD,
  startApp,
  type TestApp,
  type TestDb,
} from './support.js';

// Okta's System Log API (GET /api/v1/logs): failed sign-ins and lockouts, behind the Users API's token.

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

interface LogEvent {
  uuid: string;
  published: string;
  eventType: string;
  actor: Record<string, unknown>;
  client: { ipAddress: string | null; userAgent: { rawUserAgent: string } | null };
  outcome: { result: string; reason: string | null };
}

describe('System Log API', () => {
  const token = apiToken();
  let testDb: TestDb;
  let server: TestApp;
  const logs = (query: string, options: { token?: string; authorization?: string } = { token }) =>
    oktaApi(server.baseUrl, 'GET', `/api/v1/logs${query}`, options);
  const events = (body: unknown) => body as LogEvent[];

  before(async () => {
    testDb = await openTestDb('pglite');
    server = await startApp(testDb.db, { apiTokens: [token] });
  });
  after(async () => {
    await server?.close();
    await testDb?.close();
  });

  const createUser = () => newUser(server, 'logged', { firstName: 'Dorothy', lastName: 'Vaughan' });
  const wrongPassword = (login: string, address: string) =>
    authn(
      server.baseUrl,
      { username: login, password: 'Not-the-password-9' },
      { 'x-forwarded-for': address, 'user-agent': CHROME },
    );
  const byUser = (id: string) => `?filter=${encodeURIComponent(`actor.id eq "${id}"`)}`;

  test('a wrong password is a user.session.start FAILURE in Okta’s LogEvent shape, without the full address', async () => {
    const user = await createUser();
    assert.equal((await wrongPassword(user.login, '203.0.113.45')).status, 401);
    // A right one is not logged here (the portal records its own sign-ins).
    assert.equal((await authn(server.baseUrl, { username: user.login, password: PASSWORD })).status, 200);

    const answer = await logs(byUser(user.id));
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const [event, ...rest] = events(answer.body);
    assert.equal(rest.length, 0);
    assert.equal(event!.eventType, 'user.session.start');
    assert.deepEqual(event!.outcome, { result: 'FAILURE', reason: 'INVALID_CREDENTIALS' });
    assert.deepEqual(
      { ...event!.actor },
      {
        id: user.id,
        type: 'User',
        alternateId: user.login,
        displayName: 'Dorothy Vaughan',
        detailEntry: null,
      },
    );
    assert.equal(event!.client.ipAddress, '203.0.113.0');
    assert.equal(event!.client.userAgent?.rawUserAgent, CHROME);
    assert.match(event!.published, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.match(event!.uuid, /^[0-9a-f-]{36}$/);
    assert.ok(!JSON.stringify(answer.body).includes('203.0.113.45'));
    assert.ok(!JSON.stringify(answer.body).includes('Not-the-password-9'));
    assert.match(String(answer.headers.get('link')), /rel="self"/);
  });

  test('a lockout is a user.account.lock after the failure that started it', async () => {
    const user = await createUser();
    for (let i = 0; i < 10; i++) await wrongPassword(user.login, '192.0.2.7');
    // The lockout is published a millisecond after its failure, which a read within that millisecond
    // (until: now) would not see yet: these read up to a minute ahead.
    const until = `&until=${new Date(Date.now() + 60_000).toISOString()}`;
    const filter = `actor.id eq "${user.id}" and (eventType eq "user.account.lock" or outcome.result eq "FAILURE")`;
    const answer = await logs(`?filter=${encodeURIComponent(filter)}&limit=1000${until}`);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const types = events(answer.body).map((e) => e.eventType);
    assert.equal(types.filter((t) => t === 'user.session.start').length, 10);
    assert.deepEqual(types.slice(-1), ['user.account.lock']);
    const locks = await logs(
      `?filter=${encodeURIComponent(`actor.id eq "${user.id}" and eventType eq "user.account.lock"`)}${until}`,
    );
    assert.equal(events(locks.body).length, 1);
  });

  test('since, until, sortOrder, limit and the Link rel="next" cursor', async () => {
    const user = await createUser();
    for (let i = 0; i < 3; i++) await wrongPassword(user.login, '198.51.100.9');
    // One from long ago, outside the default seven days.
    await testDb.db
      .insertInto('idp_security_event')
      .values({
        user_id: user.id,
        event_type: 'user.session.start',
        outcome: 'FAILURE',
        reason: 'INVALID_CREDENTIALS',
        published: sql<Date>`now() - interval '30 days'`,
      })
      .execute();
    assert.equal(events((await logs(byUser(user.id))).body).length, 3);
    const since = new Date(Date.now() - 40 * 86_400_000).toISOString();
    const all = events((await logs(`${byUser(user.id)}&since=${since}`)).body);
    assert.equal(all.length, 4);
    const descending = events((await logs(`${byUser(user.id)}&since=${since}&sortOrder=DESCENDING`)).body);
    assert.deepEqual(
      descending.map((e) => e.uuid),
      all.map((e) => e.uuid).reverse(),
    );
    const until = all[1]!.published;
    assert.equal(events((await logs(`${byUser(user.id)}&since=${since}&until=${until}`)).body).length, 1);

    // Two at a time, following the next links.
    const seen: string[] = [];
    let path: string | null = `${byUser(user.id)}&since=${since}&limit=2`;
    while (path) {
      const page = await logs(path);
      seen.push(...events(page.body).map((e) => e.uuid));
      const next = /<([^>]+)>; rel="next"/.exec(String(page.headers.get('link')))?.[1];
      path = next ? new URL(next).search : null;
    }
    assert.deepEqual(
      seen,
      all.map((e) => e.uuid),
    );
  });

  test('refuses bad queries with 400 in Okta’s error shape', async () => {
    for (const query of [
      '?filter=actor.id%20ne%20%22x%22',
      '?filter=password%20eq%20%22x%22',
      '?filter=actor.id%20eq%20x',
      '?filter=(actor.id%20eq%20%22x%22',
      '?since=yesterday',
      '?limit=0',
      '?limit=1001',
      '?sortOrder=UP',
      '?after=nonsense',
    ]) {
      const refused = await logs(query);
      assert.equal(refused.status, 400, query);
      assert.equal(refused.body.errorCode, 'E0000003', query);
    }
  });

  test('refuses instants and cursors the database cannot hold, and days the calendar has not, with 400', async () => {
    for (const query of [
      '?since=0000-01-01T00:00:00Z', // JavaScript's year 0; PostgreSQL has none
      '?since=%2B275760-09-13T00:00:00Z',
      '?until=2026-02-30T00:00:00Z',
      '?since=2026-01-01T24:00:00Z',
      `?since=2026-01-01T00:00:00.${'0'.repeat(100)}Z`,
      '?after=2d2mh7dt6o1.6f1c1bde-3b7a-4c55-9a4e-2f8d1c7e9b10', // past JavaScript's last instant
      '?after=2d2mh7dt6o0.6f1c1bde-3b7a-4c55-9a4e-2f8d1c7e9b10', // JavaScript's last, past year 9999
    ]) {
      const refused = await logs(query);
      assert.equal(refused.status, 400, query);
      assert.match(JSON.stringify(refused.body.errorCauses), /since, until|after/, query);
    }
    // The first and last instants both hold are fine, and a default window stops at the first.
    for (const query of [
      '?since=0001-01-01T00:00:00Z&until=9999-12-31T23:59:59.999Z',
      '?until=0001-01-01T00:00:00Z',
    ]) {
      const answer = await logs(query);
      assert.equal(answer.status, 200, `${query} ${JSON.stringify(answer.body)}`);
    }
  });

  test('needs the Users API token', async () => {
    assert.equal((await logs('', {})).status, 401);
    assert.equal((await logs('', { token: apiToken() })).status, 401);
    assert.equal((await logs('', { authorization: `Bearer ${token}` })).status, 401);
  });
});
