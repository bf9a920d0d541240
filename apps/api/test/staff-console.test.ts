import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  accountEndpoints,
  activityEndpoints,
  AUDIT_REASON_HEADER,
  auditEndpoints,
  authEndpoints,
  consoleEndpoints,
  dataRightsEndpoints,
  documentEndpoints,
  loanEndpoints,
  operatorEndpoints,
  passkeyEndpoints,
  recoveryCodeEndpoints,
  secondFactorEndpoints,
  signingEndpoints,
  stepUpEndpoints,
  webhookEndpoints,
  type AuditRecordView,
  type Endpoint,
} from '@customer-core/contracts';
import {
  completeSignInWithSessionToken,
  freePort,
  signedInAgo,
  startTestOrg,
  startTestServer,
  TEST_ORG_CLIENT_ID,
  type TestOrg,
  type TestServer,
} from '../testing/index.js';
import {
  addStaffUser,
  consoleSignIn,
  STAFF_PASSWORD,
  staffIdToken,
  staffSignIn,
  staffToken,
} from './support/console.js';
import { uniqueEmail } from './support/joining.js';
import { authn, mailFor } from './support/links.js';
import { activeLoan, call, newBorrowerToken, OPERATOR_ENV, OPERATOR_SECRET } from './support/loans.js';
import { json, post } from './support/session.js';
import { runCli } from '../src/cli/run.js';

// The staff console's side of the API: staff sign in through the identity provider with a second
// factor, as a population apart from borrowers; a console token opens the operators' API as far as
// its role allows, a borrower's never does, and a console token never opens the borrower's API.

