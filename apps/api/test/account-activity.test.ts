import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { sql } from 'kysely';
import {
  operatorEndpoints,
  accountEndpoints,
  activityEndpoints,
  authEndpoints,
  type SecurityActivityPage,
  type SecurityEvent,
} from '@customer-core/contracts';
import { signInThroughIdp, startTestServer, type TestServer } from '../testing/index.js';
import { authn, createUser } from './support/links.js';
import { call } from './support/loans.js';
import { json, post } from './support/session.js';

// Devices as the API answers them: the browser's and the system's names.
const CHROME_ON_WINDOWS = { browser: 'Chrome', system: 'Windows' };
const SAFARI_ON_IOS = { browser: 'Safari', system: 'iOS' };

// The borrower's security activity (/api/account/activity) and the operators' view of it.

const OPERATOR_SECRET = 'operator-secret-for-activity-tests-0123456789';
const LOOKUP_SECRET = 'lookup-secret-for-activity-tests-0123456789ab';
const CURRENT = 'Original-Pass-1';
const LAPTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
/** Words a stranger would like the borrower to read on the lender's page. */
const STRANGERS_WORDS = /1-800-555-0199/;
/**
 * A User-Agent and an address of the stranger's choosing, in shapes a lenient parser reads as names,
 * and what the borrower may be shown of them: a browser or system the parser knows, a network.
 */
const HOSTILE_CLIENTS = [
  {
    userAgent: 'Main Street Funding security: call 1-800-555-0199 now',
    address: '192.0.2.10',
    shown: [null, '192.0.2.0/24'],
  },
  {
    userAgent: 'Main Street Funding security: call 1-800-555-0199 now/1 (urgent)',
    address: 'Call.1-800-555-0199:now',
    shown: [null, null],
  },
  {
    userAgent: 'Main Street Funding security/1 call 1-800-555-0199 now',
    address: '192.0.2.10',
    shown: [null, '192.0.2.0/24'],
  },
  {
    userAgent: 'Mozilla/5.0 (Windows NT 10.0) Main Street Funding call 1-800-555-0199/1 ',
    address: '192.0.2.10',
    shown: [{ browser: null, system: 'Windows' }, '192.0.2.0/24'],
  },
  {
    userAgent: 'Call 1-800-555-0199 now/2.0 (Main Street Funding)',
    address: '::call:1-800-555-0199.now',
    shown: [null, null],
  },
] as const;

