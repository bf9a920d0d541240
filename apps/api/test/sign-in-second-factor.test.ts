import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { authEndpoints } from '@customer-core/contracts';
import { testDatabaseKinds } from '@customer-core/database/testing';
import { completeSignInWithSessionToken, startTestServer, type TestServer } from '../testing/index.js';
import { claimsOf, json, post } from './support/session.js';

const PASSWORD = 'Borrower-Pass-42';
type Answer = Record<string, unknown> & {
  stateToken?: string;
  sessionToken?: string;
  _embedded?: { factors?: Array<{ _links: { enroll: { href: string } } }>; factor?: FactorBody };
  _links?: { next?: { href: string } };
};
interface FactorBody {
  _embedded: { activation: { sharedSecret: string } };
}

const code = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate();

for (const kind of testDatabaseKinds()) {
  describe(`sign-in with a second factor, through to the product token (${kind})`, () => {
    let server: TestServer;

    before(async () => {
      server = await startTestServer(kind, { MFA_POLICY: 'required' });
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
  });
}
