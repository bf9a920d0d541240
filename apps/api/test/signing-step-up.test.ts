import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import {
  authEndpoints,
  documentEndpoints,
  LoanDetailSchema,
  STEP_UP_MAX_AGE_SECONDS,
  STEP_UP_REQUIRED,
  type LoanDetail,
  loanEndpoints,
} from '@customer-core/contracts';
import type { IdpDatabase } from '@customer-core/idp';
import { extractText, getDocumentProxy } from 'unpdf';
import { DEMO_BORROWER } from '../src/loans/demo-borrower.js';
import {
  completeSignInWithSessionToken,
  signedInAgo,
  startTestServer,
  type TestServer,
} from '../testing/index.js';
import { ProductTokens, type ProductTokenClaims } from '../src/session/product-token.js';
import { signingKeyRepository } from '../src/session/signing-key-repository.js';
import { ProductKeyRing } from '../src/session/signing-keys.js';
import { call, giveEsignConsent, loanIdOf } from './support/loans.js';
import { claimsOf, demoAccessToken, demoSignInThroughIdp, json, post } from './support/session.js';

const SIGNATURE = { signatureName: 'Dana Demo', agreed: true };
const FACTOR_SECRET = new Secret({ size: 20 }).base32;
const codeFor = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate();

describe('step-up before signing a loan document', () => {
  let server: TestServer;
  let url: string;
  /** Issues tokens with this server's signing key: a sign-in long ago, by its own auth_time. */
  let tokensOfServer: ProductTokens;
  let loanId: string;
  /** The loan's documents that need a signature, reviewed and not signed yet. */
  let toSign: string[];

  before(async () => {
    server = await startTestServer('pglite', { MFA_POLICY: 'optional' });
    url = server.baseUrl;
    tokensOfServer = new ProductTokens(
      await ProductKeyRing.open(signingKeyRepository(server.server.db, server.server.secrets)),
      {
        issuer: url,
        ttlSeconds: 900,
        sessionMaxAgeSeconds: 12 * 3600,
      },
    );
    const token = await demoAccessToken(url);
    await giveEsignConsent(url, token);
    loanId = await loanIdOf(server, 'LN-DEMO-1');
    const started = detailOf(await call(url, 'POST', loanEndpoints.startCheckout.href({ loanId }), token));
    toSign = started.documents.filter((d) => d.requiresSignature).map((d) => d.id);
    assert.ok(toSign.length >= 2);
    for (const documentId of toSign) {
      const reviewed = await call(
        url,
        'POST',
        loanEndpoints.reviewDocument.href({ loanId, documentId }),
        token,
      );
      assert.equal(reviewed.status, 200);
    }
  });
  after(() => server?.close());

  function detailOf(answer: { status: number; body: unknown }): LoanDetail {
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return LoanDetailSchema.parse(answer.body);
  }
  const sign = (token: string, documentId: string) =>
    call(url, 'POST', loanEndpoints.signDocument.href({ loanId, documentId }), token, SIGNATURE);
  const stateOf = async (token: string, documentId: string) =>
    detailOf(await call(url, 'GET', loanEndpoints.loan.href({ loanId }), token)).documents.find(
      (d) => d.id === documentId,
    )?.state;
  const refusedForStepUp = (answer: { status: number; body: Record<string, unknown> }) => {
    assert.equal(answer.status, 403, JSON.stringify(answer.body));
    assert.equal(answer.body.error, STEP_UP_REQUIRED);
    assert.match(String(answer.body.message), /confirm it’s you\.$/);
  };

  it('refuses a sign-in older than 10 minutes with step_up_required, and signs nothing', async () => {
    const fresh = await demoAccessToken(url);
    const stale = await signedInAgo(server, fresh, STEP_UP_MAX_AGE_SECONDS + 60);
    // The stale token is otherwise good: it reads the loan.
    refusedForStepUp(await sign(stale, toSign[0]!));
    assert.equal(await stateOf(stale, toSign[0]!), 'reviewed');
  });

  it('signs with a password sign-in of the last 10 minutes, for a borrower without a second factor', async () => {
    const fresh = await demoSignInThroughIdp(url);
    assert.deepEqual((claimsOf(fresh) as ProductTokenClaims).amr, ['pwd']);
    const recent = await signedInAgo(server, fresh, STEP_UP_MAX_AGE_SECONDS - 60);
    detailOf(await sign(recent, toSign[0]!));
    assert.equal(await stateOf(fresh, toSign[0]!), 'signed');
  });

  it('refuses a token that says no password (an e-mailed link) however recent', async () => {
    const fresh = await demoAccessToken(url);
    const claims = claimsOf(fresh) as ProductTokenClaims;
    const linkSignIn = tokensOfServer.issue(
      { borrowerId: claims.sub, email: claims.email, externalIds: claims.external_ids },
      tokensOfServer.newSession(),
    ).token;
    refusedForStepUp(await sign(linkSignIn, toSign[1]!));
  });

  it('refuses a password-only sign-in of a borrower with a second factor; signs after the code', async () => {
    const idp = server.server.identityProvider!;
    const user = await idp.users.findByLogin(DEMO_BORROWER.login);
    assert.ok(user);
    const passwordOnly = await demoSignInThroughIdp(url);
    // The borrower enrols a factor after that sign-in (as from their account).
    await (server.server.db as unknown as Kysely<IdpDatabase>)
      .insertInto('idp_factor')
      .values({
        id: 'ufstepuptest00000001',
        user_id: user.id,
        factor_type: 'token:software:totp',
        provider: 'GOOGLE',
        status: 'ACTIVE',
        secret: FACTOR_SECRET,
      })
      .execute();
    refusedForStepUp(await sign(passwordOnly, toSign[1]!));
    assert.equal(await stateOf(passwordOnly, toSign[1]!), 'reviewed');

    // The step-up: the password, then the code, then the token exchange.
    const first = await json<{
      status: string;
      stateToken: string;
      _embedded: { factors: Array<{ _links: { verify: { href: string } } }> };
    }>(await post(url, '/api/v1/authn', { username: DEMO_BORROWER.login, password: DEMO_BORROWER.password }));
    assert.equal(first.body.status, 'MFA_REQUIRED');
    const verified = await json<{ status: string; sessionToken: string }>(
      await post(url, new URL(first.body._embedded.factors[0]!._links.verify.href).pathname, {
        stateToken: first.body.stateToken,
        passCode: codeFor(FACTOR_SECRET),
      }),
    );
    assert.equal(verified.body.status, 'SUCCESS');
    const tokens = await completeSignInWithSessionToken(url, verified.body.sessionToken);
    assert.ok(tokens);
    const exchanged = await json<{ access_token: string }>(
      await post(url, authEndpoints.tokenExchange.path, { token: tokens.idToken }),
    );
    assert.equal(exchanged.status, 200);
    const stepped = exchanged.body.access_token;
    assert.ok((claimsOf(stepped) as ProductTokenClaims).amr?.includes('otp'));
    detailOf(await sign(stepped, toSign[1]!));
    assert.equal(await stateOf(stepped, toSign[1]!), 'signed');
    // Its certificate says how the signer had signed in: the password and the authenticator app.
    const pdf = await fetch(`${url}${documentEndpoints.signedDocumentPdf.href({ documentId: toSign[1]! })}`, {
      headers: { authorization: `Bearer ${stepped}` },
    });
    assert.equal(pdf.status, 200);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(await pdf.arrayBuffer())), {
      mergePages: true,
    });
    assert.match(text, /SIGN-IN METHOD\s+Password \(amr: pwd, otp, mfa\)/);
    assert.match(text, /SECOND FACTOR\s+Authenticator app code/);
    // ...but that same sign-in, once more than 10 minutes old, no longer signs.
    refusedForStepUp(
      await sign(await signedInAgo(server, stepped, STEP_UP_MAX_AGE_SECONDS + 1), toSign[2] ?? toSign[1]!),
    );
  });
});
