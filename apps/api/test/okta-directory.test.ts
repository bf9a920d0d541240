import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { sql, type Kysely } from 'kysely';
import { pino } from 'pino';
import { createSecretBox, openDatabase } from '@customer-core/database';
import { createTestDatabase, type TestDatabase } from '@customer-core/database/testing';
import { createIdentityProvider, idpMigrations, type IdpDatabase } from '@customer-core/idp';
import { TEST_PASSWORD_HASH_COST } from '@customer-core/idp/testing';
import {
  DirectoryUnavailableError,
  type Directory,
  type DirectoryUser,
  type NewDirectoryUser,
} from '../src/identity/directory.js';
import { oktaDirectory } from '../src/identity/okta-directory.js';
import { freePort } from '../testing/index.js';

// The Okta adapter against the bundled identity provider's Users API: the very calls it makes to a
// hosted org, over HTTP, with Okta's error shapes and rate-limit headers. The adapter's waits for the
// org's rate limit take no time: each moves the org's count windows back by as long instead.

const PASSWORD = 'Original-Pass-1';
// The longest window whose reset the adapter still waits for (its 5 s, less the reset's rounding to a
// second and its margin): the calls of a test reach the limit within one window even on a busy
// machine, and a wait moves the window back at once.
const RATE_LIMIT = { max: 4, windowSeconds: 3 };

