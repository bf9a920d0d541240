import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { isConnectionLoss } from '@customer-core/database';
import { testDatabaseKinds } from '@customer-core/database/testing';
import { race, racersOn, type ContractDatabase } from '@customer-core/database/testing/storage-contract';
import { EMAIL_FACTOR, EMAIL_LINK_AMR } from '@customer-core/contracts/server';
import { createAuthnTransactionRepository } from '../../src/factors/authn-transaction-repository.js';
import { createEmailCodeRepository } from '../../src/factors/email-code-repository.js';
import { createFactorRepository, secondFactorAsked } from '../../src/factors/factor-repository.js';
import { LoginAlreadyExistsError, type IdpDatabase } from '../../src/index.js';
import { createLoginThrottle } from '../../src/login-failure-repository.js';
import { passwordHasher } from '../../src/passwords.js';
import { createUserRepository } from '../../src/user-repository.js';
import { TEST_PASSWORD_HASH_COST } from '../../testing/index.js';
import { TEST_SECRETS } from '../support.js';
import { openIdpStorage } from './support.js';

// The identity provider's users: a login is one user's, case aside, whoever creates or takes it at once.

const PASSWORD = 'Correct-horse-battery-1';
const passwords = passwordHasher(TEST_PASSWORD_HASH_COST);

const newLogin = () => `login.${randomUUID()}@example.com`;
const input = (login: string) => ({ login, password: PASSWORD, firstName: 'Ada', lastName: 'Lovelace' });

