import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { authEndpoints, decodeAccessToken } from '@customer-core/contracts';
import type { LinkPurpose } from '../src/db/schema.js';
import { completeSignInWithSessionToken, startTestServer, type TestServer } from '../testing/index.js';
import { builtPortal, type BuiltPortal } from './support/built-portal.js';
import {
  authn,
  createUser,
  idTokenSubject,
  mailFor,
  tokenOf,
  LINK_LIMITS_LIFTED,
  clientAddresses,
} from './support/links.js';
import { aSecondAgo } from './support/clock.js';
import { json, post } from './support/session.js';
import { COMMON_PASSWORDS, TOO_COMMON_ANSWER, WEAK_PASSWORDS } from './support/password-rules.js';

interface ApiErrorBody {
  error: string;
  message: string;
  reason?: string;
}

interface MagicLinkLoginBody {
  access_token: string;
  sessionToken: string;
  returnTo: string | null;
}

const newClient = clientAddresses('203.0');

describe('e-mailed links: using one', () => {
  let server: TestServer;
  let url: string;
  // A link's page is the portal's: served from a folder laid out as its build's.
  let portal: BuiltPortal;

  before(async () => {
    portal = builtPortal();
    server = await startTestServer(
      'pglite',
      {
        TRUST_PROXY: 'true',
        ...LINK_LIMITS_LIFTED,
      },
      { portalDir: portal.dir },
    );
    url = server.baseUrl;
  });
  after(async () => {
    await server?.close();
    portal?.remove();
  });

  /** Asks for a link for `email` and returns the token of the newest message's link. */
  const linkFor = async (purpose: LinkPurpose, email: string, returnTo?: string) => {
    const before = (await mailFor(url, email, 0)).length;
    const path =
      purpose === 'password_reset' ? authEndpoints.passwordReset.path : authEndpoints.sendMagicLinkEmail.path;
    const sent = await post(url, path, { email, returnTo }, { 'x-forwarded-for': newClient() });
    assert.equal(sent.status, 200);
    const [newest] = await mailFor(url, email, before + 1);
    return tokenOf(newest!, purpose === 'password_reset' ? 'password-reset' : 'magic-link-landing');
  };
  const finish = (token: unknown, password: unknown) =>
    post(url, authEndpoints.passwordResetFinish.path, { token, password });
  const signIn = (token: unknown) => post(url, authEndpoints.magicLinkLogin.path, { token });
  const expectInvalidLink = async (response: Response) => {
    const body = (await response.json()) as ApiErrorBody;
    assert.equal(response.status, 400);
    assert.equal(body.error, 'invalid_link');
    assert.match(body.message, /Ask for a new link\./);
  };
  const validate = async (token: string) =>
    json<ApiErrorBody>(await post(url, authEndpoints.validate.path, { access_token: token }));
  const authnStatus = async (login: string, password: string) =>
    (await authn(url, login, password, newClient())).status;

  it('password reset: rules, blocklist, a long passphrase, and only the new password works after', async () => {
    const user = await createUser(server);
    const token = await linkFor('password_reset', user.login);

    // The link's page is the portal's (a GET never consumes the token) and sends no referrer.
    const page = await fetch(`${url}/auth/password-reset/${token}`);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');

    for (const [password, message] of WEAK_PASSWORDS) {
      const response = await finish(token, password);
      const body = (await response.json()) as ApiErrorBody;
      assert.equal(response.status, 400, password);
      assert.equal(body.error, 'bad_request');
      assert.match(body.message, message);
    }
    for (const common of COMMON_PASSWORDS) {
      const response = await finish(token, common);
      assert.equal(response.status, 400, common);
      assert.deepEqual(await response.json(), TOO_COMMON_ANSWER);
    }

    // A refused password leaves the link usable; a 64-character passphrase is welcome.
    const passphrase = 'Correct horse battery staple, 4 mugs of tea and a quiet evening!';
    assert.equal(passphrase.length, 64);
    const changed = await json(await finish(token, passphrase));
    assert.deepEqual(changed, { status: 200, body: { passwordChanged: true } });

    assert.equal(await authnStatus(user.login, user.password), 401, 'the old password no longer works');
    assert.equal(await authnStatus(user.login, passphrase), 200, 'the new one does');

    // The link worked once.
    await expectInvalidLink(await finish(token, 'Another-Passw0rd-42'));
    assert.equal(await authnStatus(user.login, 'Another-Passw0rd-42'), 401);
  });

  it('password reset ends every sign-in: product sessions, IdP sessions and unused links', async () => {
    const user = await createUser(server);
    const link = await linkFor('magic_link', user.login);
    // The cut-off has whole seconds (as iat): the sign-in comes from a second before the reset.
    const signedIn = (await aSecondAgo(async () => json<MagicLinkLoginBody>(await signIn(link)))).body;
    assert.equal((await validate(signedIn.access_token)).status, 200);
    const pendingSignIn = await linkFor('magic_link', user.login);
    const reset = await linkFor('password_reset', user.login);

    assert.equal((await finish(reset, 'Brand-new-Passw0rd')).status, 200);
    const refused = await validate(signedIn.access_token);
    assert.equal(refused.status, 401);
    assert.equal(refused.body.reason, 'revoked');
    // The IdP session token from the sign-in link, not yet used, was ended with the IdP sessions.
    assert.equal(await completeSignInWithSessionToken(url, signedIn.sessionToken), null);
    await expectInvalidLink(await signIn(pendingSignIn));

    // Signing in afresh works at once.
    const again = await json<MagicLinkLoginBody>(await signIn(await linkFor('magic_link', user.login)));
    assert.equal(again.status, 200);
    assert.equal((await validate(again.body.access_token)).status, 200);
  });

  it('sign-in link: a valid access token, an IdP session token, and the carried returnTo', async () => {
    const user = await createUser(server);
    const token = await linkFor('magic_link', user.login, '/ui/dashboard/loan-checkout/42?tab=docs');
    const page = await fetch(`${url}/auth/magic-link-landing/${token}`);
    assert.equal(page.status, 200, 'the page does not consume the token');
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');

    const response = await signIn(token);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const { status, body } = await json<MagicLinkLoginBody>(response);
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(body).sort(), ['access_token', 'returnTo', 'sessionToken']);
    assert.equal(body.returnTo, '/ui/dashboard/loan-checkout/42?tab=docs');

    const validated = await validate(body.access_token);
    assert.equal(validated.status, 200);
    assert.equal((validated.body as unknown as { email: string }).email, user.login);
    const claims = decodeAccessToken(body.access_token)!;
    const profile = await json<{ firstName: string; lastName: string; email: string }>(
      await fetch(`${url}${authEndpoints.profile.path}`, {
        headers: { authorization: `Bearer ${body.access_token}` },
      }),
    );
    assert.equal(profile.status, 200);
    assert.deepEqual([profile.body.firstName, profile.body.lastName], ['Ada', 'Lovelace']);
    const borrower = await server.server.db
      .selectFrom('borrower')
      .select(['id', 'idp_issuer', 'idp_subject'])
      .where('id', '=', claims.userId)
      .executeTakeFirstOrThrow();
    assert.deepEqual(borrower, {
      id: claims.userId,
      idp_issuer: `${url}/oauth2/default`,
      idp_subject: user.id,
    });

    // The session token completes the IdP's sign-in (a code for this very user), once.
    const authorized = await completeSignInWithSessionToken(url, body.sessionToken);
    assert.ok(authorized);
    assert.equal(idTokenSubject(authorized), user.id);

    // The same borrower on the next sign-in, by link or by password.
    const next = await json<MagicLinkLoginBody>(await signIn(await linkFor('magic_link', user.login)));
    assert.equal(decodeAccessToken(next.body.access_token)?.userId, claims.userId);
    assert.equal(next.body.returnTo, null);
    await expectInvalidLink(await signIn(token));
  });

  it('sign-in link: a hostile returnTo comes back null', async () => {
    const user = await createUser(server);
    for (const hostile of [
      '//evil.example',
      'https://evil.example/',
      '/\\evil.example',
      'javascript:alert(1)',
    ]) {
      const { status, body } = await json<MagicLinkLoginBody>(
        await signIn(await linkFor('magic_link', user.login, hostile)),
      );
      assert.equal(status, 200);
      assert.equal(body.returnTo, null, hostile);
    }
  });

  it('50 concurrent redemptions: exactly one succeeds (reset and sign-in)', async () => {
    const user = await createUser(server);
    const reset = await linkFor('password_reset', user.login);
    const finishes = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => (await finish(reset, `Concurrent-Passw0rd-${i}`)).status),
    );
    assert.equal(finishes.filter((s) => s === 200).length, 1);
    assert.equal(finishes.filter((s) => s === 400).length, 49);

    const link = await linkFor('magic_link', user.login);
    const logins = await Promise.all(Array.from({ length: 50 }, async () => (await signIn(link)).status));
    assert.equal(logins.filter((s) => s === 200).length, 1);
    assert.equal(logins.filter((s) => s === 400).length, 49);
  });

  it('an expired link is refused', async () => {
    const user = await createUser(server);
    const reset = await linkFor('password_reset', user.login);
    const link = await linkFor('magic_link', user.login);
    const lifetimes = await server.server.db
      .selectFrom('link_token')
      .select(['purpose', sql`round(extract(epoch from expires_at - created_at))`.as('seconds')])
      .where('idp_user_id', '=', user.id)
      .orderBy('purpose')
      .execute();
    assert.deepEqual(
      lifetimes.map((l) => [l.purpose, Number(l.seconds)]),
      [
        ['magic_link', 600],
        ['password_reset', 1800],
      ],
    );
    await server.server.db
      .updateTable('link_token')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('idp_user_id', '=', user.id)
      .execute();
    await expectInvalidLink(await finish(reset, 'Expired-Passw0rd-1'));
    await expectInvalidLink(await signIn(link));
    assert.equal(await authnStatus(user.login, user.password), 200, 'the password did not change');
  });

  it('another request does not void a link the borrower holds; redeeming one voids the others of its kind', async () => {
    const user = await createUser(server);
    const heldReset = await linkFor('password_reset', user.login);
    const heldSignIn = await linkFor('magic_link', user.login);
    // Anyone may ask for links for this address (a stranger, another tab): the held ones keep working.
    const laterSignIn = await linkFor('magic_link', user.login);
    const otherSignIn = await linkFor('magic_link', user.login);
    const laterReset = await linkFor('password_reset', user.login);

    assert.equal((await signIn(heldSignIn)).status, 200, 'the first sign-in link still works');
    await expectInvalidLink(await signIn(laterSignIn));
    await expectInvalidLink(await signIn(otherSignIn));

    // Sign-in links used up, the reset links are untouched: either works, then the other is void.
    assert.equal((await finish(heldReset, 'First-Link-Passw0rd')).status, 200);
    await expectInvalidLink(await finish(laterReset, 'Second-Link-Passw0rd'));
    assert.equal(await authnStatus(user.login, 'First-Link-Passw0rd'), 200);
  });

  it('concurrent redemptions of several links of one borrower: exactly one succeeds', async () => {
    const user = await createUser(server);
    for (const purpose of ['magic_link', 'password_reset'] as const) {
      const links: string[] = [];
      for (let i = 0; i < 5; i += 1) links.push(await linkFor(purpose, user.login));
      const statuses = await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          const link = links[i % links.length]!;
          const response =
            purpose === 'magic_link' ? await signIn(link) : await finish(link, `Parallel-Passw0rd-${i}`);
          return response.status;
        }),
      );
      assert.equal(statuses.filter((s) => s === 200).length, 1, purpose);
      assert.equal(statuses.filter((s) => s === 400).length, 49, purpose);
    }
  });

  it('a link works only for its own purpose, and a made-up one for nothing', async () => {
    const user = await createUser(server);
    const reset = await linkFor('password_reset', user.login);
    const link = await linkFor('magic_link', user.login);
    await expectInvalidLink(await signIn(reset));
    await expectInvalidLink(await finish(link, 'Cross-Purpose-Passw0rd'));
    await expectInvalidLink(await signIn(randomBytes(32).toString('base64url')));
    await expectInvalidLink(await finish('made-up', 'Made-Up-Passw0rd-1'));
    // Both still work for what they are.
    assert.equal((await signIn(link)).status, 200);
    assert.equal((await finish(reset, 'Own-Purpose-Passw0rd')).status, 200);
  });

  it('refuses malformed bodies with 400 and a clear message, never 5xx', async () => {
    const cases: Array<[string, unknown, RegExp]> = [
      [authEndpoints.passwordResetFinish.path, {}, /token/],
      [authEndpoints.passwordResetFinish.path, { token: 'x' }, /password/],
      [
        authEndpoints.passwordResetFinish.path,
        { token: '', password: 'Valid-Passw0rd' },
        /token is required/,
      ],
      [
        authEndpoints.passwordResetFinish.path,
        { token: 'x'.repeat(9000), password: 'Valid-Passw0rd' },
        /too long/,
      ],
      [authEndpoints.passwordResetFinish.path, { token: 1, password: 'Valid-Passw0rd' }, /token/],
      [authEndpoints.passwordResetFinish.path, { token: 'x', password: ['Valid-Passw0rd'] }, /password/],
      [authEndpoints.magicLinkLogin.path, {}, /token/],
      [authEndpoints.magicLinkLogin.path, { token: '' }, /token is required/],
      [authEndpoints.magicLinkLogin.path, { token: null }, /token/],
      [authEndpoints.magicLinkLogin.path, 'token', /./],
    ];
    for (const [path, body, message] of cases) {
      const response = await post(url, path, body);
      const parsed = (await response.json()) as ApiErrorBody;
      assert.equal(response.status, 400, `${path} ${JSON.stringify(body)}`);
      assert.equal(parsed.error, 'bad_request');
      assert.match(parsed.message, message);
    }
    for (const path of [authEndpoints.passwordResetFinish.path, authEndpoints.magicLinkLogin.path]) {
      const broken = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"token":',
      });
      assert.equal(broken.status, 400);
      const form = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'token=x',
      });
      assert.equal(form.status, 415);
    }
  });
});