describe('the Okta directory adapter', () => {
  const apiToken = `00${randomBytes(30).toString('base64url')}`;
  const logs: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(line) });
  let database: TestDatabase;
  let db: Kysely<IdpDatabase>;
  let org: { close(): Promise<unknown> } | undefined;
  let issuer: string;
  let directory: Directory;
  let users = 0;
  /** The codes the org mails for its e-mail factor, newest last. */
  const mailedCodes: Array<{ to: string; code: string }> = [];

  /** As if `ms` had passed for the org's rate limit: its count windows started that much earlier. */
  const moveOrgWindows = async (ms: number) => {
    await db
      .updateTable('idp_request_count')
      .set({ window_started_at: sql`window_started_at - make_interval(secs => ${ms / 1000})` })
      .execute();
  };
  const adapter = (token: string) => oktaDirectory({ issuer, apiToken: token, logger, wait: moveOrgWindows });
  const newLogin = () => `adapter.${(users += 1)}.${Date.now()}@example.com`;
  /** A call that must go through: what it gives. */
  const done = <T extends { ok: boolean }>(outcome: T): Extract<T, { ok: true }> => {
    assert.ok(outcome.ok, `refused: ${JSON.stringify(outcome)}`);
    return outcome as Extract<T, { ok: true }>;
  };
  const create = async (user: NewDirectoryUser): Promise<DirectoryUser> =>
    done(await directory.create(user)).user;
  /** A new user of the org: Ada Lovelace with the password, at a new login unless given. */
  const newUser = (fields: Partial<NewDirectoryUser> = {}) =>
    create({ login: newLogin(), password: PASSWORD, firstName: 'Ada', lastName: 'Lovelace', ...fields });

  before(async () => {
    database = await createTestDatabase('pglite', { idp: idpMigrations });
    db = openDatabase<IdpDatabase>(database.location);
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}/oauth2/default`;
    const app = Fastify({ loggerInstance: logger.child({ component: 'org' }) });
    org = app;
    const idp = await createIdentityProvider({
      db,
      secrets: createSecretBox([{ id: 'test', key: randomBytes(32) }]),
      issuer,
      clients: [],
      allowedOrigins: [],
      secureCookies: false,
      trustProxy: false,
      logger: logger.child({ component: 'idp' }),
      purgeIntervalSeconds: 0,
      passwordHashCost: TEST_PASSWORD_HASH_COST,
      apiTokens: [apiToken],
      usersApiRateLimit: RATE_LIMIT,
      factorCodeMailer: async ({ to, code }) => void mailedCodes.push({ to, code }),
    });
    await app.register(idp.plugin);
    await app.listen({ port, host: '127.0.0.1' });
    directory = adapter(apiToken);
  });
  after(async () => {
    await org?.close();
    await db?.destroy();
    await database?.drop();
  });

  it('creates a user, finds it by id and by login, and knows no other', async () => {
    const login = newLogin();
    const user = await newUser({ login });
    assert.deepEqual(user, { id: user.id, login, firstName: 'Ada', lastName: 'Lovelace', locale: 'en-US' });
    assert.deepEqual(await directory.findById(user.id), user);
    assert.deepEqual(await directory.findByLogin(login.toUpperCase()), user);
    assert.equal(await directory.findByLogin('nobody@example.com'), undefined);
    assert.equal(await directory.findById('00u-unknown'), undefined);
  });

  it('deletes a user through the Users API (Okta: deactivate, then delete), sessions and all; one gone is no error', async () => {
    const user = await newUser();
    const signedIn = await directory.passwordSignIn(user, PASSWORD);
    assert.ok(signedIn.kind === 'signed_in' && signedIn.sessionToken);
    await directory.deleteUser(user.id);
    assert.equal(await directory.findById(user.id), undefined);
    assert.deepEqual(await directory.passwordSignIn(user, PASSWORD), {
      kind: 'signed_in',
      sessionToken: null,
    });
    await directory.deleteUser(user.id);
  });

  it('unlocks a user locked out by wrong passwords (Okta’s lifecycle/unlock); one not locked, or gone, is no error', async () => {
    const user = await newUser();
    for (let i = 0; i < 10; i += 1) await directory.passwordSignIn(user, `Wrong-Pass-${i}`);
    const nullToken = { kind: 'signed_in', sessionToken: null };
    assert.deepEqual(await directory.passwordSignIn(user, PASSWORD), nullToken, 'locked out');
    await directory.unlock(user.id);
    const signedIn = await directory.passwordSignIn(user, PASSWORD);
    assert.ok(signedIn.kind === 'signed_in' && signedIn.sessionToken);
    await directory.unlock(user.id);
    await directory.unlock('00u-unknown');
  });

  it('sets the user’s language with a partial profile update (Okta’s es_US), the rest unchanged', async () => {
    const user = await newUser();
    assert.equal(await directory.setLocale(user.id, 'es-US'), true);
    assert.deepEqual(await directory.findById(user.id), { ...user, locale: 'es-US' });
    assert.equal((await directory.findByLogin(user.login))?.locale, 'es-US');
    assert.equal(await directory.setLocale(user.id, 'en-US'), true);
    assert.equal((await directory.findById(user.id))?.locale, 'en-US');
    assert.equal(await directory.setLocale('00u-unknown', 'es-US'), false, 'a user the org does not have');
  });

  it('says a login is taken, and passes on what the password policy asks', async () => {
    const login = newLogin();
    const user = await newUser({ login });
    assert.deepEqual(
      await directory.create({ login, password: PASSWORD, firstName: 'Ada', lastName: 'Lovelace' }),
      { ok: false, problem: 'login_taken' },
    );
    // "example" is a part of the username (the address's domain): Okta's default policy refuses it.
    const refused = await directory.setPassword(user.id, 'Example-Pass-3!');
    assert.ok(!refused.ok && refused.problem === 'password_refused');
    assert.match(refused.requirements, /^It asks for at least 8 characters, .*no parts of your username\.$/);
    const refusedAtCreation = await directory.create({
      login: newLogin(),
      password: 'Example-Pass-3!',
      firstName: 'A',
      lastName: 'B',
    });
    assert.ok(!refusedAtCreation.ok && refusedAtCreation.problem === 'password_refused');
  });

  it('mints a session token from a sign-in with the password only, and ends the sessions', async () => {
    const user = await newUser();
    const nullToken = { kind: 'signed_in', sessionToken: null };
    assert.deepEqual(await directory.passwordSignIn(user, 'Wrong-Pass-9'), nullToken);
    const signedIn = await directory.passwordSignIn(user, PASSWORD);
    assert.ok(signedIn.kind === 'signed_in' && signedIn.sessionToken);
    await directory.endSessions(user.id);
    await directory.endSessions('00u-unknown'); // nothing to end: not an error
    assert.equal(await directory.hasSession('no-such-session', user.id), false);
  });

  it('lets a sign-in link sign in a user without a factor; with a factor, only the password starts its transaction', async () => {
    const user = await newUser();
    assert.deepEqual(await directory.linkSignIn(user), { kind: 'signed_in', sessionToken: null });
    const { factorId, sharedSecret } = done(await directory.enrolTotp(user.id));
    assert.deepEqual(
      await directory.linkSignIn(user),
      { kind: 'signed_in', sessionToken: null },
      'a factor not yet activated is not asked',
    );
    const code = new TOTP({ secret: Secret.fromBase32(sharedSecret), digits: 6, period: 30 }).generate();
    done(await directory.activateFactor(user.id, factorId, code));
    // Okta starts no transaction without the password: the borrower signs in with it instead.
    assert.deepEqual(await directory.linkSignIn(user), { kind: 'factor_unavailable' });
    // With the password, the org's transaction asks for the factor: no session token before it.
    const withPassword = await directory.passwordSignIn(user, PASSWORD);
    assert.equal(withPassword.kind, 'factor');
    assert.match(withPassword.kind === 'factor' ? withPassword.stateToken : '', /^00/);
  });

  it("reads a user's failed sign-ins and lockouts from the System Log, following its next links", async () => {
    const user = await newUser();
    const other = await newUser({ firstName: 'Bea' });
    const since = new Date(Date.now() - 60_000);
    assert.deepEqual(await directory.signInTrouble(user.id, since), []);
    // More than one page of the adapter's (1000 events), one of them a lockout; another user's too.
    const at = Date.now() - 30_000;
    await db
      .insertInto('idp_security_event')
      .values([
        ...Array.from({ length: 1001 }, (_, i) => ({
          user_id: user.id,
          event_type: 'user.session.start',
          outcome: 'FAILURE',
          reason: 'INVALID_CREDENTIALS',
          client_network: '192.0.2.0',
          published: new Date(at + i),
        })),
        {
          user_id: user.id,
          event_type: 'user.account.lock',
          outcome: 'SUCCESS',
          reason: null,
          client_network: '192.0.2.0',
          published: new Date(at + 2000),
        },
        {
          user_id: other.id,
          event_type: 'user.session.start',
          outcome: 'FAILURE',
          reason: 'INVALID_CREDENTIALS',
          client_network: '198.51.100.0',
          published: new Date(at),
        },
      ])
      .execute();
    const events = await directory.signInTrouble(user.id, since);
    assert.equal(events.length, 1002);
    assert.equal(events.filter((event) => event.type === 'sign_in_failed').length, 1001);
    assert.deepEqual(events.at(-1)?.type, 'locked');
    assert.ok(events.every((event) => event.clientAddress === '192.0.2.0'));
    assert.equal(new Set(events.map((event) => event.id)).size, 1002);
  });

  it("enrols an e-mail factor (the org mails the code), resends, activates; another user's factor is not found", async () => {
    const login = newLogin();
    const user = await newUser({ login });
    const { factorId } = done(await directory.enrolEmail(user.id, login));
    const first = mailedCodes.findLast((m) => m.to === login)!.code;
    done(await directory.resendFactorCode(user.id, factorId));
    const newest = mailedCodes.findLast((m) => m.to === login)!.code;
    assert.equal(mailedCodes.filter((m) => m.to === login).length, 2);
    const other = await newUser({ firstName: 'Bo', lastName: 'Other' });
    const notFound = { ok: false, problem: 'factor_not_found' };
    assert.deepEqual(await directory.resendFactorCode(other.id, factorId), notFound);
    assert.deepEqual(await directory.activateFactor(other.id, factorId, newest), notFound);
    if (first !== newest)
      assert.deepEqual(await directory.activateFactor(user.id, factorId, first), {
        ok: false,
        problem: 'wrong_code',
      });
    done(await directory.activateFactor(user.id, factorId, newest));
    assert.deepEqual(
      (await directory.listFactors(user.id)).map((f) => [f.id, f.factorType, f.status]),
      [[factorId, 'email', 'ACTIVE']],
    );
    assert.deepEqual(await directory.enrolEmail(user.id, login), {
      ok: false,
      problem: 'factor_already_enrolled',
    });
    assert.equal(directory.recoveryCodes, undefined, 'recovery codes are the bundled provider’s own');
  });

  it('reports a refused API token as unavailable, and says so to the operator', async () => {
    const wrong = adapter(`00${randomBytes(30).toString('base64url')}`);
    await assert.rejects(wrong.findByLogin('anyone@example.com'), DirectoryUnavailableError);
    assert.ok(
      logs.some((line) => line.includes('Okta refused the API token') && line.includes('"level":50')),
    );
  });

  it("waits out the org's rate limit (X-Rate-Limit-Reset) and then answers", async () => {
    const login = newLogin();
    await newUser({ login });
    const waitsBefore = logs.filter((line) => line.includes('Okta rate limit: waiting')).length;
    const found = [];
    for (let call = 0; call < RATE_LIMIT.max * 2; call++) found.push(await directory.findByLogin(login));
    assert.ok(found.every((user) => user?.login === login));
    assert.ok(logs.filter((line) => line.includes('Okta rate limit: waiting')).length > waitsBefore);
  });

  it('is unavailable, not wrong, when the rate limit outlasts its retries', async () => {
    const impatient = oktaDirectory({
      issuer,
      apiToken,
      logger,
      rateLimitRetries: 0,
      wait: moveOrgWindows,
    });
    const calls = Array.from({ length: RATE_LIMIT.max * 2 }, () =>
      impatient.findByLogin('anyone@example.com').then(
        () => 'answered',
        (error: unknown) => (error instanceof DirectoryUnavailableError ? 'unavailable' : String(error)),
      ),
    );
    const outcomes = await Promise.all(calls);
    assert.ok(outcomes.includes('unavailable'), outcomes.join());
    assert.ok(
      outcomes.every((outcome) => outcome === 'answered' || outcome === 'unavailable'),
      outcomes.join(),
    );
  });

  it('never writes the API token, a password or a login in a path to any log line', () => {
    assert.ok(logs.length > 0);
    for (const line of logs) {
      assert.ok(!line.includes(apiToken), line);
      assert.ok(!line.includes(apiToken.slice(2, 20)), line);
      assert.ok(!line.includes(PASSWORD), line);
      assert.ok(!/\/api\/v1\/users\/[^/"]*@/.test(line), line);
      assert.ok(!line.includes('actor.id'), line);
    }
  });
});
