import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  accountEndpoints,
  authEndpoints,
  registrationEndpoints,
  secondFactorEndpoints,
} from '@customer-core/contracts';
import {
  completeSignInWithSessionToken,
  signInThroughIdp,
  startTestServer,
  type MailboxMessage,
  type TestServer,
} from '../testing/index.js';
import { enqueueMail } from '../src/mail/outbox-repository.js';
import { invite, linkTokenOf, OPERATOR_ENV, uniqueEmail } from './support/joining.js';
import { authn, inbox, mailFor, tokenOf, LINK_LIMITS_LIFTED } from './support/links.js';
import { call } from './support/loans.js';
import { json, post } from './support/session.js';

// Whoever reads the old address after an email change: every link, code and sign-in it was sent
// before the change is void once the new address is confirmed.

const PASSWORD = 'Original-Pass-1';
const LAPTOP = {
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0',
  'x-forwarded-for': '203.0.113.5',
};
const ELSEWHERE = {
  'user-agent': 'Mozilla/5.0 (Macintosh) Safari/605.1.15',
  'x-forwarded-for': '192.0.2.66',
};
const codeIn = (subject: string) => /^(\d{6}) is your /.exec(subject)?.[1];

interface AuthnAnswer {
  status?: string;
  stateToken?: string;
  sessionToken?: string;
  _embedded?: { factors?: Array<{ factorType: string; _links: { verify: { href: string } } }> };
}

