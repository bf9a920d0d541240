import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authEndpoints } from '@customer-core/contracts';
import { statementsSent, statementsUnprepared } from '@customer-core/database';
import { testDatabaseKinds } from '@customer-core/database/testing';
import { browserFetch, CookieJar } from '@customer-core/idp/testing';
import { DEMO_BORROWER } from '../src/loans/demo-borrower.js';
import {
  redeemCode,
  redirectSignInRequest,
  signInThroughIdp,
  startTestServer,
  type IdpCall,
  type TestServer,
} from '../testing/index.js';

// What a password sign-in costs the database, step by step (authn, authorize, token, exchange, then
// spec step 5's redirect: its authorize and the callback's token): every statement sent is counted
// where the SQL leaves for the database. A change that adds a statement to a sign-in fails here and
// says in which step.

const demo = { username: DEMO_BORROWER.login, password: DEMO_BORROWER.password };

function stepOf(url: string): string {
  const { pathname } = new URL(url);
  if (pathname.endsWith('/authn')) return 'authn';
  if (pathname.endsWith('/authorize')) return 'authorize';
  if (pathname.endsWith('/token')) return 'token';
  if (pathname.endsWith('/token-exchange')) return 'exchange';
  return pathname;
}

for (const kind of testDatabaseKinds())
  describe(`a password sign-in, in statements (${kind})`, () => {
    let server: TestServer;
    // The device cookie the first sign-in got, sent back as a returning borrower's browser does.
    let deviceCookie: string | undefined;
    before(async () => {
      server = await startTestServer(kind);
    });
    after(() => server?.close());

    /**
     * One whole sign-in; the statements each step sent, and (PostgreSQL) how many of the sign-in's
     * were not prepared (`unprepared`).
     */
    async function signInCounted(): Promise<Record<string, number>> {
      const db = server.server.db;
      const counts: Record<string, number> = {};
      const unpreparedBefore = statementsUnprepared(db);
      const counted = async <T>(step: string, call: () => Promise<T>) => {
        const before = statementsSent(db)!;
        const answer = await call();
        counts[step] = statementsSent(db)! - before;
        return answer;
      };
      // One browser: step 5 needs the identity provider's session that step 3 made.
      const browser = new CookieJar();
      const call: IdpCall = (url, init) =>
        counted(stepOf(String(url)), async () => {
          const response = await browserFetch(browser, url, init);
          const text = await response.text();
          return { status: response.status, text: () => Promise.resolve(text) };
        });
      const { idToken, sessionToken } = await signInThroughIdp(
        server.baseUrl,
        demo,
        undefined,
        server.baseUrl,
        call,
      );
      const exchanged = await counted('exchange', () =>
        fetch(`${server.baseUrl}${authEndpoints.tokenExchange.path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(deviceCookie && { cookie: deviceCookie }) },
          body: JSON.stringify({ token: idToken }),
        }),
      );
      assert.equal(exchanged.status, 200);
      deviceCookie ??= exchanged.headers.getSetCookie()[0]?.split(';')[0];
      // (5) signInWithRedirect with the same session token, then the callback redeems the code.
      const request = redirectSignInRequest(server.baseUrl, sessionToken);
      const redirect = await counted('redirect', () => browserFetch(browser, request.url));
      assert.equal(redirect.status, 303);
      const code = new URL(redirect.headers.get('location')!).searchParams.get('code');
      assert.ok(code, 'the redirect carries a code');
      await counted('callback', () =>
        redeemCode(server.baseUrl, { ...request, code, clientId: 'customer-portal' }),
      );
      if (unpreparedBefore !== null) counts.unprepared = statementsUnprepared(db)! - unpreparedBefore;
      return counts;
    }

    it('sends no more statements per step than it needs', async () => {
      await signInCounted(); // the first sign-in of an instance reads what it then keeps
      const runs = [await signInCounted(), await signInCounted(), await signInCounted()];
      // The fewest of three: a background task (the mail worker, a purge) may send one meanwhile.
      const fewest = Object.fromEntries(
        Object.keys(runs[0]!).map((step) => [step, Math.min(...runs.map((run) => run[step]!))]),
      );
      assert.deepEqual(fewest, {
        authn: 3,
        authorize: 2,
        token: 2,
        exchange: 3,
        // The IdP session, the token presented again (with its user), the grant; the code written.
        redirect: 4,
        callback: 2,
        // Each prepared once per connection, not parsed and planned at every sign-in: a statement that
        // reads every column (`select *`) is never prepared (packages/database/src/prepared-statements.ts).
        ...(kind === 'postgres' && { unprepared: 0 }),
      });
    });
  });
