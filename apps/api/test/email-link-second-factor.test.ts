import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import {
  accountEndpoints,
  API_ERROR_CODES,
  authEndpoints,
  type AccountSession,
} from '@customer-core/contracts';
import { completeSignInWithSessionToken, startTestServer, type TestServer } from '../testing/index.js';
import { createUser, mailFor, tokenOf } from './support/links.js';
import { call } from './support/loans.js';
import { claimsOf, json, post } from './support/session.js';

// A sign-in link for a borrower with a second factor: the link proves the mailbox, then the identity
// provider asks for the factor as after a password, and only then does a session begin.

type Answer = Record<string, unknown> & {
  status?: string;
  stateToken?: string;
  sessionToken?: string;
  errorCode?: string;
  _embedded?: { factors?: Array<{ factorType: string; _links: { verify: { href: string } } }> };
};

const totp = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });

describe('a sign-in link, then the second factor', () => {
  let server: TestServer;
  let url: string;

  before(async () => {
    server = await startTestServer('pglite', { TRUST_PROXY: 'true' });
    url = server.baseUrl;
  });
  after(() => server?.close());

  /** A user with an active authenticator app; its secret. */
  async function userWithApp() {
    const user = await createUser(server);
    const idp = server.server.identityProvider!;
    const enrolled = await idp.factors.enrolTotp(user.id);
    assert.equal(enrolled.kind, 'enrolled');
    const factor = enrolled.kind === 'enrolled' ? enrolled.factor : undefined;
    // The activation takes this time step; sign-in uses the next one (within the window).
    const activated = await idp.factors.activate(user.id, factor!.id, totp(factor!.secret!).generate());
    assert.equal(activated.kind, 'activated');
    return { ...user, secret: factor!.secret! };
  }

  async function linkToken(email: string, returnTo?: string) {
    const before = (await mailFor(url, email, 0)).length;
    const sent = await post(url, authEndpoints.sendMagicLinkEmail.path, { email, returnTo });
    assert.equal(sent.status, 200);
    const [newest] = await mailFor(url, email, before + 1);
    return tokenOf(newest!, 'magic-link-landing');
  }

  const postTo = async (href: string, body: unknown) =>
    json<Answer>(await post(url, new URL(href, url).pathname, body));

  it('answers the transaction instead of a session, and the factor then signs in by link', async () => {
    const user = await userWithApp();
    const token = await linkToken(user.login, '/ui/dashboard/documents');

    const used = await json<Answer & { access_token?: string; returnTo?: string }>(
      await post(url, authEndpoints.magicLinkLogin.path, { token }),
    );
    assert.equal(used.status, 200);
    assert.equal(used.body.access_token, undefined, 'no session before the factor');
    assert.equal(used.body.returnTo, '/ui/dashboard/documents');
    const stateToken = used.body.stateToken!;
    assert.match(stateToken, /^00/);

    // The portal picks the transaction up as okta-auth-js does (introspect), state token unchanged.
    const state = await postTo('/api/v1/authn/introspect', { stateToken });
    assert.equal(state.status, 200);
    assert.equal(state.body.status, 'MFA_REQUIRED');
    assert.equal(state.body.stateToken, stateToken);
    const app = state.body._embedded!.factors!.find((f) => f.factorType === 'token:software:totp')!;

    const wrong = await postTo(app._links.verify.href, { stateToken, passCode: '000000' });
    assert.equal(wrong.status, 403, 'a wrong code is refused');
    const code = totp(user.secret).generate({ timestamp: Date.now() + 30_000 });
    const done = await postTo(app._links.verify.href, { stateToken, passCode: code });
    assert.equal(done.body.status, 'SUCCESS');

    const tokens = await completeSignInWithSessionToken(url, done.body.sessionToken!);
    assert.ok(tokens);
    const exchanged = await json<{ access_token: string }>(
      await post(url, authEndpoints.tokenExchange.path, { token: tokens.idToken }),
    );
    assert.equal(exchanged.status, 200);
    const claims = claimsOf(exchanged.body.access_token) as ReturnType<typeof claimsOf> & {
      amr?: string[];
    };
    assert.deepEqual(claims.amr, ['email', 'otp', 'mfa'], 'the mailbox and the code, not a password');
    const sessions = await call(url, 'GET', accountEndpoints.sessions.path, exchanged.body.access_token);
    const [session] = (sessions.body as { sessions: AccountSession[] }).sessions;
    assert.equal(session?.method, 'email_link');

    const again = await postTo('/api/v1/authn/introspect', { stateToken });
    assert.equal(again.status, 401, 'the transaction ended with its SUCCESS');
    assert.equal(again.body.errorCode, 'E0000011');
    const reused = await json<{ error: string }>(
      await post(url, authEndpoints.magicLinkLogin.path, { token }),
    );
    assert.equal(reused.body.error, API_ERROR_CODES.invalidLink, 'the link worked once');
  });

  it('signs a borrower without a factor straight in, as before', async () => {
    const user = await createUser(server);
    const token = await linkToken(user.login);
    const used = await json<{ access_token?: string; sessionToken?: string | null }>(
      await post(url, authEndpoints.magicLinkLogin.path, { token }),
    );
    assert.equal(used.status, 200);
    assert.ok(used.body.access_token);
    assert.ok(used.body.sessionToken);
  });

  it('refuses introspection of unknown or malformed state tokens with Okta errors, never 5xx', async () => {
    for (const body of [{ stateToken: '00nope' }, { stateToken: '' }, {}, { stateToken: 7 }]) {
      const answer = await postTo('/api/v1/authn/introspect', body);
      assert.ok([400, 401].includes(answer.status), `${JSON.stringify(body)}: ${answer.status}`);
    }
  });
});