describe('an email change voids what went to the old address', () => {
  let server: TestServer;
  let url: string;

  before(async () => {
    server = await startTestServer('pglite', {
      ...OPERATOR_ENV,
      TRUST_PROXY: 'true',
      NEW_SIGN_IN_EMAILS: 'true',
      MFA_POLICY: 'optional',
      ...LINK_LIMITS_LIFTED,
    });
    url = server.baseUrl;
  });
  after(() => server?.close());

  /** A user of the bundled identity provider with this login. */
  const userWith = (login: string) =>
    server.server.identityProvider!.users.create({
      login,
      password: PASSWORD,
      firstName: 'Ada',
      lastName: 'Lovelace',
    });

  /** A password sign-in from the borrower's laptop (their first browser): its access token. */
  async function signIn(login: string): Promise<string> {
    const { idToken } = await signInThroughIdp(url, { username: login, password: PASSWORD });
    const { status, body } = await json<{ access_token: string }>(
      await post(url, authEndpoints.tokenExchange.path, { token: idToken }, LAPTOP),
    );
    assert.equal(status, 200, JSON.stringify(body));
    return body.access_token;
  }

  /** Sends the old address a link of this kind and returns its token. */
  async function linkTo(email: string, what: 'password-reset' | 'magic-link-landing'): Promise<string> {
    const before = (await inbox(url, email)).length;
    const path =
      what === 'password-reset' ? authEndpoints.passwordReset.path : authEndpoints.sendMagicLinkEmail.path;
    assert.equal((await post(url, path, { email }, LAPTOP)).status, 200);
    const [newest] = await mailFor(url, email, before + 1);
    return tokenOf(newest!, what);
  }

  /** Asks for a change to `target` and returns the token of the link mailed there. */
  async function changeLink(token: string, target: string): Promise<string> {
    const asked = await call(url, 'POST', accountEndpoints.changeEmail.path, token, { newEmail: target });
    assert.equal(asked.status, 202, JSON.stringify(asked.body));
    const [message] = await mailFor(url, target);
    const link = message!.links.map((href) => /\/email-change\/([^/?#]+)$/.exec(href)?.[1]).find(Boolean);
    assert.ok(link, JSON.stringify(message!.links));
    return decodeURIComponent(link);
  }
  const confirm = (token: string, link: string) =>
    call(url, 'POST', accountEndpoints.confirmEmail.path, token, { token: link });

  const newestCodeTo = async (email: string, count: number) => {
    const messages: MailboxMessage[] = await mailFor(url, email, count);
    const code = codeIn(messages[0]!.subject);
    assert.ok(code, messages.map((m) => m.subject).join('; '));
    return code;
  };

  it('refuses the reset, sign-in, "This wasn’t me", invitation and earlier change links, and ends link sign-ins', async () => {
    const old = uniqueEmail('old');
    // An operator invited the address before its owner signed up another way.
    const invited = await invite(url, { email: old, firstName: 'Ada', lastName: 'Lovelace' });
    assert.equal(invited.status, 201);
    const invitation = linkTokenOf((await mailFor(url, old))[0]!, '/user-registration/');
    await userWith(old);
    const own = await signIn(old);

    // Someone reading the mailbox signs in with a link from another browser: a session, the
    // identity provider's sign-in it completes, and a "New sign-in" e-mail to the old address.
    const used = await json<{ access_token: string; sessionToken: string }>(
      await post(
        url,
        authEndpoints.magicLinkLogin.path,
        { token: await linkTo(old, 'magic-link-landing') },
        ELSEWHERE,
      ),
    );
    assert.equal(used.status, 200, JSON.stringify(used.body));
    const idpSignIn = await completeSignInWithSessionToken(url, used.body.sessionToken);
    assert.ok(idpSignIn, 'the link’s session token completes a sign-in at the identity provider');
    const notice = (await mailFor(url, old, 3)).find((m) => m.subject.startsWith('New sign-in'));
    assert.ok(notice, 'a new-sign-in e-mail went to the old address');
    const wasntMe = tokenOf(notice, 'unrecognized-sign-in');

    const reset = await linkTo(old, 'password-reset');
    const signInLink = await linkTo(old, 'magic-link-landing');
    const elsewhere = await changeLink(own, uniqueEmail('elsewhere'));
    // Two messages to the old address wait for a retry (the relay refused them a moment ago): one
    // carrying a link, one not.
    const waiting = async (kind: string) => {
      const { id } = await enqueueMail(server.server.db, {
        to: old,
        subject: 'Waiting',
        text: 'Waiting.',
        html: '<p>Waiting.</p>',
        kind,
        idempotencyKey: `${kind}:waiting-${old}`,
      });
      await server.server.db
        .updateTable('mail_outbox')
        .set({ next_attempt_at: new Date(Date.now() + 3_600_000) })
        .where('id', '=', id)
        .execute();
      return id;
    };
    const waitingLink = await waiting('magic-link');
    const waitingNotice = await waiting('password-changed');

    const target = uniqueEmail('new');
    assert.equal((await confirm(own, await changeLink(own, target))).status, 200);
    const stillWaiting = await server.server.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('id', 'in', [waitingLink, waitingNotice])
      .execute();
    assert.deepEqual(
      stillWaiting.map((row) => row.id),
      [waitingNotice],
      'the link waiting for the old address is withdrawn',
    );

    // "This wasn't me" last: were it to work, it would end every session, the confirming one too.
    const outcomes = {
      resetCheck: (await json(await post(url, authEndpoints.passwordResetCheck.path, { token: reset }))).body,
      invitation: (await post(url, registrationEndpoints.invitation.path, { token: invitation })).status,
      earlierChangeLink: (await confirm(own, elsewhere)).status,
      linkSession: (await call(url, 'GET', authEndpoints.profile.path, used.body.access_token)).status,
      linkIdToken: (await post(url, authEndpoints.tokenExchange.path, { token: idpSignIn.idToken })).status,
      signInLink: (await post(url, authEndpoints.magicLinkLogin.path, { token: signInLink }, ELSEWHERE))
        .status,
      wasntMe: (await post(url, authEndpoints.unrecognizedSignIn.path, { token: wasntMe })).status,
    };
    assert.deepEqual(outcomes, {
      resetCheck: {
        error: 'invalid_link',
        message: 'This password-reset link is invalid, has expired or was already used. Ask for a new link.',
      },
      invitation: 400,
      earlierChangeLink: 400,
      linkSession: 401,
      linkIdToken: 401,
      signInLink: 400,
      wasntMe: 400,
    });

    const profile = await call(url, 'GET', authEndpoints.profile.path, own);
    assert.equal(profile.status, 200, 'the session that confirmed the change goes on');
    assert.equal(profile.body.email, target);
    const sessions = await call(url, 'GET', accountEndpoints.sessions.path, own);
    assert.deepEqual(
      (sessions.body.sessions as Array<{ method: string }>).map((session) => session.method),
      ['password'],
      'the link’s session is no longer listed',
    );
  });

  it('refuses email codes mailed to the old address, and the sign-in a link to it began', async () => {
    // Email codes turned on while the address was the old one.
    const old = uniqueEmail('old');
    await userWith(old);
    const own = await signIn(old);
    // Asked for now: with a second factor, asking would take a sign-in with it (using the link does not).
    const change = await changeLink(own, uniqueEmail('new'));
    const enrolled = await call(url, 'POST', secondFactorEndpoints.enrolEmail.path, own);
    assert.equal(enrolled.status, 200, JSON.stringify(enrolled.body));
    const factorId = String(enrolled.body.factorId);
    const activated = await call(url, 'POST', secondFactorEndpoints.activate.href({ factorId }), own, {
      code: await newestCodeTo(old, 1),
    });
    assert.equal(activated.status, 200, JSON.stringify(activated.body));

    // A sign-in with the password waits for the code mailed to the old address...
    const first = await json<AuthnAnswer>(await authn(url, old, PASSWORD, '192.0.2.70'));
    assert.equal(first.body.status, 'MFA_REQUIRED');
    const verify = new URL(
      first.body._embedded!.factors!.find((f) => f.factorType === 'email')!._links.verify.href,
    ).pathname;
    const before = (await inbox(url, old)).length;
    const challenged = await json<AuthnAnswer>(
      await post(url, verify, { stateToken: first.body.stateToken }),
    );
    assert.equal(challenged.status, 200, JSON.stringify(challenged.body));
    const code = await newestCodeTo(old, before + 1);
    // ...and a sign-in link to it began a sign-in that waits for the second factor.
    const byLink = await json<{ stateToken: string }>(
      await post(url, authEndpoints.magicLinkLogin.path, {
        token: await linkTo(old, 'magic-link-landing'),
      }),
    );
    assert.equal(byLink.status, 200);
    assert.ok(byLink.body.stateToken);

    // Email codes being turned on by another borrower: the code went to their old address.
    const pendingOld = uniqueEmail('old');
    await userWith(pendingOld);
    const pendingOwn = await signIn(pendingOld);
    const pendingChange = await changeLink(pendingOwn, uniqueEmail('new'));
    const pending = await call(url, 'POST', secondFactorEndpoints.enrolEmail.path, pendingOwn);
    assert.equal(pending.status, 200, JSON.stringify(pending.body));
    const pendingCode = await newestCodeTo(pendingOld, 1);

    assert.equal((await confirm(own, change)).status, 200);
    assert.equal((await confirm(pendingOwn, pendingChange)).status, 200);

    const outcomes = {
      signInCode: (await post(url, verify, { stateToken: challenged.body.stateToken, passCode: code }))
        .status,
      linkSignIn: (await post(url, '/api/v1/authn/introspect', { stateToken: byLink.body.stateToken }))
        .status,
      enrolCode: (
        await call(
          url,
          'POST',
          secondFactorEndpoints.activate.href({ factorId: String(pending.body.factorId) }),
          pendingOwn,
          { code: pendingCode },
        )
      ).status,
    };
    assert.deepEqual(outcomes, { signInCode: 403, linkSignIn: 401, enrolCode: 400 });
  });
});
