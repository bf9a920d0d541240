import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import {
  authEndpoints,
  registrationEndpoints,
  operatorEndpoints,
  INVITATION_LIFETIME_DAYS,
  type Invitation,
  type Profile,
} from '@customer-core/contracts';
import { borrowerRepository } from '../src/borrowers/borrower-repository.js';
import { completeSignInWithSessionToken, startTestServer, type TestServer } from '../testing/index.js';
import { DEMO_BORROWER } from '../src/loans/demo-borrower.js';
import {
  invite,
  linkTokenOf,
  MALFORMED_BODIES,
  OPERATOR_SECRET,
  OPERATOR_ENV,
  postRaw,
  uniqueEmail,
  type ApiErrorBody,
} from './support/joining.js';
import { authn, createUser, idTokenSubject, inbox, mailFor } from './support/links.js';
import { logCollector } from './support/mail.js';
import { demoAccessToken, json, post } from './support/session.js';
import { COMMON_PASSWORDS, TOO_COMMON_ANSWER, WEAK_PASSWORDS } from './support/password-rules.js';

interface RegistrationBody {
  access_token: string;
  sessionToken: string;
  returnTo: string | null;
}

const NAMES = { firstName: 'Grace', lastName: 'Hopper' };
const GOOD_PASSWORD = 'Brand-new-Passw0rd';
const DAY_MS = 24 * 60 * 60 * 1000;

