import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  activityEndpoints,
  PASSKEY_ERROR_CODES,
  passkeyEndpoints,
  secondFactorEndpoints,
} from '@customer-core/contracts';
import { startTestServer, type TestServer } from '../testing/index.js';
import { SoftwareAuthenticator } from '../../idp/test/software-authenticator.js';
import { authn, createUser, mailFor } from './support/links.js';
import { accessTokenOf, call } from './support/loans.js';

// Passkeys from the account page (/api/account/factors/passkey...): the options, the browser's new
// credential (a software authenticator here), the list, removal, the e-mails and the activity.

const PASSWORD = 'Original-Pass-1';

describe(`the borrower's passkeys`, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('pglite', { MFA_POLICY: 'optional' });
  });
  after(() => server?.close());

  async function signedIn() {
    const user = await createUser(server, PASSWORD);
    return { ...user, token: await accessTokenOf(server.baseUrl, user.login, PASSWORD) };
  }
  const enrol = (token: string) => call(server.baseUrl, 'POST', passkeyEndpoints.enrol.path, token);
  const activate = (token: string, factorId: string, body: unknown) =>
    call(server.baseUrl, 'POST', passkeyEndpoints.activate.href({ factorId }), token, body);

  it('adds a named passkey with the browser’s credential, lists it, asks for it at sign-in, and e-mails and records it', async () => {
    const borrower = await signedIn();
    const authenticator = new SoftwareAuthenticator({ origin: server.baseUrl });
    const started = await enrol(borrower.token);
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const factorId = String(started.body.factorId);
    const options = started.body.options as { challenge: string; rp: { id: string }; user: { id: string } };
    assert.equal(options.rp.id, new URL(server.baseUrl).hostname);

    for (const bad of [
      { name: '', ...authenticator.create(options) },
      { name: 'Laptop', attestation: 'not base64url!', clientData: 'abc' },
      { name: 'Line\nbreak', ...authenticator.create(options) },
      {},
    ]) {
      const refused = await activate(borrower.token, factorId, bad);
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
    }
    const elsewhere = await activate(borrower.token, factorId, {
      name: 'Laptop',
      ...authenticator.create(options, 'https://evil.example'),
    });
    assert.equal(elsewhere.status, 400);
    assert.equal(elsewhere.body.error, PASSKEY_ERROR_CODES.refused);

    const again = await enrol(borrower.token);
    const againId = String(again.body.factorId);
    const added = await activate(borrower.token, againId, {
      name: '  Work laptop ',
      ...authenticator.create(again.body.options as typeof options),
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const replay = await activate(borrower.token, againId, {
      name: 'Work laptop',
      ...authenticator.create(again.body.options as typeof options),
    });
    assert.equal(replay.status, 404, 'an active passkey has nothing left to add');

    const listed = await call(server.baseUrl, 'GET', secondFactorEndpoints.list.path, borrower.token);
    assert.equal(listed.body.passkeysAddedHere, true);
    const factors = listed.body.factors as Array<Record<string, unknown>>;
    assert.deepEqual(
      factors.map((factor) => [factor.id, factor.type, factor.name, factor.lastUsedAt]),
      [[againId, 'passkey', 'Work laptop', null]],
    );

    const signIn = await authn(server.baseUrl, borrower.login, PASSWORD, '192.0.2.30');
    const transaction = (await signIn.json()) as {
      status: string;
      _embedded: { factors: Array<{ factorType: string }> };
    };
    assert.equal(transaction.status, 'MFA_REQUIRED');
    assert.deepEqual(
      transaction._embedded.factors.map((factor) => factor.factorType),
      ['webauthn'],
    );

    const [mail] = await mailFor(server.baseUrl, borrower.login);
    assert.equal(mail?.subject, `A passkey was added to your ${server.config.lender.name} account`);
    const activity = await call(server.baseUrl, 'GET', activityEndpoints.account.path, borrower.token);
    const events = activity.body.events as Array<{ kind: string; factor?: string }>;
    assert.ok(
      events.some((event) => event.kind === 'second_factor_added' && event.factor === 'passkey'),
      JSON.stringify(events),
    );

    const removed = await call(
      server.baseUrl,
      'POST',
      secondFactorEndpoints.remove.href({ factorId: againId }),
      borrower.token,
      { currentPassword: PASSWORD },
    );
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    const messages = await mailFor(server.baseUrl, borrower.login, 2);
    assert.ok(
      messages.some(
        (m) => m.subject === `A passkey was removed from your ${server.config.lender.name} account`,
      ),
      messages.map((m) => m.subject).join('; '),
    );
  });

  it("answers another borrower's pending passkey and a malformed id 404", async () => {
    const owner = await signedIn();
    const other = await signedIn();
    const started = await enrol(owner.token);
    const options = started.body.options as { challenge: string; user: { id: string } };
    const credential = {
      name: 'Phone',
      ...new SoftwareAuthenticator({ origin: server.baseUrl }).create(options),
    };
    for (const answer of [
      await activate(other.token, String(started.body.factorId), credential),
      await activate(other.token, 'not an id!', credential),
    ]) {
      assert.equal(answer.status, 404, JSON.stringify(answer.body));
    }
    // The owner's challenge was not spent by those.
    assert.equal((await activate(owner.token, String(started.body.factorId), credential)).status, 200);
    const unauthenticated = await call(server.baseUrl, 'POST', passkeyEndpoints.enrol.path, '');
    assert.equal(unauthenticated.status, 401);
  });
});
