import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import {
  authEndpoints,
  operatorEndpoints,
  SigningKeyRotationSchema,
  loanEndpoints,
} from '@customer-core/contracts';
import { startTestServer, type TestServer } from '../testing/index.js';
import { signingKeyRetirementSeconds } from '../src/session/signing-keys.js';
import { call, newBorrowerToken, OPERATOR_ENV, OPERATOR_SECRET } from './support/loans.js';
import { publicKeyIds } from './support/session.js';

// Operators rotate the key that signs access tokens: borrowers' tokens keep working through a
// rotation, until the earlier key is retired (after a token's lifetime, or at once after a leak).

const kidOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as { kid: string }).kid;

describe('signing key rotation', () => {
  let server: TestServer;
  let url: string;

  before(async () => {
    server = await startTestServer('pglite', OPERATOR_ENV);
    url = server.baseUrl;
  });
  after(() => server?.close());

  const rotate = async (body: unknown = {}) => {
    const answer = await call(url, 'POST', operatorEndpoints.signingKeyRotations.path, OPERATOR_SECRET, body);
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return SigningKeyRotationSchema.parse(answer.body);
  };
  const validate = (token: string) =>
    call(url, 'POST', authEndpoints.validate.path, undefined, { access_token: token });
  const refresh = async (token: string) => {
    const answer = await call(url, 'POST', authEndpoints.tokenRefresh.path, undefined, { token });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return String(answer.body.access_token);
  };
  /** As if every key had been made this much earlier. */
  const timePasses = (seconds: number) =>
    sql`update product_signing_key set created_at = created_at - make_interval(secs => ${seconds})`.execute(
      server.server.db,
    );

  it('needs the service credential and a well-formed body', async () => {
    for (const token of [undefined, 'not-the-operator-credential-not-the-operator']) {
      const answer = await call(url, 'POST', operatorEndpoints.signingKeyRotations.path, token, {});
      assert.equal(answer.status, 401);
    }
    const bad = await call(url, 'POST', operatorEndpoints.signingKeyRotations.path, OPERATOR_SECRET, {
      retireEarlierKeysNow: 'yes',
    });
    assert.equal(bad.status, 400);
    assert.match(String(bad.body.message), /retireEarlierKeysNow/);
  });

  it('signs with the new key at once, and tokens of the earlier one keep working', async () => {
    const before = await newBorrowerToken(server, `rotation-${randomUUID()}@example.com`);
    const earlierKid = kidOf(before);
    const rotation = await rotate();
    assert.notEqual(rotation.activeKid, earlierKid);
    assert.deepEqual(rotation.retiredKids, []);
    assert.ok(
      rotation.verifyingKids.includes(earlierKid) && rotation.verifyingKids.includes(rotation.activeKid),
    );
    assert.deepEqual(new Set(await publicKeyIds(url)), new Set(rotation.verifyingKids));

    assert.equal((await validate(before)).status, 200, 'a token signed before the rotation');
    const after = await refresh(before);
    assert.equal(kidOf(after), rotation.activeKid);
    assert.equal((await validate(after)).status, 200);
  });

  it('retires an earlier key once its tokens can no longer be current, and then refuses them', async () => {
    const token = await newBorrowerToken(server, `retire-${randomUUID()}@example.com`);
    await rotate();
    // The key that signed `token` was superseded just inside, then just past, the retirement window.
    const window = signingKeyRetirementSeconds(server.config);
    await timePasses(window - 30);
    const second = await rotate();
    assert.ok(!second.retiredKids.includes(kidOf(token)), 'not yet');
    assert.equal((await validate(token)).status, 200);

    await timePasses(60);
    const third = await rotate();
    assert.ok(third.retiredKids.includes(kidOf(token)), JSON.stringify(third));
    assert.ok(!(await publicKeyIds(url)).includes(kidOf(token)));
    const refused = await validate(token);
    assert.equal(refused.status, 401);
    assert.equal(refused.body.reason, 'bad_signature');
  });

  it('after a leak, retires every earlier key at once: their tokens stop working', async () => {
    const token = await newBorrowerToken(server, `leak-${randomUUID()}@example.com`);
    assert.equal((await validate(token)).status, 200); // remembered as verified, too
    const rotation = await rotate({ retireEarlierKeysNow: true });
    assert.deepEqual(rotation.verifyingKids, [rotation.activeKid]);
    assert.ok(rotation.retiredKids.includes(kidOf(token)));
    assert.deepEqual(await publicKeyIds(url), [rotation.activeKid]);
    for (const answer of [
      await validate(token),
      await call(url, 'POST', authEndpoints.tokenRefresh.path, undefined, { token }),
      await call(url, 'GET', loanEndpoints.loans.path, token),
    ]) {
      assert.equal(answer.status, 401, JSON.stringify(answer.body));
    }
  });
});
