import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { decodeAccessToken } from '@customer-core/contracts';

const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const claims = {
  email: 'dana@example.com',
  exp: 2_000_000_000,
  external_ids: ['LN-1'],
  iat: 1_900_000_000,
  jti: 'token-1',
  iss: 'http://localhost:8080',
  scope: 'borrower',
  sub: 'borrower-1',
};
const token = (payload: object) => `${segment({ alg: 'ES256' })}.${segment(payload)}.c2lnbmF0dXJl`;

describe('decoded access token (spec section 3)', () => {
  let warn: ReturnType<typeof mock.method>;
  beforeEach(() => {
    warn = mock.method(console, 'warn', () => {});
  });
  afterEach(() => warn.mock.restore());

  it('maps the claims to the model', () => {
    const raw = token(claims);
    assert.deepEqual(decodeAccessToken(raw, 1_950_000_000_000), {
      email: 'dana@example.com',
      exp: 2_000_000_000,
      externalIds: ['LN-1'],
      iat: 1_900_000_000,
      id: 'token-1',
      issuer: 'http://localhost:8080',
      scope: 'borrower',
      userId: 'borrower-1',
      raw,
      isValid: true,
    });
  });

  it('is not valid once exp has passed', () => {
    assert.equal(decodeAccessToken(token(claims), 2_000_000_000_000)?.isValid, false);
  });

  it('defaults external_ids to an empty list', () => {
    const { external_ids: _omitted, ...rest } = claims;
    assert.deepEqual(decodeAccessToken(token(rest))?.externalIds, []);
  });

  it('treats a token without three segments as malformed: a warning and null', () => {
    assert.equal(decodeAccessToken('only.two'), null);
    assert.equal(warn.mock.callCount(), 1);
  });

  it('treats an unreadable payload as malformed', () => {
    assert.equal(decodeAccessToken('a.%%%.c'), null);
    assert.equal(decodeAccessToken(token({ email: 'x' })), null);
    assert.equal(warn.mock.callCount(), 2);
  });

  it('treats no token as null without a warning', () => {
    assert.equal(decodeAccessToken(null), null);
    assert.equal(warn.mock.callCount(), 0);
  });
});