describe('registration by invitation', () => {
  let server: TestServer;
  let url: string;
  const logs = logCollector();

  before(async () => {
    server = await startTestServer(
      'pglite',
      { ...OPERATOR_ENV, LOG_LEVEL: 'info' },
      { logStream: logs.stream },
    );
    url = server.baseUrl;
  });
  after(() => server?.close());

  /** Invites `email` and reads the registration link's token from the newest message. */
  const invited = async (email = uniqueEmail(), names = NAMES) => {
    const earlier = (await inbox(url, email)).length;
    const response = await invite(url, { email, ...names });
    const { status, body } = await json<{ borrowerId: string; expiresAt: string }>(response);
    assert.equal(status, 201, JSON.stringify(body));
    const [message] = await mailFor(url, email, earlier + 1);
    return { email, ...body, message: message!, token: linkTokenOf(message!, '/user-registration/') };
  };
  const lookup = (token: unknown) => post(url, registrationEndpoints.invitation.path, { token });
  const register = (token: unknown, password: unknown) =>
    post(url, registrationEndpoints.register.path, { token, password });
  const expectInvalidInvitation = async (response: Response, what: string) => {
    const body = (await response.json()) as ApiErrorBody;
    assert.equal(response.status, 400, what);
    assert.deepEqual(
      body,
      {
        error: 'invalid_link',
        message:
          'This invitation link is invalid, has expired or was already used. Call Main Street Funding at (800) 555-0142 for a new one.',
      },
      what,
    );
  };
  const expectAlreadyRegistered = async (response: Response, what: string) => {
    const body = (await response.json()) as ApiErrorBody;
    assert.equal(response.status, 409, what);
    assert.equal(body.error, 'already_registered', what);
    assert.match(body.message, /already has an account/, what);
    return body;
  };
  const usableInvitations = async (borrowerId: string) =>
    (
      await server.server.db
        .selectFrom('invitation')
        .select('id')
        .where('borrower_id', '=', borrowerId)
        .where('consumed_at', 'is', null)
        .execute()
    ).length;

  it('only an operator invites', async () => {
    const body = { email: uniqueEmail(), ...NAMES };
    const refused = [
      await invite(url, body, null),
      await invite(url, body, 'w'.repeat(45)),
      await invite(url, body, `operator:${OPERATOR_SECRET}`),
    ];
    for (const response of refused) {
      assert.equal(response.status, 401);
      assert.equal(((await response.json()) as ApiErrorBody).error, 'unauthorized');
    }
    // A borrower's own token is ours, and opens no operator's call: 403.
    const borrower = await invite(url, body, await demoAccessToken(url));
    assert.equal(borrower.status, 403);
    assert.equal((await inbox(url, body.email)).length, 0, 'no e-mail went out');
    const borrowers = await borrowerRepository(server.server.db).findByEmail(body.email);
    assert.equal(borrowers.length, 0, 'no borrower was created');
  });

  it('e-mails the invited borrower a registration link from the lender, and shows who it is for', async () => {
    const before = Date.now();
    const { email, borrowerId, expiresAt, message, token } = await invited();
    assert.match(borrowerId, /^[0-9a-f-]{36}$/);
    const lifetime = Date.parse(expiresAt) - before;
    assert.ok(
      Math.abs(lifetime - INVITATION_LIFETIME_DAYS * DAY_MS) < 60_000,
      `expires in 7 days: ${expiresAt}`,
    );

    assert.equal(message.subject, 'Welcome to Main Street Funding: set up your online account');
    assert.ok(message.links.includes(`${url}/user-registration/${token}`));
    assert.match(message.text, /^Welcome to Main Street Funding\n\nHi Grace,\n\n/);
    assert.match(message.text, /The link works once and expires in 7 days\./);
    assert.match(message.text, /Set up my account:\nhttp:\/\/localhost:\d+\/user-registration\//);
    assert.match(message.text, /Weren’t expecting this\?/);
    assert.match(message.html, /Set up my account<\/a>/);
    const { sender } = await server.server.db
      .selectFrom('dev_mailbox_message')
      .select('sender')
      .where('recipient', '=', email)
      .executeTakeFirstOrThrow();
    assert.match(sender, /Main Street Funding/);

    // Looking up does not use the invitation up.
    for (let i = 0; i < 2; i += 1) {
      const response = await lookup(token);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      const { status, body } = await json<Invitation>(response);
      assert.equal(status, 200);
      assert.deepEqual(body, { email, ...NAMES, expiresAt });
    }
  });

  it('refuses weak and common passwords and keeps the invitation usable', async () => {
    const { token } = await invited();
    for (const [password, message] of WEAK_PASSWORDS) {
      const { status, body } = await json<ApiErrorBody>(await register(token, password));
      assert.equal(status, 400, password);
      assert.equal(body.error, 'bad_request');
      assert.match(body.message, message);
    }
    for (const common of COMMON_PASSWORDS) {
      const { status, body } = await json(await register(token, common));
      assert.equal(status, 400, common);
      assert.deepEqual(body, TOO_COMMON_ANSWER);
    }
    assert.equal((await lookup(token)).status, 200, 'the invitation still works');
    assert.equal((await register(token, GOOD_PASSWORD)).status, 200);
  });

  it('registers: signs the borrower in, gives them what the operator added, and works once', async () => {
    // An operator added a loan for this address before inviting: the borrower exists, without an identity.
    const email = uniqueEmail();
    const db = server.server.db;
    const existing = await borrowerRepository(db).ensureByEmail({ email, firstName: null, lastName: null });
    const loan = await db
      .insertInto('loan')
      .values({
        borrower_id: existing.id,
        reference: `LN-${randomBytes(4).toString('hex').toUpperCase()}`,
        product: 'Term loan',
        amount_cents: 5_000_000,
        balance_cents: 4_000_000,
        status: 'ACTIVE',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { borrowerId, token } = await invited(email);
    assert.equal(borrowerId, existing.id, 'the invitation is for the borrower the loan belongs to');

    const response = await register(token, GOOD_PASSWORD);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const { status, body } = await json<RegistrationBody>(response);
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(Object.keys(body).sort(), ['access_token', 'returnTo', 'sessionToken']);
    assert.equal(body.returnTo, null);

    // The access token works, for the invited borrower with the names the operator gave.
    const profile = await json<Profile>(
      await fetch(`${url}${authEndpoints.profile.path}`, {
        headers: { authorization: `Bearer ${body.access_token}` },
      }),
    );
    assert.equal(profile.status, 200);
    assert.equal(profile.body.id, borrowerId);
    assert.equal(profile.body.email, email);
    assert.equal(profile.body.firstName, 'Grace');
    assert.equal(profile.body.lastName, 'Hopper');

    // The borrower is linked to the new IdP user, whose sign-in the session token completes.
    const linked = await db
      .selectFrom('borrower')
      .select(['idp_issuer', 'idp_subject'])
      .where('id', '=', borrowerId)
      .executeTakeFirstOrThrow();
    assert.equal(linked.idp_issuer, `${url}/oauth2/default`);
    const user = await server.server.identityProvider!.users.findById(linked.idp_subject!);
    assert.equal(user?.login, email);
    const tokens = await completeSignInWithSessionToken(url, body.sessionToken);
    assert.ok(tokens);
    assert.equal(idTokenSubject(tokens), linked.idp_subject);
    assert.equal((await authn(url, email, GOOD_PASSWORD)).status, 200, 'the chosen password signs in');
    const { borrower_id } = await db
      .selectFrom('loan')
      .select('borrower_id')
      .where('id', '=', loan.id)
      .executeTakeFirstOrThrow();
    assert.equal(borrower_id, profile.body.id, 'the loan added before is now theirs');

    // The link worked once; the address now has an account, so inviting it again is refused.
    await expectInvalidInvitation(await register(token, 'Another-Passw0rd-42'), 'registering again');
    await expectInvalidInvitation(await lookup(token), 'looking the used invitation up');
    const again = await expectAlreadyRegistered(await invite(url, { email, ...NAMES }), 're-invite');
    assert.match(again.message, new RegExp(email.replace(/\./g, '\\.')));

    // What was logged names the borrower, never the token or the password. (Outside production the
    // dev mailbox prints each message's links on purpose, for developers: that line is not the API's.)
    const logged = logs.lines
      .filter((line) => line.component !== 'mail')
      .map((line) => JSON.stringify(line))
      .join('\n');
    assert.ok(
      logs.lines.some((l) => l.msg === 'borrower registered by invitation' && l.borrowerId === borrowerId),
    );
    assert.ok(!logged.includes(token), 'no token in the logs');
    assert.ok(!logged.includes(GOOD_PASSWORD), 'no password in the logs');
  });

  it('refuses an expired invitation', async () => {
    const { token, borrowerId } = await invited();
    await server.server.db
      .updateTable('invitation')
      .set({ expires_at: sql<Date>`now() - interval '1 minute'` })
      .where('borrower_id', '=', borrowerId)
      .execute();
    await expectInvalidInvitation(await lookup(token), 'lookup');
    await expectInvalidInvitation(await register(token, GOOD_PASSWORD), 'register');
  });

  it('a new invitation voids the older link', async () => {
    const first = await invited();
    const second = await invited(first.email, { firstName: 'Grace B.', lastName: 'Hopper' });
    assert.equal(second.borrowerId, first.borrowerId);
    assert.notEqual(second.token, first.token);
    assert.equal(await usableInvitations(first.borrowerId), 1);

    await expectInvalidInvitation(await lookup(first.token), 'the older link');
    await expectInvalidInvitation(await register(first.token, GOOD_PASSWORD), 'the older link');
    const { status, body } = await json<Invitation>(await lookup(second.token));
    assert.equal(status, 200);
    assert.equal(body.firstName, 'Grace B.', 'the names of the latest invitation');
    assert.equal((await register(second.token, GOOD_PASSWORD)).status, 200);
  });

  it('refuses to invite an address that already has an account', async () => {
    const user = await createUser(server);
    await expectAlreadyRegistered(await invite(url, { email: user.login, ...NAMES }), 'an IdP user');
    await expectAlreadyRegistered(
      await invite(url, { email: DEMO_BORROWER.login.toUpperCase(), ...NAMES }),
      'the demo borrower, in other case',
    );
    assert.equal((await inbox(url, user.login)).length, 0, 'no invitation e-mail');
  });

  it('an address that got an account after the invitation: refused the same every time, the invitation kept', async () => {
    const { email, borrowerId, token } = await invited();
    await server.server.identityProvider!.users.create({
      login: email,
      password: 'Elsewhere-Made-1',
      ...NAMES,
    });

    await expectAlreadyRegistered(await lookup(token), 'lookup');
    for (let i = 0; i < 2; i += 1)
      await expectAlreadyRegistered(await register(token, GOOD_PASSWORD), 'register');
    assert.equal(await usableInvitations(borrowerId), 1, 'the invitation was given back');
    assert.equal((await authn(url, email, GOOD_PASSWORD)).status, 401, 'the password did not change');
  });

  it('of 50 concurrent registrations with one invitation, exactly one creates the account', async () => {
    const { email, token } = await invited();
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => register(token, `Concurrent-Passw0rd-${i}`)),
    );
    const statuses = responses.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 200).length, 1, JSON.stringify(statuses));
    assert.equal(statuses.filter((s) => s === 400).length, 49, JSON.stringify(statuses));
    for (const response of responses.filter((r) => r.status === 400)) {
      assert.equal(((await response.json()) as ApiErrorBody).error, 'invalid_link');
    }
    const borrowers = await borrowerRepository(server.server.db).findByEmail(email);
    assert.equal(borrowers.length, 1);
    assert.ok(borrowers[0]!.idpSubject);
  });

  it('answers bad input with 400 and a message, never a 5xx', async () => {
    const unknown = randomBytes(32).toString('base64url');
    await expectInvalidInvitation(await lookup(unknown), 'an unknown token');
    await expectInvalidInvitation(await register(unknown, GOOD_PASSWORD), 'an unknown token');

    const badTokens: Array<[unknown, RegExp]> = [
      [undefined, /token/],
      [123, /token/],
      [null, /token/],
      ['', /token: token is required/],
      ['x'.repeat(513), /token: token is too long/],
      [['a'], /token/],
    ];
    for (const [token, message] of badTokens) {
      for (const response of [await lookup(token), await register(token, GOOD_PASSWORD)]) {
        const { status, body } = await json<ApiErrorBody>(response);
        assert.equal(status, 400, `token ${JSON.stringify(token)}`);
        assert.equal(body.error, 'bad_request');
        assert.match(body.message, message);
      }
    }
    for (const password of [12345678, null, undefined, { value: GOOD_PASSWORD }]) {
      const { status, body } = await json<ApiErrorBody>(await register(unknown, password));
      assert.equal(status, 400, `password ${JSON.stringify(password)}`);
      assert.match(body.message, /^password: /);
    }

    const badInvitations: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...NAMES }, /email/],
      [{ email: 'not-an-address', ...NAMES }, /email: Invalid email address\./],
      [{ email: 42, ...NAMES }, /email/],
      [{ email: uniqueEmail(), firstName: ' ', lastName: 'Hopper' }, /firstName: First name is required\./],
      [{ email: uniqueEmail(), firstName: 'Grace' }, /lastName/],
      [
        { email: uniqueEmail(), firstName: 'G'.repeat(81), lastName: 'Hopper' },
        /firstName: First name must be at most 80 characters\./,
      ],
      [{ email: uniqueEmail(), firstName: ['Grace'], lastName: 'Hopper' }, /firstName/],
    ];
    for (const [body, message] of badInvitations) {
      const response = await json<ApiErrorBody>(await invite(url, body));
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.match(response.body.message, message);
    }

    for (const path of [
      registrationEndpoints.invitation.path,
      registrationEndpoints.register.path,
      operatorEndpoints.invitations.path,
    ]) {
      for (const { what, body, contentType } of MALFORMED_BODIES) {
        const response = await postRaw(url, path, body, contentType);
        assert.ok(response.status >= 400 && response.status < 500, `${path}, ${what}: ${response.status}`);
        const answer = (await response.json()) as ApiErrorBody;
        assert.ok(answer.error && answer.message, `${path}, ${what}: a message`);
      }
    }
  });
});
