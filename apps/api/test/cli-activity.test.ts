import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { accountEndpoints, type SecurityEvent } from '@customer-core/contracts';
import { createUser } from './support/links.js';
import { operatorCli } from './support/operator-cli.js';
import { accessTokenOf, call } from './support/loans.js';
import { post } from './support/session.js';

// `npm run cli -- activity`: a borrower's security activity for operators, run in this process.

const OPERATOR_SECRET = 'operator-secret-for-cli-activity-tests-0123456789';

describe('npm run cli -- activity', () => {
  const { server: testServer, cli } = operatorCli('pglite', 'activity', OPERATOR_SECRET);

  it('lists sign-ins and sessions ended, newest first, as a table and as JSON, without secrets', async () => {
    const user = await createUser(testServer());
    const first = await accessTokenOf(testServer().baseUrl, user.login, user.password);
    const second = await accessTokenOf(testServer().baseUrl, user.login, user.password);
    const secondSid = String(decodeJwt(second).sid);
    const ended = await call(
      testServer().baseUrl,
      'POST',
      accountEndpoints.endSession.href({ sessionId: secondSid }),
      first,
    );
    assert.equal(ended.status, 200);

    const listed = await cli('--email', user.login);
    assert.equal(listed.code, 0, listed.stderr);
    const lines = listed.stdout.split('\n');
    assert.match(lines[0]!, /^WHEN \(UTC\)\s+WHAT\s+DETAIL\s+DEVICE\s+NETWORK$/);
    assert.match(
      lines[2]!,
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+Signed out\s+By the borrower\s+.*127\.0\.0\.0\/24$/,
    );
    assert.match(lines[3]!, /\s+Signed in\s+Password\s+/);
    assert.match(lines[4]!, /\s+Signed in\s+Password\s+/);
    assert.match(listed.stdout, /^3 events\.$/m);

    const json = await cli('--email', user.login, '--json');
    assert.equal(json.code, 0, json.stderr);
    const events = JSON.parse(json.stdout) as SecurityEvent[];
    assert.deepEqual(
      events.map((e) => [e.kind, e.method ?? e.endedBy]),
      [
        ['session_ended', 'borrower'],
        ['signed_in', 'password'],
        ['signed_in', 'password'],
      ],
    );
    for (const secret of [first, second, secondSid, user.password])
      assert.ok(!json.stdout.includes(secret) && !listed.stdout.includes(secret));
  });

  it('names a device as parsed, never in the words a stranger sent as its User-Agent', async () => {
    const user = await createUser(testServer());
    await accessTokenOf(testServer().baseUrl, user.login, user.password);
    for (const userAgent of [
      'Main Street Funding security: call 1-800-555-0199 now',
      'Call 1-800-555-0199 now/2.0 (Main Street Funding)',
    ]) {
      const wrong = await post(
        testServer().baseUrl,
        '/api/v1/authn',
        { username: user.login, password: 'Not-The-Password-5' },
        { 'user-agent': userAgent },
      );
      assert.equal(wrong.status, 401);
    }
    const listed = await cli('--email', user.login);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /Failed sign-in attempts\s+2 in a row\s+-\s+/);
    const json = await cli('--email', user.login, '--json');
    for (const output of [listed.stdout, json.stdout]) assert.doesNotMatch(output, /1-800-555-0199/);
  });

  it('follows the pages to the end', async () => {
    const user = await createUser(testServer());
    const token = await accessTokenOf(testServer().baseUrl, user.login, user.password);
    const borrowerId = String(decodeJwt(token).sub);
    const now = Date.now();
    await testServer()
      .server.db.insertInto('security_event')
      .values(
        Array.from({ length: 60 }, (_, i) => ({
          borrower_id: borrowerId,
          kind: 'password_changed',
          occurred_at: new Date(now - (i + 1) * 1000),
        })),
      )
      .execute();
    const json = await cli('--email', user.login, '--json');
    assert.equal(json.code, 0, json.stderr);
    const events = JSON.parse(json.stdout) as SecurityEvent[];
    assert.equal(events.length, 61);
    assert.equal(new Set(events.map((e) => e.id)).size, 61);
  });

  it('refuses bad arguments with exit 2 and an unknown borrower with exit 1', async () => {
    const missing = await cli();
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /activity needs --email/);
    const bad = await cli('--email', 'not-an-address');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--email: Invalid email address\./);
    const unknown = await cli('--email', 'nobody.at.all@example.com');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /No borrower has that email address\./);
    // Created by an operator, never signed in.
    await testServer()
      .server.db.insertInto('borrower')
      .values({ email: 'not.yet.signed.in@example.com', idp_issuer: null, idp_subject: null })
      .execute();
    const none = await cli('--email', 'not.yet.signed.in@example.com');
    assert.equal(none.stdout, 'not.yet.signed.in@example.com has no security activity in the last 90 days.');
  });
});
