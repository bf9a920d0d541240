import assert from 'node:assert/strict';
import {
  ESIGN_CONSENT,
  LoanDetailSchema,
  authEndpoints,
  loanEndpoints,
  operatorEndpoints,
  signingEndpoints,
  type AddLoanRequest,
} from '@customer-core/contracts';
import { addBorrower, mintSession, signInThroughIdp, type TestServer } from '../../testing/index.js';
import { json, post } from './session.js';

// What the loan tests share: borrowers signed in over real HTTP, calls of the borrower and operator
// APIs, and a service credential for the operators' calls.

export const OPERATOR_SECRET = 'operator-secret-for-loan-tests-0123456789';
export const OPERATOR_ENV = { SERVICE_CREDENTIALS: `operator:operator:${OPERATOR_SECRET}` };

/** A product access token for this IdP user: signs in through the bundled IdP, then the token exchange. */
export async function accessTokenOf(baseUrl: string, username: string, password: string): Promise<string> {
  const { idToken } = await signInThroughIdp(baseUrl, { username, password });
  const { status, body } = await json<{ access_token: string }>(
    await post(baseUrl, authEndpoints.tokenExchange.path, { token: idToken }),
  );
  assert.equal(status, 200, `token exchange for ${username}`);
  return body.access_token;
}

const NEW_BORROWER = { password: 'Borrower-Pass-42', firstName: 'Otto', lastName: 'Other' };

/**
 * A new user of the bundled IdP with this address, and the borrower their first sign-in would make
 * (or take over, when an operator added loans for the address): an access token of a session minted
 * for them (`mintSession`), for a test whose subject is not signing in.
 */
export async function newBorrowerToken(server: TestServer, login: string): Promise<string> {
  const { user } = await addBorrower(server, { login, ...NEW_BORROWER });
  return (await mintSession(server, user.login)).accessToken;
}

/** A new user of the bundled IdP with this address, signed in through it: their access token. */
export async function newBorrowerSignedInThroughIdp(server: TestServer, login: string): Promise<string> {
  const idp = server.server.identityProvider;
  assert.ok(idp, 'the bundled identity provider runs');
  await idp.users.create({ login, ...NEW_BORROWER });
  return accessTokenOf(server.baseUrl, login, NEW_BORROWER.password);
}

/** The id of the loan with this loan number (e.g. the demo borrower's seeded LN-DEMO-1). */
export async function loanIdOf(server: TestServer, reference: string): Promise<string> {
  const row = await server.server.db
    .selectFrom('loan')
    .select('id')
    .where('reference', '=', reference)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A call of the API with a Bearer token (or none), JSON in and out. */
export async function call(
  baseUrl: string,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH',
  path: string,
  token?: string,
  body?: unknown,
) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return json<Record<string, unknown>>(response);
}

/** The borrower agrees to sign electronically (the current text), as the checkout asks before signing. */
export async function giveEsignConsent(baseUrl: string, token: string): Promise<void> {
  const given = await call(baseUrl, 'POST', signingEndpoints.giveEsignConsent.path, token, {
    version: ESIGN_CONSENT.version,
    agreed: true,
  });
  assert.equal(given.status, 200, JSON.stringify(given.body));
}

export const addLoan = (baseUrl: string, loan: AddLoanRequest) =>
  call(baseUrl, 'POST', operatorEndpoints.loans.path, OPERATOR_SECRET, loan);

/** An ACTIVE loan's terms, for a loan number and an address. */
export function activeLoan(reference: string, borrowerEmail: string): AddLoanRequest {
  return {
    borrowerEmail,
    reference,
    product: 'Term loan',
    amountCents: 12_500_000,
    balanceCents: 12_500_000,
    status: 'ACTIVE',
    nextPayment: { dueOn: '2031-03-01', amountCents: 271_450 },
  };
}

/**
 * The borrower's whole checkout of the loan over the API: started, every document reviewed, the
 * consent given, and those that need it signed at once with the account's name. Its documents.
 */
export async function completeCheckout(
  baseUrl: string,
  token: string,
  loanId: string,
  signatureName: string,
) {
  const started = await call(baseUrl, 'POST', loanEndpoints.startCheckout.href({ loanId }), token);
  const { documents } = LoanDetailSchema.parse(started.body);
  for (const document of documents) {
    const reviewed = await call(
      baseUrl,
      'POST',
      loanEndpoints.reviewDocument.href({ loanId, documentId: document.id }),
      token,
    );
    assert.equal(reviewed.status, 200, JSON.stringify(reviewed.body));
  }
  await giveEsignConsent(baseUrl, token);
  const signed = await call(baseUrl, 'POST', loanEndpoints.signDocuments.href({ loanId }), token, {
    documentIds: documents.filter((document) => document.requiresSignature).map((document) => document.id),
    signatureName,
    agreed: true,
  });
  assert.equal(signed.status, 200, JSON.stringify(signed.body));
  return documents;
}
