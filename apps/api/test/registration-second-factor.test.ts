import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import {
  authEndpoints,
  LoanDetailSchema,
  LoanListSchema,
  loanEndpoints,
  operatorEndpoints,
  registrationEndpoints,
  STEP_UP_REQUIRED,
} from '@customer-core/contracts';
import type { MfaPolicy } from '@customer-core/contracts/server';
import { completeSignInWithSessionToken, startTestServer, type TestServer } from '../testing/index.js';
import { enrolAppIn, productTokenOf } from './support/factor-transaction.js';
import { invite, linkTokenOf, OPERATOR_SECRET, uniqueEmail } from './support/joining.js';
import { activeLoan, call, giveEsignConsent } from './support/loans.js';
import { authn, mailFor, tokenOf } from './support/links.js';
import { json, post } from './support/session.js';

// MFA_POLICY=required means no borrower has a session that can sign before they have a second factor:
// registering from an invitation enrols one first, in the identity provider's own MFA_ENROLL
// transaction (as a password sign-in would), and so does every other way in that could sign.

const PASSWORD = 'Brand-new-Passw0rd';
const NEW_PASSWORD = 'Second-new-Passw0rd';
const LOOKUP_SECRET = 'lookup-secret-for-registration-tests-0123456789';
const SIGNATURE = { signatureName: 'Grace Hopper', agreed: true };

type Registered = {
  access_token?: string;
  sessionToken?: string | null;
  stateToken?: string;
  returnTo: string | null;
};