for (const kind of testDatabaseKinds()) {
  // Every creation hashes a password, at the tests' cheap cost: races as wide as the other stores'.
  const racers = racersOn(kind);
  describe(`identity provider users (${kind})`, () => {
    let database: ContractDatabase<IdpDatabase>;
    before(async () => {
      database = await openIdpStorage(kind);
    });
    after(() => database?.close());

    const users = (db = database.db) => createUserRepository(db, passwords);

    it('creates a user whose login is theirs in any case; finds them by it, with their password’s hash', async () => {
      const login = newLogin();
      const user = await users().create({ ...input(login), locale: 'de_DE', timeZone: 'Europe/Berlin' });
      assert.equal(user.login, login);
      assert.equal(user.locale, 'de_DE');
      assert.equal(user.timeZone, 'Europe/Berlin');
      assert.equal(user.emailVerified, true);
      assert.ok(user.passwordChangedAt instanceof Date && user.createdAt instanceof Date);
      assert.deepEqual(await users().findByLogin(` ${login.toUpperCase()} `), user);
      assert.deepEqual(await users().findById(user.id), user);
      const credentials = await users().findCredentials(login);
      assert.match(credentials!.passwordHash, /^\$argon2id\$/);
      await assert.rejects(users().create(input(login.toUpperCase())), LoginAlreadyExistsError);
      assert.equal(await users().findByLogin(newLogin()), undefined);
    });

    it('keeps a staff user’s groups, finds staff by them, and asks staff for a second factor', async () => {
      const staff = await users().create({ ...input(newLogin()), groups: ['support'] });
      const borrower = await users().create(input(newLogin()));
      assert.deepEqual([staff.groups, borrower.groups], [['support'], []]);
      const inGroups = async (groups: string[]) => (await users().inGroups(groups)).map((user) => user.id);
      assert.ok((await inGroups(['support', 'admin'])).includes(staff.id));
      assert.ok(!(await inGroups(['support', 'admin'])).includes(borrower.id));
      assert.ok(!(await inGroups(['admin'])).includes(staff.id));
      assert.equal(await users().setGroups(staff.id, ['admin']), true);
      assert.deepEqual((await users().findById(staff.id))!.groups, ['admin']);
      assert.equal(await users().setGroups(randomUUID(), ['admin']), false);
      await assert.rejects(users().setGroups(staff.id, ['']), 'an empty group name is refused');

      // Whatever the borrowers' policy, staff are asked; a borrower without a factor is not.
      const asked = async (id: string) => {
        const { rows } = await sql<{
          asked: boolean;
        }>`select ${secondFactorAsked(id, 'off', false)} as asked`.execute(database.db);
        return rows[0]!.asked;
      };
      assert.deepEqual([await asked(staff.id), await asked(borrower.id)], [true, false]);
    });

    it(`of ${racers} creations of one login at once, exactly one makes the user; ensuring at once finds that one`, async () => {
      const login = newLogin();
      const created = await Promise.allSettled(
        Array.from({ length: racers }, (_, i) =>
          users(i % 2 ? database.another() : database.db).create(input(login)),
        ),
      );
      assert.equal(created.filter((outcome) => outcome.status === 'fulfilled').length, 1);
      for (const outcome of created.filter((o) => o.status === 'rejected'))
        assert.ok(outcome.reason instanceof LoginAlreadyExistsError, String(outcome.reason));

      const seeded = newLogin();
      const ensured = await race(racers, (i) =>
        users(i % 2 ? database.another() : database.db).ensure(input(seeded)),
      );
      assert.equal(new Set(ensured.map((user) => user.id)).size, 1);
      const again = await users().ensure({
        ...input(seeded),
        password: 'Another-password-2',
        firstName: 'Changed',
      });
      assert.deepEqual(again, ensured[0], 'an existing user is left as it is');
    });

    it('takes a new login, refused when another user has it; what went to the old address stops working', async () => {
      const user = await users().create(input(newLogin()));
      const other = await users().create(input(newLogin()));
      await assert.rejects(users().changeLogin(user.id, other.login.toUpperCase()), LoginAlreadyExistsError);
      await assert.rejects(users().changeLogin(randomUUID(), newLogin()), /no such user/);

      const factor = await createFactorRepository(database.db, TEST_SECRETS).createPending(
        user.id,
        EMAIL_FACTOR,
        null,
      );
      const code = (await createEmailCodeRepository(database.db).issue(factor.id))!;
      const transactions = createAuthnTransactionRepository(database.db, 300);
      const byLink = await transactions.start(user.id, 'MFA_REQUIRED', EMAIL_LINK_AMR);
      const byPassword = await transactions.start(user.id, 'MFA_REQUIRED');

      const login = newLogin();
      await users().changeLogin(user.id, login);
      assert.equal((await users().findById(user.id))?.login, login);
      assert.equal(
        await createEmailCodeRepository(database.db).claim(factor.id, code),
        false,
        'the code mailed before',
      );
      assert.equal(await transactions.find(byLink.stateToken), undefined, 'the sign-in a link began');
      assert.ok(await transactions.find(byPassword.stateToken), 'a password’s sign-in goes on');
    });

    it(`of ${racers} users taking one new login at once, exactly one gets it`, async () => {
      const takers = [];
      for (let i = 0; i < racers; i += 1) takers.push(await users().create(input(newLogin())));
      const login = newLogin();
      const changed = await Promise.allSettled(
        takers.map((user, i) => users(i % 2 ? database.another() : database.db).changeLogin(user.id, login)),
      );
      assert.equal(changed.filter((outcome) => outcome.status === 'fulfilled').length, 1);
      for (const outcome of changed.filter((o) => o.status === 'rejected'))
        assert.ok(outcome.reason instanceof LoginAlreadyExistsError, String(outcome.reason));
    });

    it('a new password lifts the lockouts', async () => {
      const user = await users().create(input(newLogin()));
      const throttle = createLoginThrottle(database.db, { maxFailures: 2, accountMaxFailures: 2 });
      await throttle.recordFailure(user.id, '192.0.2.1');
      await throttle.recordFailure(user.id, '192.0.2.1');
      assert.equal(await throttle.isLocked(user.id, '198.51.100.1'), true);
      const before = (await users().findById(user.id))!.passwordChangedAt;
      await users().setPassword(user.id, 'Brand-new-Passw0rd');
      assert.equal(await throttle.isLocked(user.id, '192.0.2.1'), false);
      assert.ok((await users().findById(user.id))!.passwordChangedAt >= before);
      await assert.rejects(users().setPassword(randomUUID(), 'Brand-new-Passw0rd'), /no such user/);
    });

    if (kind === 'postgres') {
      it('a new login whose connection is lost changes nothing', async () => {
        const user = await users().create(input(newLogin()));
        const factor = await createFactorRepository(database.db, TEST_SECRETS).createPending(
          user.id,
          EMAIL_FACTOR,
          null,
        );
        const code = (await createEmailCodeRepository(database.db).issue(factor.id))!;
        // Holding the e-mailed code makes the change wait after it has written the new login.
        const error = await database.cutWhileWaiting(
          'select 1 from idp_factor_code where factor_id = $1 for update',
          [factor.id],
          () => users().changeLogin(user.id, newLogin()),
        );
        assert.equal(isConnectionLoss(error), true, String(error));
        assert.equal((await users().findById(user.id))?.login, user.login);
        assert.equal(
          await createEmailCodeRepository(database.db).claim(factor.id, code),
          true,
          'the code still works',
        );
      });
    }
  });
}
