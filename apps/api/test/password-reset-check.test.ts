import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authEndpoints } from '@customer-core/contracts';
import { startTestServer, type TestServer } from '../testing/index.js';
import { createUser, mailFor, tokenOf } from './support/links.js';
import { json, post } from './support/session.js';

// The password-reset page checks its link when it opens, as the invitation page does: a check that
// tells a usable link from a dead one and never spends it.

describe('password-reset link check', () => {
  let server: TestServer;
  let url: string;
  before(async () => {
    server = await startTestServer('pglite');
    url = server.baseUrl;
  });
  after(() => server?.close());

  const check = async (token: unknown) =>
    json(await post(url, authEndpoints.passwordResetCheck.path, { token }));
  const resetLinkFor = async (email: string) => {
    assert.equal((await post(url, authEndpoints.passwordReset.path, { email })).status, 200);
    const [message] = await mailFor(url, email, 1);
    return tokenOf(message!, 'password-reset');
  };
  const INVALID = {
    status: 400,
    body: {
      error: 'invalid_link',
      message: 'This password-reset link is invalid, has expired or was already used. Ask for a new link.',
    },
  };

  it('says a fresh link is usable, as often as asked, without spending it; a used one is not', async () => {
    const user = await createUser(server);
    const token = await resetLinkFor(user.login);
    assert.deepEqual(await check(token), { status: 200, body: { usable: true } });
    assert.deepEqual(await check(token), { status: 200, body: { usable: true } }, 'checking spends nothing');

    const finished = await post(url, authEndpoints.passwordResetFinish.path, {
      token,
      password: 'Fresh-Passw0rd',
    });
    assert.equal(finished.status, 200, 'the link still works after the checks');
    assert.deepEqual(await check(token), INVALID);
  });

  it('refuses an unknown token, and a missing or malformed one as bad input', async () => {
    assert.deepEqual(await check('made-up-token'), INVALID);
    assert.equal((await check('')).status, 400);
    assert.equal((await check(42)).status, 400);
    assert.equal((await post(url, authEndpoints.passwordResetCheck.path, {})).status, 400);
  });
});
