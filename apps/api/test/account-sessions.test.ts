import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import {
  operatorEndpoints,
  accountEndpoints,
  authEndpoints,
  type AccountSession,
} from '@customer-core/contracts';
import { signInThroughIdp, startTestServer, type TestServer, untilAfter } from '../testing/index.js';
import { createUser } from './support/links.js';
import { call } from './support/loans.js';
import { json, post } from './support/session.js';
import { startTwoInstances, type TwoInstances } from './support/two-instances.js';

// Devices as the API answers them: the browser's and the system's names.
const CHROME_ON_WINDOWS = { browser: 'Chrome', system: 'Windows' };
const SAFARI_ON_IOS = { browser: 'Safari', system: 'iOS' };

// The borrower's own sign-in sessions (/api/account/sessions) and the operators' view of them.

const OPERATOR_SECRET = 'operator-secret-for-session-tests-0123456789';
const LOOKUP_SECRET = 'lookup-secret-for-session-tests-0123456789ab';
const LAPTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

interface SignedIn {
  token: string;
  sid: string;
  /** The identity provider's session the sign-in came from. */
  idpSid: string;
}

describe(`the borrower's sign-in sessions`, () => {
  let server: TestServer;
  let url: string;

  before(async () => {
    server = await startTestServer('pglite', {
      SERVICE_CREDENTIALS: `ops:operator:${OPERATOR_SECRET},crm:lookup-tokens:${LOOKUP_SECRET}`,
    });
    url = server.baseUrl;
  });
  after(() => server?.close());

  async function signIn(user: { login: string; password: string }, userAgent: string): Promise<SignedIn> {
    const { idToken } = await signInThroughIdp(url, { username: user.login, password: user.password });
    const { status, body } = await json<{ access_token: string }>(
      await post(url, authEndpoints.tokenExchange.path, { token: idToken }, { 'user-agent': userAgent }),
    );
    assert.equal(status, 200);
    return {
      token: body.access_token,
      sid: String(decodeJwt(body.access_token).sid),
      idpSid: String(decodeJwt(idToken).sid),
    };
  }

  const list = async (token: string) => {
    const { status, body } = await call(url, 'GET', accountEndpoints.sessions.path, token);
    assert.equal(status, 200, JSON.stringify(body));
    return body.sessions as AccountSession[];
  };
  const profile = async (token: string) => (await call(url, 'GET', authEndpoints.profile.path, token)).status;
  const endSession = (token: string | undefined, sessionId: string) =>
    call(url, 'POST', accountEndpoints.endSession.href({ sessionId }), token);
  const idpUserOf = async (login: string) =>
    (await server.server.identityProvider!.users.findByLogin(login))!;

  it('lists each sign-in newest first, with its device, network and how it began; the caller marked', async () => {
    const user = await createUser(server);
    const laptop = await signIn(user, LAPTOP);
    const phone = await signIn(user, PHONE);

    const sessions = await list(laptop.token);
    assert.deepEqual(
      sessions.map(({ id, current, device, approximateAddress, method }) => ({
        id,
        current,
        device,
        approximateAddress,
        method,
      })),
      [
        {
          id: phone.sid,
          current: false,
          device: SAFARI_ON_IOS,
          approximateAddress: '127.0.0.0/24',
          method: 'password',
        },
        {
          id: laptop.sid,
          current: true,
          device: CHROME_ON_WINDOWS,
          approximateAddress: '127.0.0.0/24',
          method: 'password',
        },
      ],
    );
    assert.ok(sessions.every((s) => Date.parse(s.lastActiveAt) >= Date.parse(s.createdAt)));
    // The phone sees the same two, itself marked.
    assert.deepEqual(
      (await list(phone.token)).map((s) => [s.id, s.current]),
      [
        [phone.sid, true],
        [laptop.sid, false],
      ],
    );
  });

  it('"Sign out" on another session ends its tokens and its identity-provider session, not this one', async () => {
    const user = await createUser(server);
    const laptop = await signIn(user, LAPTOP);
    const phone = await signIn(user, PHONE);
    const idpUser = await idpUserOf(user.login);
    const idp = server.server.identityProvider!;

    const ended = await endSession(laptop.token, phone.sid);
    assert.equal(ended.status, 200, JSON.stringify(ended.body));
    assert.deepEqual(ended.body, { ended: 1 });

    assert.equal(await profile(phone.token), 401);
    const refreshed = await json(await post(url, authEndpoints.tokenRefresh.path, { token: phone.token }));
    assert.equal(refreshed.status, 401);
    assert.equal(await idp.hasSession(phone.idpSid, idpUser.id), false);
    // The laptop is untouched, in the portal and at the identity provider.
    assert.equal(await profile(laptop.token), 200);
    assert.equal(await idp.hasSession(laptop.idpSid, idpUser.id), true);
    assert.deepEqual(
      (await list(laptop.token)).map((s) => s.id),
      [laptop.sid],
    );
    // Ended already: there is no such active session any more.
    assert.equal((await endSession(laptop.token, phone.sid)).status, 404);
  });

  it('"Sign out everywhere else" ends every other session and keeps this one', async () => {
    const user = await createUser(server);
    const here = await signIn(user, LAPTOP);
    const others = [await signIn(user, PHONE), await signIn(user, LAPTOP)];
    const { status, body } = await call(url, 'POST', accountEndpoints.endOtherSessions.path, here.token);
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body, { ended: 2 });
    for (const other of others) assert.equal(await profile(other.token), 401);
    assert.equal(await profile(here.token), 200);
    assert.deepEqual(
      (await list(here.token)).map((s) => s.id),
      [here.sid],
    );
    const nothingLeft = await call(url, 'POST', accountEndpoints.endOtherSessions.path, here.token);
    assert.deepEqual(nothingLeft.body, { ended: 0 });
  });

  it("refuses another borrower's session ids, unknown and malformed ones with 404; its own with 400", async () => {
    const mine = await signIn(await createUser(server), LAPTOP);
    const theirs = await signIn(await createUser(server), PHONE);

    for (const sessionId of [theirs.sid, crypto.randomUUID(), 'not-a-session', "1' or '1'='1"]) {
      const refused = await endSession(mine.token, sessionId);
      assert.equal(refused.status, 404, sessionId);
      assert.equal(refused.body.message, 'No active session of yours has that id.');
    }
    // Nothing of theirs ended.
    assert.equal(await profile(theirs.token), 200);
    assert.deepEqual(
      (await list(theirs.token)).map((s) => s.id),
      [theirs.sid],
    );
    // Never theirs in my list.
    assert.deepEqual(
      (await list(mine.token)).map((s) => s.id),
      [mine.sid],
    );

    const own = await endSession(mine.token, mine.sid);
    assert.equal(own.status, 400);
    assert.equal(own.body.error, 'current_session');
    assert.equal(await profile(mine.token), 200);
  });

  it('needs a current access token on every route', async () => {
    const signedOut = await signIn(await createUser(server), LAPTOP);
    await call(url, 'POST', authEndpoints.logout.path, undefined, { access_token: signedOut.token });
    for (const token of [undefined, signedOut.token]) {
      assert.equal((await call(url, 'GET', accountEndpoints.sessions.path, token)).status, 401);
      assert.equal((await endSession(token, crypto.randomUUID())).status, 401);
      assert.equal((await call(url, 'POST', accountEndpoints.endOtherSessions.path, token)).status, 401);
    }
  });

  it('records a lookup-token sign-in as such, with its device and network', async () => {
    const user = await createUser(server);
    const borrowerId = String(decodeJwt((await signIn(user, LAPTOP)).token).sub);
    const minted = await call(url, 'POST', authEndpoints.mintLookupToken.path, LOOKUP_SECRET, {
      borrowerId,
    });
    assert.equal(minted.status, 200, JSON.stringify(minted.body));
    const exchanged = await json<{ access_token: string }>(
      await post(
        url,
        authEndpoints.lookupTokenExchange.path,
        { token: minted.body.token },
        { 'user-agent': PHONE },
      ),
    );
    const [newest] = await list(exchanged.body.access_token);
    assert.deepEqual(
      { method: newest?.method, device: newest?.device, current: newest?.current },
      { method: 'lookup_token', device: SAFARI_ON_IOS, current: true },
    );
  });

  describe('operators', () => {
    const operator = (method: 'GET' | 'POST', path: string, body?: unknown, secret = OPERATOR_SECRET) =>
      call(url, method, path, secret, body);

    it('list a borrower’s sessions by e-mail, end one, then all', async () => {
      const user = await createUser(server);
      const laptop = await signIn(user, LAPTOP);
      const phone = await signIn(user, PHONE);
      const listed = await operator(
        'GET',
        `${operatorEndpoints.sessions.path}?email=${encodeURIComponent(user.login.toUpperCase())}`,
      );
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.deepEqual(
        (listed.body.sessions as AccountSession[]).map((s) => [s.id, s.device, s.current]),
        [
          [phone.sid, SAFARI_ON_IOS, false],
          [laptop.sid, CHROME_ON_WINDOWS, false],
        ],
      );

      const one = await operator('POST', operatorEndpoints.endSession.href({ sessionId: phone.sid }));
      assert.deepEqual(one, { status: 200, body: { ended: 1 } });
      assert.equal(await profile(phone.token), 401);
      assert.equal(await profile(laptop.token), 200);
      assert.equal(
        (await operator('POST', operatorEndpoints.endSession.href({ sessionId: phone.sid }))).status,
        404,
      );

      const all = await operator('POST', operatorEndpoints.endAllSessions.path, { email: user.login });
      assert.deepEqual(all, { status: 200, body: { ended: 1 } });
      assert.equal(await profile(laptop.token), 401);
      const idpUser = await idpUserOf(user.login);
      assert.equal(await server.server.identityProvider!.hasSession(laptop.idpSid, idpUser.id), false);
    });

    it('refuse bad input with 400, unknown borrowers and sessions with 404, and borrowers’ tokens', async () => {
      const user = await createUser(server);
      const mine = await signIn(user, LAPTOP);
      assert.equal(
        (await operator('GET', `${operatorEndpoints.sessions.path}?email=not-an-address`)).status,
        400,
      );
      assert.equal((await operator('GET', operatorEndpoints.sessions.path)).status, 400);
      assert.equal(
        (await operator('POST', operatorEndpoints.endAllSessions.path, { email: 42 })).status,
        400,
      );
      assert.equal((await operator('POST', operatorEndpoints.endAllSessions.path, {})).status, 400);
      assert.equal(
        (await operator('GET', `${operatorEndpoints.sessions.path}?email=nobody.here@example.com`)).status,
        404,
      );
      assert.equal(
        (await operator('POST', operatorEndpoints.endSession.href({ sessionId: 'x' }))).status,
        404,
      );
      // A borrower's token is no operator credential.
      assert.equal(
        (await operator('POST', operatorEndpoints.endAllSessions.path, { email: user.login }, mine.token))
          .status,
        403,
      );
      assert.equal(await profile(mine.token), 200);
    });
  });
});