for (const policy of ['required', 'optional', 'off'] as const satisfies readonly MfaPolicy[]) {
  describe(`registration under MFA_POLICY=${policy}`, () => {
    let server: TestServer;
    let url: string;

    before(async () => {
      server = await startTestServer('pglite', {
        MFA_POLICY: policy,
        SERVICE_CREDENTIALS: `ops:operator:${OPERATOR_SECRET},crm:lookup-tokens:${LOOKUP_SECRET}`,
        // The "This wasn't me" link comes in a new-sign-in e-mail.
        NEW_SIGN_IN_EMAILS: 'true',
      });
      url = server.baseUrl;
    });
    after(() => server?.close());

    /** An invited borrower with an ACTIVE loan (documents to sign): the address and the link's token. */
    async function invitedWithLoan() {
      const email = uniqueEmail();
      const invited = await invite(url, { email, firstName: 'Grace', lastName: 'Hopper' });
      assert.equal(invited.status, 201);
      const loan = activeLoan(`LN-${Math.floor(Math.random() * 1e6)}`, email);
      assert.equal(
        (await call(url, 'POST', operatorEndpoints.loans.path, OPERATOR_SECRET, loan)).status,
        201,
      );
      const [message] = await mailFor(url, email);
      return { email, token: linkTokenOf(message!, '/user-registration/') };
    }

    const register = async (token: string) => {
      const answer = await json<Registered>(
        await post(url, registrationEndpoints.register.path, { token, password: PASSWORD }),
      );
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body;
    };

    /** Reviews the loan's documents and signs the first that needs it: the sign call's answer. */
    async function signFirstDocument(accessToken: string) {
      const list = await call(url, 'GET', loanEndpoints.loans.path, accessToken);
      assert.equal(list.status, 200, JSON.stringify(list.body));
      const loanId = LoanListSchema.parse(list.body).loans[0]!.id;
      const started = await call(url, 'POST', loanEndpoints.startCheckout.href({ loanId }), accessToken);
      const documentId = LoanDetailSchema.parse(started.body).documents.find((d) => d.requiresSignature)!.id;
      const reviewed = await call(
        url,
        'POST',
        loanEndpoints.reviewDocument.href({ loanId, documentId }),
        accessToken,
      );
      assert.equal(reviewed.status, 200, JSON.stringify(reviewed.body));
      await giveEsignConsent(url, accessToken);
      return call(
        url,
        'POST',
        loanEndpoints.signDocument.href({ loanId, documentId }),
        accessToken,
        SIGNATURE,
      );
    }

    const sessionsOf = (email: string) =>
      server.server.db
        .selectFrom('product_session')
        .innerJoin('borrower', 'borrower.id', 'product_session.borrower_id')
        .select('product_session.method')
        .where('borrower.email', '=', email)
        .execute();

    if (policy === 'required') {
      it('registers without a session: the factor is enrolled first, then the sign-in signs', async () => {
        const { email, token } = await invitedWithLoan();
        const registered = await register(token);
        assert.equal(registered.access_token, undefined, 'no product session before a factor');
        assert.equal(registered.sessionToken, undefined, 'no identity-provider session either');
        assert.equal(registered.returnTo, null);
        assert.match(registered.stateToken ?? '', /^00/, 'the enrolment transaction');
        assert.deepEqual(await sessionsOf(email), []);

        // The account exists: the chosen password leads to the same enrolment.
        const again = await json<{ status: string }>(await authn(url, email, PASSWORD));
        assert.equal(again.body.status, 'MFA_ENROLL');

        const { sessionToken } = await enrolAppIn(url, registered.stateToken!);
        const accessToken = await productTokenOf(url, sessionToken);
        assert.deepEqual(decodeJwt(accessToken).amr, ['pwd', 'otp', 'mfa']);
        assert.equal(decodeJwt(accessToken).email, email, 'the invited borrower');
        const signed = await signFirstDocument(accessToken);
        assert.equal(signed.status, 200, JSON.stringify(signed.body));
      });

      it('an e-mailed sign-in link of a borrower without a factor enrols one before any session', async () => {
        const { email, token } = await invitedWithLoan();
        await register(token);
        const sent = await post(url, authEndpoints.sendMagicLinkEmail.path, { email });
        assert.equal(sent.status, 200);
        const [link] = await mailFor(url, email, 2);
        const used = await json<Registered>(
          await post(url, authEndpoints.magicLinkLogin.path, {
            token: tokenOf(link!, 'magic-link-landing'),
          }),
        );
        assert.equal(used.status, 200);
        assert.equal(used.body.access_token, undefined, 'no product session before a factor');
        assert.deepEqual(await sessionsOf(email), []);

        const { sessionToken } = await enrolAppIn(url, used.body.stateToken!);
        const accessToken = await productTokenOf(url, sessionToken);
        assert.deepEqual(decodeJwt(accessToken).amr, ['email', 'otp', 'mfa']);
      });

      it('a lookup token signs in to read, never to sign; "This wasn’t me" and its reset begin no session', async () => {
        const { email, token } = await invitedWithLoan();
        await register(token);
        const borrowerId = (
          await server.server.db
            .selectFrom('borrower')
            .select('id')
            .where('email', '=', email)
            .executeTakeFirstOrThrow()
        ).id;
        /** A servicing system's lookup token, exchanged from a browser new to the borrower. */
        const lookupSignIn = async () => {
          const minted = await call(url, 'POST', authEndpoints.mintLookupToken.path, LOOKUP_SECRET, {
            borrowerId,
          });
          assert.equal(minted.status, 200, JSON.stringify(minted.body));
          const exchanged = await json<{ access_token: string }>(
            await post(url, authEndpoints.lookupTokenExchange.path, { token: minted.body.token }),
          );
          assert.equal(exchanged.status, 200);
          return exchanged.body.access_token;
        };

        const lookup = await lookupSignIn();
        const refused = await signFirstDocument(lookup);
        assert.equal(refused.status, 403, JSON.stringify(refused.body));
        assert.equal(refused.body.error, STEP_UP_REQUIRED);

        // A second new browser: the new-sign-in e-mail, with its "This wasn't me" link.
        await lookupSignIn();
        const [notice] = await mailFor(url, email, 2);
        const reported = await json<Record<string, unknown>>(
          await post(url, authEndpoints.unrecognizedSignIn.path, {
            token: tokenOf(notice!, 'unrecognized-sign-in'),
          }),
        );
        assert.equal(reported.status, 200);
        assert.deepEqual(Object.keys(reported.body), ['resetToken'], 'a reset to continue with, no session');
        const reset = await json<Record<string, unknown>>(
          await post(url, authEndpoints.passwordResetFinish.path, {
            token: reported.body.resetToken,
            password: NEW_PASSWORD,
          }),
        );
        assert.deepEqual(reset, { status: 200, body: { passwordChanged: true } });
        assert.equal(
          (await json<{ status: string }>(await authn(url, email, NEW_PASSWORD))).body.status,
          'MFA_ENROLL',
        );
      });
    } else {
      it('registers and signs straight in, as a password sign-in without a factor does', async () => {
        const { email, token } = await invitedWithLoan();
        const registered = await register(token);
        assert.deepEqual(Object.keys(registered).sort(), ['access_token', 'returnTo', 'sessionToken']);
        assert.deepEqual(await sessionsOf(email), [{ method: 'registration' }]);
        const tokens = await completeSignInWithSessionToken(url, registered.sessionToken!);
        assert.ok(tokens, 'the identity provider’s sign-in completes with the session token');
        assert.deepEqual(decodeJwt(tokens.idToken).amr, ['pwd']);
      });
    }
  });
}
