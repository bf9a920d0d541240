import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { authEndpoints, type AccountSession } from '@customer-core/contracts';
import { createUser } from './support/links.js';
import { operatorCli } from './support/operator-cli.js';
import { accessTokenOf, call } from './support/loans.js';

// `npm run cli -- sessions`: a borrower's sign-in sessions for operators, run in this process (the
// command line's own process start is covered by cli.test.ts).

const OPERATOR_SECRET = 'operator-secret-for-cli-session-tests-0123456789';

describe('npm run cli -- sessions', () => {
  const { server: testServer, cli } = operatorCli('pglite', 'sessions', OPERATOR_SECRET);
  const profile = async (token: string) =>
    (await call(testServer().baseUrl, 'GET', authEndpoints.profile.path, token)).status;

  it('lists, ends one by --revoke, then all by --all', async () => {
    const user = await createUser(testServer());
    const first = await accessTokenOf(testServer().baseUrl, user.login, user.password);
    const second = await accessTokenOf(testServer().baseUrl, user.login, user.password);
    const [firstSid, secondSid] = [first, second].map((token) => String(decodeJwt(token).sid));

    const listed = await cli('--email', user.login);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(
      listed.stdout,
      /^SESSION\s+SIGNED IN \(UTC\)\s+LAST ACTIVE \(UTC\)\s+HOW\s+DEVICE\s+NETWORK$/m,
    );
    assert.match(listed.stdout, new RegExp(`^${secondSid} .* Password .*127\\.0\\.0\\.0/24$`, 'm'));
    assert.match(listed.stdout, /^2 active sessions\.$/m);
    const json = await cli('--email', user.login, '--json');
    assert.deepEqual(
      (JSON.parse(json.stdout) as AccountSession[]).map((s) => s.id),
      [secondSid, firstSid],
    );

    const revoked = await cli('--email', user.login, '--revoke', secondSid!);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal(revoked.stdout, `Ended session ${secondSid} of ${user.login}.`);
    assert.equal(await profile(second), 401);
    assert.equal(await profile(first), 200);

    const all = await cli('--email', user.login, '--all');
    assert.equal(all.code, 0, all.stderr);
    assert.equal(all.stdout, `Ended every session of ${user.login} (1 active).`);
    assert.equal(await profile(first), 401);
    assert.equal((await cli('--email', user.login)).stdout, `${user.login} has no active sessions.`);
  });

  it("refuses bad arguments with exit 2, and another borrower's session with no change", async () => {
    const user = await createUser(testServer());
    const other = await createUser(testServer());
    const theirs = await accessTokenOf(testServer().baseUrl, other.login, other.password);
    const theirSid = String(decodeJwt(theirs).sid);
    await accessTokenOf(testServer().baseUrl, user.login, user.password);

    const cases: Array<[string[], RegExp]> = [
      [[], /sessions needs --email/],
      [['--email', 'not-an-address'], /--email: Invalid email address\./],
      [['--email', user.login, '--revoke', 'nope'], /--revoke: The session id is not well-formed\./],
      [['--email', user.login, '--revoke', theirSid, '--all'], /--revoke or --all, not both/],
      [['--email', user.login, '--revoke', theirSid], new RegExp(`has no active session ${theirSid}`)],
    ];
    for (const [args, message] of cases) {
      const run = await cli(...args);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stdout}`);
      assert.match(run.stderr, message);
    }
    assert.equal(await profile(theirs), 200);

    const unknown = await cli('--email', 'nobody.at.all@example.com');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /No borrower has that email address\./);
  });
});
