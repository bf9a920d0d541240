import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authEndpoints, operatorEndpoints, decodeAccessToken } from '@customer-core/contracts';
import { startTestServer, type TestServer } from '../testing/index.js';
import { activeLoan, call } from './support/loans.js';
import { demoAccessToken, publicKeyIds } from './support/session.js';

// A service credential is good for its scope only: a servicing system that mints lookup tokens cannot
// list borrowers, invite, add or change loans, or rotate (and retire) the signing keys; an operator's
// credential does not mint lookup tokens.

const LOOKUP_SECRET = 'lookup-tokens-secret-for-scope-tests-0123456789';
const OPERATOR_SECRET = 'operator-secret-for-scope-tests-0123456789';

describe('service credential scopes', () => {
  let server: TestServer;
  let borrowerId: string;

  before(async () => {
    server = await startTestServer('pglite', {
      SERVICE_CREDENTIALS: `servicing:lookup-tokens:${LOOKUP_SECRET},ops:operator:${OPERATOR_SECRET}`,
    });
    borrowerId = decodeAccessToken(await demoAccessToken(server.baseUrl))!.userId;
  });
  after(() => server?.close());

  const operatorCalls = () =>
    [
      ['GET', operatorEndpoints.borrowers.path, undefined],
      [
        'POST',
        operatorEndpoints.invitations.path,
        { email: 'scoped@example.com', firstName: 'Sam', lastName: 'Scoped' },
      ],
      ['POST', operatorEndpoints.loans.path, activeLoan('LN-900001', 'scoped@example.com')],
      ['PATCH', operatorEndpoints.loan.href({ reference: 'LN-900001' }), { status: 'PAID' }],
      ['POST', operatorEndpoints.signingKeyRotations.path, { retireEarlierKeysNow: true }],
    ] as const;

  it('a lookup-tokens credential is refused 403 on every operator route, and nothing changes', async () => {
    const keysBefore = await publicKeyIds(server.baseUrl);
    for (const [method, path, body] of operatorCalls()) {
      const { status, body: answer } = await call(server.baseUrl, method, path, LOOKUP_SECRET, body);
      assert.equal(status, 403, `${method} ${path}`);
      assert.equal(answer.error, 'forbidden');
      assert.match(answer.message as string, /operator scope/);
    }
    assert.deepEqual(await publicKeyIds(server.baseUrl), keysBefore, 'no key rotated or retired');
    const { body } = await call(server.baseUrl, 'GET', operatorEndpoints.borrowers.path, OPERATOR_SECRET);
    assert.ok(
      !JSON.stringify(body).includes('scoped@example.com'),
      'no invitation or loan was made for the address',
    );
  });

  it('an operator credential is refused 403 on minting lookup tokens', async () => {
    const { status, body } = await call(
      server.baseUrl,
      'POST',
      authEndpoints.mintLookupToken.path,
      OPERATOR_SECRET,
      {
        borrowerId,
      },
    );
    assert.equal(status, 403);
    assert.equal(body.error, 'forbidden');
    assert.match(body.message as string, /lookup-tokens scope/);
  });

  it('each credential is served in its own scope; an unknown one is still 401', async () => {
    assert.equal(
      (
        await call(server.baseUrl, 'POST', authEndpoints.mintLookupToken.path, LOOKUP_SECRET, {
          borrowerId,
        })
      ).status,
      200,
    );
    assert.equal(
      (await call(server.baseUrl, 'GET', operatorEndpoints.borrowers.path, OPERATOR_SECRET)).status,
      200,
    );
    assert.equal(
      (await call(server.baseUrl, 'GET', operatorEndpoints.borrowers.path, 'x'.repeat(40))).status,
      401,
    );
    assert.equal(
      (
        await call(server.baseUrl, 'POST', authEndpoints.mintLookupToken.path, 'x'.repeat(40), {
          borrowerId,
        })
      ).status,
      401,
    );
  });
});
