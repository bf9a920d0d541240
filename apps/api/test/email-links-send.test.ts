import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authEndpoints, LINK_SENT_MESSAGE, sameOriginPath } from '@customer-core/contracts';
import {
  OPEN_REDIRECT_PAYLOADS,
  assertSameOriginPath,
} from '../../../packages/contracts/test/support/open-redirect.js';
import { startTestServer, type TestServer, untilAfter } from '../testing/index.js';
import { logCollector } from './support/mail.js';
import {
  createUser,
  inbox,
  mailFor,
  stableHeaders,
  tokenOf,
  LINK_LIMITS_LIFTED,
  clientAddresses,
} from './support/links.js';
import { post } from './support/session.js';

const SEND_CALLS = [
  { name: 'password-reset', path: authEndpoints.passwordReset.path, page: 'password-reset' as const },
  {
    name: 'send-magic-link-email',
    path: authEndpoints.sendMagicLinkEmail.path,
    page: 'magic-link-landing' as const,
  },
];

/** A client address of its own (the servers trust X-Forwarded-For), so tests do not share a limit. */
const newClient = clientAddresses();

describe('e-mailed links: asking for one', () => {
  let server: TestServer;
  let url: string;
  const logs = logCollector();

  before(async () => {
    // Limits out of the way here; the rate-limit tests below run their own server with the defaults.
    server = await startTestServer(
      'pglite',
      {
        TRUST_PROXY: 'true',
        LOG_LEVEL: 'info',
        ...LINK_LIMITS_LIFTED,
      },
      { logStream: logs.stream },
    );
    url = server.baseUrl;
  });
  after(() => server?.close());

  const send = (path: string, body: unknown, client = newClient()) =>
    post(url, path, body, { 'x-forwarded-for': client });

  for (const call of SEND_CALLS) {
    it(`${call.name}: the same answer for a known and an unknown address; mail only to the known one`, async () => {
      const user = await createUser(server);
      const unknown = `nobody.${Date.now()}@example.com`;
      const client = newClient();
      const known = await send(call.path, { email: user.login.toUpperCase() }, client);
      const stranger = await send(call.path, { email: unknown }, client);

      assert.equal(known.status, 200);
      assert.equal(stranger.status, 200);
      assert.deepEqual(stableHeaders(known), stableHeaders(stranger));
      assert.equal(known.headers.get('cache-control'), 'no-store');
      const [knownBody, strangerBody] = [await known.text(), await stranger.text()];
      assert.equal(knownBody, strangerBody);
      assert.deepEqual(JSON.parse(knownBody), { message: LINK_SENT_MESSAGE });

      const [message] = await mailFor(url, user.login);
      assert.ok(message);
      const token = tokenOf(message, call.page);
      assert.equal(message.links[0], `${url}/auth/${call.page}/${token}`);
      assert.ok(Buffer.from(token, 'base64url').length >= 32, 'at least 256 random bits');
      assert.match(
        message.text,
        call.page === 'password-reset' ? /expires in 30 minutes/ : /expires in 10 minutes/,
      );

      // The known address's message has been delivered; the unknown one had none, not even queued
      // (the outbox is written before the answer, and only the outbox is ever delivered).
      assert.deepEqual(await inbox(url, unknown), []);
      const { db } = server.server;
      const queued = await db
        .selectFrom('mail_outbox')
        .select('recipient')
        .where('recipient', 'in', [unknown, 'nobody@unknown-address.invalid'])
        .execute();
      assert.deepEqual(queued, [], 'no message for an unknown (or decoy) address');
      // Every stored token belongs to a real user: the unknown address's decoy was rolled back.
      const tokens = await db.selectFrom('link_token').select('idp_user_id').distinct().execute();
      for (const { idp_user_id } of tokens) {
        assert.ok(await server.server.identityProvider!.users.findById(idp_user_id));
      }

      // Only the hash is stored.
      const stored = await db.selectFrom('link_token').selectAll().execute();
      assert.ok(stored.every((row) => row.token_hash !== token && !JSON.stringify(row).includes(token)));
    });
  }

  it('concurrent requests for one address: all answered alike, each link usable', async () => {
    const user = await createUser(server);
    const statuses = await Promise.all(
      Array.from(
        { length: 10 },
        async () => (await send(authEndpoints.passwordReset.path, { email: user.login })).status,
      ),
    );
    assert.deepEqual(new Set(statuses), new Set([200]));
    const usable = await server.server.db
      .selectFrom('link_token')
      .select('id')
      .where('idp_user_id', '=', user.id)
      .where('consumed_at', 'is', null)
      .execute();
    assert.equal(usable.length, 10, 'a new link voids none the borrower holds');
    await mailFor(url, user.login, 10);
  });

  it('a sign-in link carries a same-origin returnTo, and drops any other', async () => {
    const user = await createUser(server);
    const { db } = server.server;
    const cases: Array<[string | undefined, string | null]> = [
      ['/ui/dashboard/loan-checkout/42?tab=docs#sign', '/ui/dashboard/loan-checkout/42?tab=docs#sign'],
      ['//evil.example', null],
      ['/\\evil.example', null],
      ['https://evil.example/ui/dashboard/', null],
      ['javascript:alert(1)', null],
      ['/%2F%2Fevil.example', null],
      ['/auth/login', null],
      [undefined, null],
    ];
    for (const [returnTo, stored] of cases) {
      const response = await send(authEndpoints.sendMagicLinkEmail.path, { email: user.login, returnTo });
      assert.equal(response.status, 200, String(returnTo));
      const row = await db
        .selectFrom('link_token')
        .select('return_to')
        .where('idp_user_id', '=', user.id)
        .where('purpose', '=', 'magic_link')
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(1)
        .executeTakeFirstOrThrow();
      assert.equal(row.return_to, stored, String(returnTo));
    }
  });

  it('stores a same-origin returnTo, or none, for each open-redirect payload', async () => {
    const user = await createUser(server);
    const { db } = server.server;
    let stored = 0;
    for (const payload of OPEN_REDIRECT_PAYLOADS) {
      const response = await send(authEndpoints.sendMagicLinkEmail.path, {
        email: user.login,
        returnTo: payload,
      });
      // A payload the request schema refuses outright is fine too; never a 5xx.
      assert.ok(response.status === 200 || response.status === 400, `${payload}: ${response.status}`);
      if (response.status !== 200) continue;
      stored += 1;
      const rows = await db
        .selectFrom('link_token')
        .select('return_to')
        .where('idp_user_id', '=', user.id)
        .where('purpose', '=', 'magic_link')
        .execute();
      assert.equal(rows.length, stored);
      const row = await db
        .selectFrom('link_token')
        .select('return_to')
        .where('idp_user_id', '=', user.id)
        .where('purpose', '=', 'magic_link')
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow();
      assertSameOriginPath(payload, row.return_to, sameOriginPath);
    }
    assert.ok(stored >= 50, `${stored} payloads reached the store`);
  });

  it('refuses malformed bodies with 400 and a clear message, never 5xx', async () => {
    for (const call of SEND_CALLS) {
      const cases: Array<[unknown, RegExp]> = [
        [{}, /email/],
        [{ email: '' }, /Email is required\./],
        [{ email: 'not-an-address' }, /Invalid email address\./],
        [{ email: 42 }, /email/],
        [{ email: `${'a'.repeat(250)}@example.com` }, /Invalid email address\./],
        [[], /./],
      ];
      for (const [body, message] of cases) {
        const response = await send(call.path, body);
        const json = (await response.json()) as { error: string; message: string };
        assert.equal(response.status, 400, `${call.name} ${JSON.stringify(body)}`);
        assert.equal(json.error, 'bad_request');
        assert.match(json.message, message);
      }
      const badJson = await fetch(`${url}${call.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"email":',
      });
      assert.equal(badJson.status, 400);
      const text = await fetch(`${url}${call.path}`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'demo@example.com',
      });
      assert.equal(text.status, 415);
    }
    const longReturnTo = await send(authEndpoints.sendMagicLinkEmail.path, {
      email: 'someone@example.com',
      returnTo: `/${'a'.repeat(3000)}`,
    });
    assert.equal(longReturnTo.status, 400);
  });

  it('never logs a token, link, password or full e-mail address', async () => {
    const user = await createUser(server);
    await send(authEndpoints.passwordReset.path, { email: user.login });
    await send(authEndpoints.sendMagicLinkEmail.path, { email: user.login, returnTo: '/ui/dashboard/' });
    await send(authEndpoints.passwordReset.path, { email: 'canary.unknown@example.com' });
    const messages = await mailFor(url, user.login, 2);
    const reset = tokenOf(
      messages.find((m) => m.subject.startsWith('Reset'))!,
      'password-reset',
    );
    const signIn = tokenOf(
      messages.find((m) => !m.subject.startsWith('Reset'))!,
      'magic-link-landing',
    );
    // Signing in first: a new password voids every link still unused.
    assert.equal((await post(url, authEndpoints.magicLinkLogin.path, { token: signIn })).status, 200);
    const finished = await post(url, authEndpoints.passwordResetFinish.path, {
      token: reset,
      password: 'Canary-Passw0rd-xyz',
    });
    assert.equal(finished.status, 200);
    // Everything these requests set off is logged by now: every request's completion (logged after
    // its answer is sent) and every e-mail's delivery.
    await untilAfter('every request and e-mail logged', logs.afterLines, async () => {
      const mails = await server.server.db
        .selectFrom('mail_outbox')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      const said = (msg: string) => logs.lines.filter((line) => line.msg === msg).length;
      return (
        said('mail: delivered') === Number(mails.n) && said('request completed') === said('incoming request')
      );
    });

    // No token or password in any line. The dev mailbox (never in production) names the recipient
    // of each message it receives; the request handling never does.
    const all = logs.lines.map((l) => JSON.stringify(l));
    const lines = logs.lines.filter((line) => line.component !== 'mail').map((l) => JSON.stringify(l));
    assert.ok(lines.some((line) => line.includes('e-mailed link requested')));
    // The mail lines name each message by its kind (the control that they are there at all).
    assert.ok(all.some((line) => line.includes('"kind":"password-reset"')));
    for (const secret of [reset, signIn, 'Canary-Passw0rd-xyz']) {
      assert.ok(!all.some((line) => line.includes(secret)), `${secret.slice(0, 12)}… is not logged`);
    }
    for (const address of [user.login, 'canary.unknown@example.com']) {
      assert.ok(!lines.some((line) => line.includes(address)), `${address} is not logged`);
    }
  });
});

describe('e-mailed links: rate limits', () => {
  let server: TestServer;
  let url: string;
  const logs = logCollector();

  before(async () => {
    // The defaults: 3 per e-mail address and client, 10 per e-mail address, 20 per client in 15 minutes.
    server = await startTestServer(
      'pglite',
      { TRUST_PROXY: 'true', LOG_LEVEL: 'info' },
      { logStream: logs.stream },
    );
    url = server.baseUrl;
  });
  after(() => server?.close());

  const send = (path: string, email: string, client: string) =>
    post(url, path, { email }, { 'x-forwarded-for': client });
  const outboxCount = async (recipient: string) =>
    (
      await server.server.db
        .selectFrom('mail_outbox')
        .select('id')
        .where('recipient', '=', recipient)
        .execute()
    ).length;

  it('per e-mail address and client: past 3 in the window nothing is sent, and the answer stays the same', async () => {
    const user = await createUser(server);
    const unknown = `nobody.limited.${Date.now()}@example.com`;
    const client = newClient();
    const answers: string[] = [];
    const headers: Array<Record<string, string>> = [];
    for (let i = 0; i < 5; i += 1) {
      for (const email of [user.login, unknown]) {
        const path = i % 2 ? authEndpoints.sendMagicLinkEmail.path : authEndpoints.passwordReset.path;
        const response = await send(path, email, client);
        assert.equal(response.status, 200);
        answers.push(await response.text());
        headers.push(stableHeaders(response));
      }
    }
    assert.equal(new Set(answers).size, 1, 'one answer for everything');
    assert.ok(headers.every((h) => JSON.stringify(h) === JSON.stringify(headers[0])));
    // The outbox is written before each answer: what it holds now is all that will ever be sent.
    assert.equal(await outboxCount(user.login), 3, 'the 4th and 5th were not sent');
    await mailFor(url, user.login, 3);
    assert.equal(await outboxCount(unknown), 0);
    const limited = logs.lines.filter((line) => line.outcome === 'limited');
    assert.equal(limited.length, 4, 'logged at info (2 for each address)');
    assert.ok(limited.every((line) => line.level === 30 && !JSON.stringify(line).includes('@')));
  });

  it("a stranger's requests from another client do not silence the owner", async () => {
    const user = await createUser(server);
    const stranger = newClient();
    for (let i = 0; i < 6; i += 1) {
      const path = i % 2 ? authEndpoints.sendMagicLinkEmail.path : authEndpoints.passwordReset.path;
      assert.equal((await send(path, user.login, stranger)).status, 200);
    }
    await mailFor(url, user.login, 3);
    const owner = newClient();
    assert.equal((await send(authEndpoints.passwordReset.path, user.login, owner)).status, 200);
    const [newest] = await mailFor(url, user.login, 4);
    assert.ok(newest?.subject.startsWith('Reset'), "the owner's own request got its e-mail");
  });

  it('per e-mail address across clients: past the ceiling of 10 nothing is sent (no mail flooding)', async () => {
    const user = await createUser(server);
    // 5 clients, each within its own limit of 3 for this address: 15 requests, 10 e-mails.
    for (let c = 0; c < 5; c += 1) {
      const client = newClient();
      for (let i = 0; i < 3; i += 1) {
        assert.equal((await send(authEndpoints.passwordReset.path, user.login, client)).status, 200);
      }
    }
    assert.equal(await outboxCount(user.login), 10, 'the ceiling holds');
    assert.equal((await send(authEndpoints.passwordReset.path, user.login, newClient())).status, 200);
    assert.equal(await outboxCount(user.login), 10, 'a fresh client is past the ceiling too');
  });

  it('per client address: past 20 in the window nothing is sent, whatever the address', async () => {
    const client = newClient();
    for (let i = 0; i < 20; i += 1) {
      const response = await send(
        authEndpoints.passwordReset.path,
        `spray.${i}.${Date.now()}@example.com`,
        client,
      );
      assert.equal(response.status, 200);
    }
    const user = await createUser(server);
    const unknown = `nobody.sprayed.${Date.now()}@example.com`;
    const known = await send(authEndpoints.passwordReset.path, user.login, client);
    const stranger = await send(authEndpoints.passwordReset.path, unknown, client);
    assert.equal(known.status, 200);
    assert.equal(stranger.status, 200);
    assert.deepEqual(stableHeaders(known), stableHeaders(stranger));
    assert.equal(await known.text(), await stranger.text());
    assert.equal(await outboxCount(user.login), 0, 'nothing sent from a client past its limit');

    // The balancer's own (last) X-Forwarded-For entry counts: a client cannot pick a fresh address.
    const spoofed = await send(authEndpoints.passwordReset.path, user.login, `203.0.113.9, ${client}`);
    assert.equal(spoofed.status, 200);
    assert.equal(await outboxCount(user.login), 0);

    // Another client is not affected.
    await send(authEndpoints.passwordReset.path, user.login, newClient());
    await mailFor(url, user.login, 1);
  });
});