describe('the staff console', () => {
  let server: TestServer;
  let url: string;

  before(async () => {
    server = await startTestServer('pglite', OPERATOR_ENV);
    url = server.baseUrl;
  });
  after(() => server?.close());

  const get = (path: string, token?: string) => call(url, 'GET', path, token);

  it('signs a staff member in only after a second factor, with the role of their group', async () => {
    const support = await staffToken(server, 'support');
    const me = await get(consoleEndpoints.me.path, support.token);
    assert.equal(me.status, 200);
    assert.deepEqual([me.body.email, me.body.role, me.body.name], [support.login, 'support', 'Sam Okafor']);

    // A password alone: the ID token names the group, but says nothing of a second factor.
    const idp = server.server.identityProvider!;
    const user = await addStaffUser(server, 'admin');
    await idp.users.setGroups(user.id, []);
    const answer = (await json<{ sessionToken: string }>(await authn(url, user.login, STAFF_PASSWORD))).body;
    await idp.users.setGroups(user.id, ['admin']);
    const tokens = await completeSignInWithSessionToken(url, answer.sessionToken);
    const refused = await consoleSignIn(server, tokens!.idToken);
    assert.deepEqual([refused.status, refused.body.error], [403, 'second_factor_required']);
  });

  it('refuses a borrower at the console, without spending their ID token, and a staff member at the portal', async () => {
    const email = uniqueEmail('not-staff');
    await newBorrowerToken(server, email);
    const answer = (await json<{ sessionToken: string }>(await authn(url, email, 'Borrower-Pass-42'))).body;
    const tokens = await completeSignInWithSessionToken(url, answer.sessionToken);
    const refused = await consoleSignIn(server, tokens!.idToken);
    assert.deepEqual([refused.status, refused.body.error], [403, 'not_staff']);
    const exchanged = await post(url, authEndpoints.tokenExchange.path, { token: tokens!.idToken });
    assert.equal(exchanged.status, 200, 'the borrower still signs in to the portal with it');

    // A staff member's ID token never becomes a borrower's session.
    const staff = await addStaffUser(server, 'support');
    await server.server.identityProvider!.users.setGroups(staff.id, []);
    const staffAnswer = (await json<{ sessionToken: string }>(await authn(url, staff.login, STAFF_PASSWORD)))
      .body;
    await server.server.identityProvider!.users.setGroups(staff.id, ['support']);
    const staffTokens = await completeSignInWithSessionToken(url, staffAnswer.sessionToken);
    const atPortal = await post(url, authEndpoints.tokenExchange.path, { token: staffTokens!.idToken });
    assert.equal(atPortal.status, 403);
  });

  it('keeps the two populations apart: a borrower token is 403 at every console call, a console token at every borrower call', async () => {
    const borrowerToken = await newBorrowerToken(server, uniqueEmail('apart'));
    const { token } = await staffToken(server, 'admin');
    const every = [
      accountEndpoints,
      activityEndpoints,
      auditEndpoints,
      authEndpoints,
      consoleEndpoints,
      dataRightsEndpoints,
      documentEndpoints,
      loanEndpoints,
      operatorEndpoints,
      passkeyEndpoints,
      recoveryCodeEndpoints,
      secondFactorEndpoints,
      signingEndpoints,
      stepUpEndpoints,
      webhookEndpoints,
    ].flatMap((endpoints) => Object.values(endpoints) as Endpoint[]);
    // Each id in a path a real-looking one: the refusal comes before anything is looked up.
    const pathOf = (endpoint: Endpoint) =>
      endpoint.path.replace(/:\w+/g, '00000000-0000-0000-0000-000000000000');
    const refused = async (endpoint: Endpoint, bearer: string) =>
      (await call(url, endpoint.method, pathOf(endpoint), bearer, endpoint.method === 'GET' ? undefined : {}))
        .status;
    const consoleCalls = every.filter((endpoint) => endpoint.access === 'operator');
    const borrowerCalls = every.filter((endpoint) => endpoint.access === 'borrower');
    assert.ok(consoleCalls.length > 25 && borrowerCalls.length > 25);
    for (const endpoint of consoleCalls)
      assert.equal(await refused(endpoint, borrowerToken), 403, `${endpoint.method} ${endpoint.path}`);
    for (const endpoint of borrowerCalls)
      assert.equal(await refused(endpoint, token), 403, `${endpoint.method} ${endpoint.path}`);
    assert.equal((await get(operatorEndpoints.borrowers.path, 'not-a-token')).status, 401);
    assert.equal((await get(operatorEndpoints.borrowers.path)).status, 401);
  });

  it('lets support help a borrower and refuses them a loan officer’s work; an admin may do both', async () => {
    const support = await staffToken(server, 'support');
    const admin = await staffToken(server, 'admin');
    const email = uniqueEmail('helped');
    const borrowerToken = await newBorrowerToken(server, email);

    const loan = activeLoan(`LN-${Date.now() % 1_000_000}`, email);
    assert.equal((await call(url, 'POST', operatorEndpoints.loans.path, support.token, loan)).status, 403);
    assert.equal((await call(url, 'POST', operatorEndpoints.loans.path, admin.token, loan)).status, 201);

    const found = await get(
      `${operatorEndpoints.borrowers.path}?q=${encodeURIComponent(email)}`,
      support.token,
    );
    const [borrower] = (found.body as { borrowers: Array<{ id: string }> }).borrowers;
    const file = await get(consoleEndpoints.borrowerFile.href({ borrowerId: borrower!.id }), support.token);
    assert.equal(file.status, 200);
    const { loans, factors } = file.body as { loans: Array<{ reference: string }>; factors: unknown[] };
    assert.deepEqual([loans.map((l) => l.reference), factors], [[loan.reference], []]);
    const before = file.body.borrower as { legalHold: boolean; legalHoldReason: null; legalHoldSince: null };
    assert.deepEqual([before.legalHold, before.legalHoldReason, before.legalHoldSince], [false, null, null]);
    const held = await call(url, 'PUT', dataRightsEndpoints.legalHold.path, OPERATOR_SECRET, {
      email,
      hold: true,
      reason: 'Litigation hold, matter 2026-114',
    });
    assert.equal(held.status, 200, JSON.stringify(held.body));
    const onHold = (
      await get(consoleEndpoints.borrowerFile.href({ borrowerId: borrower!.id }), support.token)
    ).body.borrower as { legalHold: boolean; legalHoldReason: string; legalHoldSince: string };
    assert.deepEqual([onHold.legalHold, onHold.legalHoldReason], [true, 'Litigation hold, matter 2026-114']);
    assert.ok(!Number.isNaN(Date.parse(onHold.legalHoldSince)));

    const ended = await fetch(`${url}${operatorEndpoints.endAllSessions.path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${support.token}`,
        'content-type': 'application/json',
        [AUDIT_REASON_HEADER]: 'Borrower reported a lost laptop, ticket 5120',
      },
      body: JSON.stringify({ email }),
    });
    assert.equal(ended.status, 200);
    assert.equal(
      (await get(loanEndpoints.loans.path, borrowerToken)).status,
      401,
      'the borrower’s token is over',
    );

    const audit = await get(
      `${auditEndpoints.records.path}?action=${encodeURIComponent(`POST ${operatorEndpoints.endAllSessions.path}`)}`,
      OPERATOR_SECRET,
    );
    const [record] = (audit.body as { records: AuditRecordView[] }).records;
    assert.deepEqual(
      [record?.actor, record?.role, record?.reason, record?.target],
      [`staff:${support.login}`, 'support', 'Borrower reported a lost laptop, ticket 5120', `email:${email}`],
    );
    const refusedLoan = await get(
      `${auditEndpoints.records.path}?actor=${encodeURIComponent(`staff:${support.login}`)}&action=${encodeURIComponent(`POST ${operatorEndpoints.loans.path}`)}`,
      admin.token,
    );
    assert.deepEqual(
      (refusedLoan.body as { records: AuditRecordView[] }).records.map((r) => r.outcome),
      [403],
      'a refused call is in the trail too',
    );
  });

  it('asks for a fresh sign-in before a destructive action', async () => {
    const support = await staffToken(server, 'support');
    const email = uniqueEmail('step-up');
    await newBorrowerToken(server, email);
    const reset = (token: string) =>
      fetch(`${url}${operatorEndpoints.resetSecondFactors.path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          [AUDIT_REASON_HEADER]: 'Lost phone, identity checked by loan number',
        },
        body: JSON.stringify({ email }),
      }).then((response) => json<{ error?: string }>(response));
    const stale = await signedInAgo(server, support.token, 10 * 60);
    const refused = await reset(stale);
    assert.deepEqual([refused.status, refused.body.error], [403, 'step_up_required']);
    assert.equal((await reset(support.token)).status, 200);
    // Reading needs no step-up, however old the sign-in.
    assert.equal((await get(`${operatorEndpoints.sessions.path}?email=${email}`, stale)).status, 200);
  });

  it('ends the console session at sign-out, and at a change of role', async () => {
    const first = await staffToken(server, 'support');
    assert.equal((await call(url, 'POST', consoleEndpoints.signOut.path, first.token)).status, 200);
    assert.equal((await get(consoleEndpoints.me.path, first.token)).status, 401);

    const admin = await staffToken(server, 'admin');
    const second = await staffToken(server, 'support');
    const changed = await call(
      url,
      'PATCH',
      consoleEndpoints.changeStaffUser.href({ staffId: second.id }),
      admin.token,
      {
        role: null,
      },
    );
    assert.deepEqual(changed.body, { id: second.id, role: null });
    assert.equal((await get(consoleEndpoints.me.path, second.token)).status, 401);
    const staff = (await get(consoleEndpoints.staffUsers.path, admin.token)).body as {
      staff: Array<{ id: string }>;
    };
    assert.ok(!staff.staff.some((user) => user.id === second.id), 'no longer staff');
  });

  it('takes a staff ID token once', async () => {
    const user = await addStaffUser(server, 'support');
    const idToken = await staffIdToken(server, user.login);
    assert.equal((await consoleSignIn(server, idToken)).status, 200);
    const replayed = await consoleSignIn(server, idToken);
    assert.deepEqual([replayed.status, replayed.body.error], [401, 'id_token_used']);
  });

  it('refuses an ID token minted before the role was taken away', async () => {
    const admin = await staffToken(server, 'admin');
    const user = await addStaffUser(server, 'support');
    const idToken = await staffIdToken(server, user.login);
    const taken = await call(
      url,
      'PATCH',
      consoleEndpoints.changeStaffUser.href({ staffId: user.id }),
      admin.token,
      {
        role: null,
      },
    );
    assert.equal(taken.status, 200);
    const refused = await consoleSignIn(server, idToken);
    assert.deepEqual([refused.status, refused.body.error], [403, 'not_staff']);
  });

  it('adds a staff user, who is e-mailed a link to set their password; only staff users change role', async () => {
    const admin = await staffToken(server, 'admin');
    const email = uniqueEmail('new-agent');
    const added = await call(url, 'POST', consoleEndpoints.addStaffUser.path, admin.token, {
      email,
      firstName: 'Noor',
      lastName: 'Haddad',
      role: 'support',
    });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    assert.equal(added.body.role, 'support');
    const [message] = await mailFor(url, email);
    assert.match(message!.subject, /password/i);
    const again = await call(url, 'POST', consoleEndpoints.addStaffUser.path, admin.token, {
      email,
      firstName: 'Noor',
      lastName: 'Haddad',
      role: 'admin',
    });
    assert.equal(again.status, 409);

    // A borrower's identity is no staff user: their id changes nothing.
    const borrowerEmail = uniqueEmail('not-made-staff');
    await newBorrowerToken(server, borrowerEmail);
    const borrowerUser = await server.server.identityProvider!.users.findByLogin(borrowerEmail);
    for (const staffId of [borrowerUser!.id, '00000000-0000-0000-0000-000000000000', 'x'.repeat(90), '%00']) {
      const answer = await call(
        url,
        'PATCH',
        `/api/operator/staff/${encodeURIComponent(staffId)}`,
        admin.token,
        {
          role: 'admin',
        },
      );
      assert.equal(answer.status, 404, staffId);
    }
    assert.deepEqual((await server.server.identityProvider!.users.findById(borrowerUser!.id))!.groups, []);
    const self = await call(
      url,
      'PATCH',
      consoleEndpoints.changeStaffUser.href({ staffId: admin.id }),
      admin.token,
      {
        role: 'support',
      },
    );
    assert.equal(self.status, 403, 'an admin does not change their own role');
  });

  it('answers 404 for a borrower id that is no borrower’s', async () => {
    const support = await staffToken(server, 'support');
    for (const id of ['00000000-0000-0000-0000-000000000000', 'not-an-id', "1' or '1'='1", 'é'.repeat(40)]) {
      const answer = await get(`/api/operator/borrowers/${encodeURIComponent(id)}`, support.token);
      assert.equal(answer.status, 404, id);
    }
  });

  it('sends an invitation again with a new link', async () => {
    const support = await staffToken(server, 'support');
    const email = uniqueEmail('resend');
    const invited = await call(url, 'POST', operatorEndpoints.invitations.path, OPERATOR_SECRET, {
      email,
      firstName: 'Ines',
      lastName: 'Vega',
    });
    assert.equal(invited.status, 201);
    const [invitedOne] = (
      (await get(`${operatorEndpoints.borrowers.path}?q=${encodeURIComponent(email)}`, support.token))
        .body as {
        borrowers: Array<{ id: string }>;
      }
    ).borrowers;
    const invitedFile = await get(
      consoleEndpoints.borrowerFile.href({ borrowerId: invitedOne!.id }),
      support.token,
    );
    assert.deepEqual(
      [
        (invitedFile.body.borrower as { state: string }).state,
        (invitedFile.body.borrower as { locked: unknown }).locked,
      ],
      ['invited', null],
    );
    const resent = await call(url, 'POST', consoleEndpoints.resendInvitation.path, support.token, { email });
    assert.equal(resent.status, 200, JSON.stringify(resent.body));
    const messages = await mailFor(url, email, 2);
    assert.equal(messages.length, 2);
    const unknown = await call(url, 'POST', consoleEndpoints.resendInvitation.path, support.token, {
      email: uniqueEmail('nobody'),
    });
    assert.equal(unknown.status, 404);
  });

  it('is run with npm run cli -- staff and resend-invitation', async () => {
    const cli = async (...args: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(
        args,
        { PORTAL_URL: url, OPERATOR_CREDENTIAL: OPERATOR_SECRET },
        {
          out: (line) => out.push(line),
          err: (line) => err.push(line),
        },
      );
      return { code, out: out.join('\n'), err: err.join('\n') };
    };
    const email = uniqueEmail('cli-agent');
    const added = await cli(
      'staff',
      'add',
      '--email',
      email,
      '--first-name',
      'Lea',
      '--last-name',
      'Park',
      '--role',
      'support',
    );
    assert.equal(added.code, 0, added.err);
    const id = /staff id (\S+)\./.exec(added.out)![1]!;
    assert.match((await cli('staff', 'list')).out, new RegExp(`${id}\\s+${email}\\s+Lea Park\\s+support`));
    assert.equal((await cli('staff', 'set-role', id, '--role', 'admin')).code, 0);
    assert.deepEqual((await server.server.identityProvider!.users.findById(id))!.groups, ['admin']);
    const wrong = await cli('staff', 'set-role', id, '--role', 'owner');
    assert.notEqual(wrong.code, 0);
    assert.match(wrong.err, /--role/);
    assert.equal((await cli('staff', 'remove', id)).code, 0);
    assert.ok(!(await cli('staff', 'list')).out.includes(email));

    const borrower = uniqueEmail('cli-resend');
    await call(url, 'POST', operatorEndpoints.invitations.path, OPERATOR_SECRET, {
      email: borrower,
      firstName: 'Ada',
      lastName: 'Reyes',
    });
    const resent = await cli('resend-invitation', '--email', borrower);
    assert.equal(resent.code, 0, resent.err);
    assert.match(resent.out, new RegExp(`Sent the invitation to ${borrower} again`));
  });
});

describe('the staff console with a hosted Okta org', () => {
  let org: TestOrg;
  let portal: TestServer;
  before(async () => {
    org = await startTestOrg('pglite', `http://localhost:${await freePort()}`);
    portal = await startTestServer('pglite', org.portalEnv);
  });
  after(async () => {
    await portal?.close();
    await org?.stop();
  });

  /** A user the org's admin made and put in `groups` (Users API, then the org's groups). */
  async function orgStaff(groups: string[]) {
    const login = uniqueEmail('org-agent');
    const made = await fetch(`${org.url}/api/v1/users?activate=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `SSWS ${org.apiToken}` },
      body: JSON.stringify({
        profile: { firstName: 'Ana', lastName: 'Ruiz', email: login, login },
        credentials: { password: { value: STAFF_PASSWORD } },
      }),
    });
    assert.equal(made.status, 200, await made.clone().text());
    await org.setGroups(login, groups);
    return login;
  }

  it('signs in staff by the org’s groups claim, with a second factor, and leaves staff users to the org', async () => {
    const admin = await staffSignIn(portal, await orgStaff(['admin']), {
      url: org.url,
      clientId: TEST_ORG_CLIENT_ID,
    });
    assert.equal(admin.status, 200, JSON.stringify(admin.body));
    assert.equal(admin.body.staff.role, 'admin');
    const staff = await call(portal.baseUrl, 'GET', consoleEndpoints.staffUsers.path, admin.body.accessToken);
    assert.deepEqual([staff.status, staff.body.error], [409, 'staff_with_provider']);

    // A group the console does not know makes nobody staff.
    const other = await staffSignIn(portal, await orgStaff(['marketing']), {
      url: org.url,
      clientId: TEST_ORG_CLIENT_ID,
    });
    assert.deepEqual([other.status, other.body.error], [403, 'not_staff']);
  });
});
