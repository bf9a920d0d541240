import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { authEndpoints, SECOND_FACTOR_ERROR_CODES, secondFactorEndpoints } from '@customer-core/contracts';
import { completeSignInWithSessionToken, startTestServer, type TestServer } from '../testing/index.js';
import { createUser } from './support/links.js';
import { call } from './support/loans.js';
import { claimsOf, json, post } from './support/session.js';

const PASSWORD = 'Borrower-Pass-42';
type Answer = Record<string, unknown> & {
  stateToken?: string;
  sessionToken?: string;
  _embedded?: { factors?: Array<{ _links: { enroll: { href: string } } }>; factor?: FactorBody };
  _links?: { next?: { href: string } };
};
interface FactorBody {
  id: string;
  _embedded: { activation: { sharedSecret: string } };
}

const code = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate();

describe('sign-in with a second factor, through to the product token', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer('pglite', { MFA_POLICY: 'required' });
  });
  after(async () => {
    await server?.close();
  });

  /** A POST to a link of the identity provider's answer, at this server. */
  const follow = async (href: string, body: unknown) => {
    const { status, body: answer } = await json<Answer>(
      await post(server.baseUrl, new URL(href, server.baseUrl).pathname, body),
    );
    assert.equal(status, 200, JSON.stringify(answer));
    return answer;
  };

  it('enrols at sign-in, and the product token carries the ID token amr and auth_time through refresh', async () => {
    const idp = server.server.identityProvider;
    assert.ok(idp);
    await idp.users.create({
      login: 'second.factor@example.com',
      password: PASSWORD,
      firstName: 'Rosa',
      lastName: 'Martinez',
    });
    const enrol = await follow('/api/v1/authn', {
      username: 'second.factor@example.com',
      password: PASSWORD,
    });
    assert.equal(enrol.status, 'MFA_ENROLL');
    const activation = await follow(enrol._embedded!.factors![0]!._links.enroll.href, {
      stateToken: enrol.stateToken,
      factorType: 'token:software:totp',
      provider: 'GOOGLE',
    });
    const secret = activation._embedded!.factor!._embedded.activation.sharedSecret;
    const done = await follow(activation._links!.next!.href, {
      stateToken: activation.stateToken,
      passCode: code(secret),
    });
    assert.equal(done.status, 'SUCCESS');

    const tokens = await completeSignInWithSessionToken(server.baseUrl, done.sessionToken!);
    assert.ok(tokens);
    const idClaims = decodeJwt(tokens.idToken);
    const exchanged = await json<{ access_token: string }>(
      await post(server.baseUrl, authEndpoints.tokenExchange.path, { token: tokens.idToken }),
    );
    assert.equal(exchanged.status, 200);
    const product = claimsOf(exchanged.body.access_token) as ReturnType<typeof claimsOf> & {
      amr?: string[];
      auth_time?: number;
    };
    assert.deepEqual(product.amr, ['pwd', 'otp', 'mfa']);
    assert.equal(product.auth_time, idClaims.auth_time);

    const refreshed = await json<{ access_token: string }>(
      await post(server.baseUrl, authEndpoints.tokenRefresh.path, { token: exchanged.body.access_token }),
    );
    assert.equal(refreshed.status, 200);
    const next = claimsOf(refreshed.body.access_token) as typeof product;
    assert.deepEqual(next.amr, ['pwd', 'otp', 'mfa']);
    assert.equal(next.auth_time, idClaims.auth_time);
  });

  it('keeps the last app on the account page while the policy requires one, with a clear message', async () => {
    // A borrower enrols an app at sign-in, then finds it on the account page.
    const user = await createUser(server, PASSWORD);
    const enrolStep = await follow('/api/v1/authn', { username: user.login, password: PASSWORD });
    assert.equal(enrolStep.status, 'MFA_ENROLL');
    const activation = await follow('/api/v1/authn/factors', {
      stateToken: enrolStep.stateToken,
      factorType: 'token:software:totp',
      provider: 'GOOGLE',
    });
    const factor = activation._embedded!.factor!;
    const done = await follow(`/api/v1/authn/factors/${factor.id}/lifecycle/activate`, {
      stateToken: activation.stateToken,
      passCode: code(factor._embedded.activation.sharedSecret),
    });
    assert.equal(done.status, 'SUCCESS');
    const tokens = await completeSignInWithSessionToken(server.baseUrl, String(done.sessionToken));
    assert.ok(tokens);
    const exchanged = await json<{ access_token: string }>(
      await post(server.baseUrl, authEndpoints.tokenExchange.path, { token: tokens.idToken }),
    );
    const token = exchanged.body.access_token;
    const list = () => call(server.baseUrl, 'GET', secondFactorEndpoints.list.path, token);

    const listed = await list();
    assert.equal(listed.body.policy, 'required');
    assert.deepEqual(
      (listed.body.factors as Array<{ id: string }>).map((f) => f.id),
      [factor.id],
    );
    const refused = await call(
      server.baseUrl,
      'POST',
      secondFactorEndpoints.remove.href({ factorId: factor.id }),
      token,
      { currentPassword: PASSWORD },
    );
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, SECOND_FACTOR_ERROR_CODES.lastFactor);
    assert.match(String(refused.body.message), /can’t remove your only one/);
    assert.equal(((await list()).body.factors as unknown[]).length, 1);
  });
});