describe(
  'a session ended on one instance, on another',
  { skip: !process.env.TEST_DATABASE_URL && 'needs TEST_DATABASE_URL' },
  () => {
    let instances: TwoInstances | undefined;
    before(async () => {
      instances = await startTwoInstances();
    });
    after(() => instances?.close());

    it('is refused by the other as soon as its notice arrives', async () => {
      const { a, bUrl } = instances!;
      const user = await createUser(a);
      const signIn = async () => {
        const { idToken } = await signInThroughIdp(a.baseUrl, {
          username: user.login,
          password: user.password,
        });
        return (
          await json<{ access_token: string }>(
            await post(a.baseUrl, authEndpoints.tokenExchange.path, { token: idToken }),
          )
        ).body.access_token;
      };
      const [laptop, phone] = [await signIn(), await signIn()];
      const validateOnB = async (token: string) =>
        json(await post(bUrl, authEndpoints.validate.path, { access_token: token }));
      // B knows the borrower and answers from memory from now on.
      assert.equal((await validateOnB(phone)).status, 200);

      const ended = await call(
        a.baseUrl,
        'POST',
        accountEndpoints.endSession.href({ sessionId: String(decodeJwt(phone).sid) }),
        laptop,
      );
      assert.equal(ended.status, 200);
      // B hears of it by NOTIFY, which A's answer does not wait for: a few milliseconds at most.
      const onB = await untilAfter(
        'B refuses the ended session',
        instances!.b.server.revocations.afterChange,
        async () => {
          const answer = await validateOnB(phone);
          return answer.status === 401 && answer;
        },
      );
      assert.equal(onB.body.reason, 'revoked');
      assert.equal((await call(bUrl, 'GET', authEndpoints.profile.path, phone)).status, 401);
      assert.equal((await validateOnB(laptop)).status, 200);
    });
  },
);