describe(`the borrower's security activity`, () => {
  let server: TestServer;
  let url: string;

  before(async () => {
    server = await startTestServer('pglite', {
      TRUST_PROXY: 'true',
      SERVICE_CREDENTIALS: `ops:operator:${OPERATOR_SECRET},crm:lookup-tokens:${LOOKUP_SECRET}`,
    });
    url = server.baseUrl;
  });
  after(() => server?.close());

  /** Signs in from a device at a full client address (behind the trusted proxy). */
  async function signIn(user: { login: string; password: string }, userAgent: string, address: string) {
    const { idToken } = await signInThroughIdp(url, { username: user.login, password: user.password });
    const { status, body } = await json<{ access_token: string }>(
      await post(
        url,
        authEndpoints.tokenExchange.path,
        { token: idToken },
        { 'user-agent': userAgent, 'x-forwarded-for': address },
      ),
    );
    assert.equal(status, 200);
    return { token: body.access_token, sid: String(decodeJwt(body.access_token).sid) };
  }
  const page = async (token: string, query = '') => {
    const { status, body } = await call(url, 'GET', `${activityEndpoints.account.path}${query}`, token);
    assert.equal(status, 200, JSON.stringify(body));
    return body as SecurityActivityPage;
  };
  const summary = (events: SecurityEvent[]) =>
    events.map(({ kind, device, approximateAddress, method, endedBy }) => ({
      kind,
      device,
      approximateAddress,
      method,
      endedBy,
    }));

  it('records sign-ins, sessions ended by the borrower and by a password change, and the change itself', async () => {
    const user = await createUser(server, CURRENT);
    const laptop = await signIn(user, LAPTOP, '198.51.100.23');
    const phone = await signIn(user, PHONE, '203.0.113.77');
    const tablet = await signIn(user, PHONE, '2001:db8:1:2:3:4:5:6');

    const ended = await call(
      url,
      'POST',
      accountEndpoints.endSession.href({ sessionId: phone.sid }),
      laptop.token,
    );
    assert.equal(ended.status, 200);
    const changed = await json(
      await post(
        url,
        accountEndpoints.password.path,
        { currentPassword: CURRENT, newPassword: 'Fresh-Start-29', signOutOtherSessions: true },
        {
          authorization: `Bearer ${laptop.token}`,
          'user-agent': LAPTOP,
          'x-forwarded-for': '198.51.100.23',
        },
      ),
    );
    assert.equal(changed.status, 200, JSON.stringify(changed.body));

    const { events, next } = await page(laptop.token);
    assert.equal(next, null);
    assert.deepEqual(summary(events), [
      {
        kind: 'session_ended',
        device: SAFARI_ON_IOS,
        approximateAddress: '2001:db8:1:2::/64',
        method: null,
        endedBy: 'password_change',
      },
      {
        kind: 'password_changed',
        device: CHROME_ON_WINDOWS,
        approximateAddress: '198.51.100.0/24',
        method: null,
        endedBy: null,
      },
      {
        kind: 'session_ended',
        device: SAFARI_ON_IOS,
        approximateAddress: '203.0.113.0/24',
        method: null,
        endedBy: 'borrower',
      },
      ...[
        [SAFARI_ON_IOS, '2001:db8:1:2::/64'],
        [SAFARI_ON_IOS, '203.0.113.0/24'],
        [CHROME_ON_WINDOWS, '198.51.100.0/24'],
      ].map(([device, approximateAddress]) => ({
        kind: 'signed_in',
        device,
        approximateAddress,
        method: 'password',
        endedBy: null,
      })),
    ]);
    const times = events.map((e) => Date.parse(e.occurredAt));
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
    );
    // Never a token, a session id, a password or a full address in what is shown.
    const shown = JSON.stringify(events);
    for (const secret of [
      laptop.token,
      phone.sid,
      tablet.sid,
      CURRENT,
      'Fresh-Start-29',
      '198.51.100.23',
      '203.0.113.77',
    ])
      assert.ok(!shown.includes(secret), secret);
  });

  it('records a lookup-token sign-in and sessions ended by an operator', async () => {
    const user = await createUser(server);
    const own = await signIn(user, LAPTOP, '198.51.100.23');
    const borrowerId = String(decodeJwt(own.token).sub);
    const minted = await call(url, 'POST', authEndpoints.mintLookupToken.path, LOOKUP_SECRET, {
      borrowerId,
    });
    const exchanged = await json<{ access_token: string }>(
      await post(
        url,
        authEndpoints.lookupTokenExchange.path,
        { token: minted.body.token },
        { 'user-agent': PHONE },
      ),
    );
    assert.equal(exchanged.status, 200);
    const all = await call(url, 'POST', operatorEndpoints.endAllSessions.path, OPERATOR_SECRET, {
      email: user.login,
    });
    assert.deepEqual(all.body, { ended: 2 });

    const again = await signIn(user, LAPTOP, '198.51.100.23');
    const { events } = await page(again.token);
    assert.deepEqual(
      events.map((e) => [e.kind, e.method ?? e.endedBy, e.device]),
      [
        ['signed_in', 'password', CHROME_ON_WINDOWS],
        // Both by the operator in one request, the newest session ended first (so listed below),
        // though the two may be written within one millisecond.
        ['session_ended', 'operator', CHROME_ON_WINDOWS],
        ['session_ended', 'operator', SAFARI_ON_IOS],
        ['signed_in', 'lookup_token', SAFARI_ON_IOS],
        ['signed_in', 'password', CHROME_ON_WINDOWS],
      ],
    );
  });

  it('shows a streak of failed sign-ins as one entry, ended by a sign-in, and a lockout of its own', async () => {
    const user = await createUser(server);
    const wrong = async (times: number, address: string) => {
      for (let i = 0; i < times; i++)
        assert.equal((await authn(url, user.login, 'Not-The-Password-5', address)).status, 401);
    };
    await wrong(3, '192.0.2.10');
    const { token } = await signIn(user, LAPTOP, '198.51.100.23');
    // Ten from one network lock the account for that network.
    await wrong(10, '192.0.2.20');

    const { events } = await page(token);
    const seen = events.map(({ kind, attempts, approximateAddress }) => ({
      kind,
      attempts,
      approximateAddress,
    }));
    // The lockout and the failure that started it may share a millisecond: either order.
    assert.deepEqual(
      seen.slice(0, 2).sort((a, b) => a.kind.localeCompare(b.kind)),
      [
        { kind: 'account_locked', attempts: null, approximateAddress: '192.0.2.0/24' },
        { kind: 'failed_sign_ins', attempts: 10, approximateAddress: '192.0.2.0/24' },
      ],
    );
    assert.deepEqual(seen.slice(2), [
      { kind: 'signed_in', attempts: null, approximateAddress: '198.51.100.0/24' },
      { kind: 'failed_sign_ins', attempts: 3, approximateAddress: '192.0.2.0/24' },
    ]);
    // Paged one at a time, the directory's entries come once each, in the same order.
    const ids: string[] = [];
    let query = '?limit=1';
    for (;;) {
      const one = await page(token, query);
      ids.push(...one.events.map((e) => e.id));
      if (!one.next) break;
      query = `?limit=1&after=${encodeURIComponent(one.next)}`;
    }
    assert.deepEqual(
      ids,
      events.map((e) => e.id),
    );
    // Another borrower sees none of it.
    const other = await signIn(await createUser(server), PHONE, '203.0.113.77');
    assert.deepEqual(
      (await page(other.token)).events.map((e) => e.kind),
      ['signed_in'],
    );
  });

  it('shows no words a stranger sent: the parsed browser and system, or none, and a network only', async () => {
    const user = await createUser(server);
    // A stranger who knows the address signs in wrongly, writing whatever they like as their browser
    // (or, where the proxy is trusted and bypassed, as their address): the streak shows the last.
    for (const { userAgent, address } of HOSTILE_CLIENTS) {
      const wrong = await post(
        url,
        '/api/v1/authn',
        { username: user.login, password: 'Not-The-Password-5' },
        { 'user-agent': userAgent, 'x-forwarded-for': address },
      );
      assert.equal(wrong.status, 401);
    }
    // The same words from browsers that did sign in.
    for (const { userAgent, address } of HOSTILE_CLIENTS) await signIn(user, userAgent, address);
    const own = await signIn(user, LAPTOP, '198.51.100.23');

    const { events } = await page(own.token, '?limit=50');
    const sessions = await call(url, 'GET', accountEndpoints.sessions.path, own.token);
    const operators = await call(
      url,
      'GET',
      `${operatorEndpoints.activity.path}?email=${encodeURIComponent(user.login)}&limit=50`,
      OPERATOR_SECRET,
    );
    for (const shown of [events, sessions.body, operators.body])
      assert.doesNotMatch(JSON.stringify(shown), STRANGERS_WORDS);
    assert.deepEqual(
      events.map(({ kind, attempts, device, approximateAddress }) => [
        kind,
        attempts,
        device,
        approximateAddress,
      ]),
      [
        ['signed_in', null, CHROME_ON_WINDOWS, '198.51.100.0/24'],
        ...HOSTILE_CLIENTS.map(({ shown }) => ['signed_in', null, ...shown]).reverse(),
        ['failed_sign_ins', HOSTILE_CLIENTS.length, ...HOSTILE_CLIENTS.at(-1)!.shown],
      ],
    );
  });

  it('pages newest first by time and id, every event once, and shows only the last 90 days', async () => {
    const user = await createUser(server);
    const signIns = [];
    for (let i = 0; i < 5; i++) signIns.push(await signIn(user, LAPTOP, '198.51.100.23'));
    const token = signIns.at(-1)!.token;
    const borrowerId = String(decodeJwt(token).sub);
    // Two events in the same millisecond, and one from before the 90 days.
    const db = server.server.db;
    const sameInstant = new Date(Date.now() - 60_000);
    await db
      .insertInto('security_event')
      .values([
        { borrower_id: borrowerId, kind: 'password_changed', occurred_at: sameInstant },
        { borrower_id: borrowerId, kind: 'password_changed', occurred_at: sameInstant },
        {
          borrower_id: borrowerId,
          kind: 'password_changed',
          occurred_at: sql<Date>`now() - interval '91 days'`,
        },
      ])
      .execute();

    const whole = (await page(token, '?limit=50')).events;
    assert.equal(whole.length, 7);
    const seen: SecurityEvent[] = [];
    let query = '?limit=2';
    const sizes: number[] = [];
    for (;;) {
      const { events, next } = await page(token, query);
      sizes.push(events.length);
      seen.push(...events);
      if (!next) break;
      query = `?limit=2&after=${encodeURIComponent(next)}`;
    }
    assert.deepEqual(sizes, [2, 2, 2, 1]);
    assert.deepEqual(
      seen.map((e) => e.id),
      whole.map((e) => e.id),
    );
    assert.equal(new Set(seen.map((e) => e.id)).size, 7);
  });

  it("never shows another borrower's events", async () => {
    const mine = await signIn(await createUser(server), LAPTOP, '198.51.100.23');
    const theirs = await signIn(await createUser(server), PHONE, '203.0.113.77');
    const theirEvents = (await page(theirs.token)).events;
    const { events } = await page(mine.token, '?limit=50');
    assert.deepEqual(
      events.map((e) => [e.kind, e.device]),
      [['signed_in', CHROME_ON_WINDOWS]],
    );
    // Their cursor pages through my events only.
    const { next } = await page(theirs.token, '?limit=1');
    assert.equal(next, null);
    assert.equal(theirEvents.length, 1);
    const cursor = `${Date.parse(theirEvents[0]!.occurredAt).toString(36)}.${theirEvents[0]!.id}`;
    assert.deepEqual(
      (await page(mine.token, `?after=${cursor}`)).events.map((e) => e.kind),
      ['signed_in'],
    );
  });

  it('refuses a bad query with 400 and a clear message, and callers without a current token with 401', async () => {
    const { token } = await signIn(await createUser(server), LAPTOP, '198.51.100.23');
    for (const query of [
      '?limit=0',
      '?limit=51',
      '?limit=two',
      '?limit=1.5',
      '?after=nonsense',
      '?after=zzzzzzzzzzzzz.x',
      '?after=1.%27%20or%201=1',
      '?colour=red',
    ]) {
      const refused = await call(url, 'GET', `${activityEndpoints.account.path}${query}`, token);
      assert.equal(refused.status, 400, query);
      assert.ok(String(refused.body.message).length > 0, query);
    }
    const malformed = await call(url, 'GET', `${activityEndpoints.account.path}?after=nonsense`, token);
    assert.match(String(malformed.body.message), /That page of activity doesn’t exist/);
    await call(url, 'POST', authEndpoints.logout.path, undefined, { access_token: token });
    for (const caller of [undefined, token])
      assert.equal((await call(url, 'GET', activityEndpoints.account.path, caller)).status, 401);
  });

  describe('operators', () => {
    const operatorPage = (query: string, secret: string | null = OPERATOR_SECRET) =>
      call(url, 'GET', `${operatorEndpoints.activity.path}?${query}`, secret ?? undefined);

    it('read the same events by e-mail address, paged', async () => {
      const user = await createUser(server);
      const laptop = await signIn(user, LAPTOP, '198.51.100.23');
      await signIn(user, PHONE, '203.0.113.77');
      const borrowers = await page(laptop.token);
      const first = await operatorPage(`email=${encodeURIComponent(user.login.toUpperCase())}&limit=1`);
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const second = await operatorPage(
        `email=${encodeURIComponent(user.login)}&limit=1&after=${encodeURIComponent(String(first.body.next))}`,
      );
      assert.deepEqual(
        [first.body, second.body].flatMap((body) => (body as SecurityActivityPage).events),
        borrowers.events,
      );
      assert.equal(second.body.next, null);
    });

    it('need the operator credential; refuse bad queries with 400 and unknown borrowers with 404', async () => {
      const user = await createUser(server);
      const { token } = await signIn(user, LAPTOP, '198.51.100.23');
      const email = `email=${encodeURIComponent(user.login)}`;
      assert.equal((await operatorPage(email, null)).status, 401);
      assert.equal((await operatorPage(email, 'not-a-credential-of-anyone-0123456789')).status, 401);
      assert.equal((await operatorPage(email, LOOKUP_SECRET)).status, 403);
      assert.equal((await operatorPage(email, token)).status, 403);
      assert.equal((await operatorPage('email=not-an-address')).status, 400);
      assert.equal((await operatorPage('')).status, 400);
      assert.equal((await operatorPage(`${email}&limit=0`)).status, 400);
      assert.equal((await operatorPage(`${email}&after=nonsense`)).status, 400);
      const unknown = await operatorPage('email=nobody-here%40example.com');
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.message, 'No borrower has that email address.');
    });
  });
});
