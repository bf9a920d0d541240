import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createSecretBox, isConnectionLoss, isSealed } from '@customer-core/database';
import { testDatabaseKinds } from '@customer-core/database/testing';
import {
  countOf,
  race,
  racersOn,
  type ContractDatabase,
} from '@customer-core/database/testing/storage-contract';
import { createEmailCodeRepository } from '../../src/factors/email-code-repository.js';
import { EMAIL_CODE_MAX_SENDS, EMAIL_CODE_SEND_WINDOW_SECONDS } from '../../src/factors/email-factor.js';
import { EMAIL_FACTOR } from '@customer-core/contracts/server';
import { createFactorRepository } from '../../src/factors/factor-repository.js';
import { createRecoveryCodeRepository } from '../../src/factors/recovery-code-repository.js';
import { RECOVERY_CODE_COUNT, recoveryFactorId } from '../../src/factors/recovery-codes.js';
import { createWebauthnRepository } from '../../src/factors/webauthn/webauthn-repository.js';
import type { IdpDatabase } from '../../src/index.js';
import { fromNow, newUser, openIdpStorage } from './support.js';

// Second factors and the codes that prove them: each code, step and signature counter taken once
// however many presentations race for it, and no more tries than a ceiling allows.

const secrets = createSecretBox([{ id: 'test', key: randomBytes(32) }]);
const SECRET = 'JBSWY3DPEHPK3PXP';

for (const kind of testDatabaseKinds()) {
  const racers = racersOn(kind);
  describe(`identity provider factors (${kind})`, () => {
    let database: ContractDatabase<IdpDatabase>;
    before(async () => {
      database = await openIdpStorage(kind);
    });
    after(() => database?.close());

    const factors = (db = database.db) => createFactorRepository(db, secrets);

    describe('factors', () => {
      it('keeps a TOTP secret sealed at rest; a new enrolment replaces the unfinished one', async () => {
        const user = await newUser(database.db);
        const first = await factors().createPendingTotp(user.id, SECRET);
        const second = await factors().createPendingTotp(user.id, SECRET);
        assert.equal(await factors().find(user.id, first.id), undefined, 'replaced');
        assert.deepEqual(await factors().find(user.id, second.id), second);
        assert.equal(second.secret, SECRET);
        assert.equal(second.status, 'PENDING_ACTIVATION');
        const { secret } = await database.db
          .selectFrom('idp_factor')
          .select('secret')
          .where('id', '=', second.id)
          .executeTakeFirstOrThrow();
        assert.equal(isSealed(secret!), true);
        assert.deepEqual(await factors().active(user.id), []);
        assert.deepEqual(
          (await factors().all(user.id)).map((f) => f.id),
          [second.id],
        );
        assert.equal(
          await factors().find((await newUser(database.db)).id, second.id),
          undefined,
          'not theirs',
        );
      });

      it('an e-mail factor keeps its unfinished enrolment; a right code activates it', async () => {
        const user = await newUser(database.db);
        const pending = await factors().createPending(user.id, EMAIL_FACTOR, null);
        assert.equal((await factors().createPending(user.id, EMAIL_FACTOR, null)).id, pending.id);
        await factors().codeAccepted(pending.id);
        const [active] = await factors().active(user.id);
        assert.equal(active?.id, pending.id);
        assert.equal(active.lastUsedAt, null, 'the code that activates it is no use of it');
        await factors().codeAccepted(pending.id);
        assert.ok((await factors().find(user.id, pending.id))?.lastUsedAt instanceof Date);
        assert.equal(
          await factors().remove((await newUser(database.db)).id, pending.id),
          false,
          'not theirs',
        );
        assert.equal(await factors().remove(user.id, pending.id), true);
        assert.deepEqual(await factors().all(user.id), []);
      });

      it(`takes each TOTP step once, however many of ${racers} presentations race, and never an earlier one`, async () => {
        const user = await newUser(database.db);
        const factor = await factors().createPendingTotp(user.id, SECRET);
        assert.equal(await factors().claimTotpStep(factor.id, 1000), true, 'activates it');
        assert.equal((await factors().find(user.id, factor.id))?.status, 'ACTIVE');
        const instances = [factors(), factors(database.another())];
        const claims = await race(racers, (i) => instances[i % 2]!.claimTotpStep(factor.id, 1001));
        assert.equal(countOf(claims, true), 1);
        assert.equal(await factors().claimTotpStep(factor.id, 1000), false, 'an earlier step');
        assert.equal(await factors().claimTotpStep(factor.id, 1002), true);
        assert.ok((await factors().find(user.id, factor.id))?.lastUsedAt instanceof Date);
      });

      it(`of ${racers} first codes at once, no more are checked than the enrolment's ceiling`, async () => {
        const user = await newUser(database.db);
        const factor = await factors().createPendingTotp(user.id, SECRET);
        const instances = [factors(), factors(database.another())];
        const reserved = await race(racers, (i) => instances[i % 2]!.reserveFirstCode(factor.id, 5));
        assert.equal(countOf(reserved, true), 5);
        await factors().newFirstCode(factor.id);
        assert.equal(await factors().reserveFirstCode(factor.id, 5), true, 'a new code, a new allowance');
        await factors().claimTotpStep(factor.id, 1);
        assert.equal(await factors().reserveFirstCode(factor.id, 5), false, 'active: no first code');
      });
    });

    describe('e-mailed codes', () => {
      it('a code works once, until it expires; a wrong or malformed one never', async () => {
        const codes = createEmailCodeRepository(database.db);
        const user = await newUser(database.db);
        const factor = await factors().createPending(user.id, EMAIL_FACTOR, null);
        const code = (await codes.issue(factor.id))!;
        assert.match(code, /^\d{6}$/);
        assert.equal(await codes.claim(factor.id, code === '000000' ? '000001' : '000000'), false);
        assert.equal(await codes.claim(factor.id, 'abcdef'), false);
        assert.equal(await codes.claim(factor.id, code), true);
        assert.equal(await codes.claim(factor.id, code), false, 'used');

        const later = (await codes.issue(factor.id))!;
        await database.db
          .updateTable('idp_factor_code')
          .set({ expires_at: fromNow(-1) })
          .where('factor_id', '=', factor.id)
          .execute();
        assert.equal(await codes.claim(factor.id, later), false, 'expired');
      });

      it(`of ${racers} sends at once, no more go out than a window allows; the next window allows again`, async () => {
        const instances = [
          createEmailCodeRepository(database.db),
          createEmailCodeRepository(database.another()),
        ];
        const user = await newUser(database.db);
        const factor = await factors().createPending(user.id, EMAIL_FACTOR, null);
        const sent = await race(racers, (i) => instances[i % 2]!.issue(factor.id));
        assert.equal(sent.filter(Boolean).length, EMAIL_CODE_MAX_SENDS);
        await database.db
          .updateTable('idp_factor_code')
          .set({ window_started_at: fromNow(-EMAIL_CODE_SEND_WINDOW_SECONDS - 1) })
          .where('factor_id', '=', factor.id)
          .execute();
        assert.ok(await instances[0]!.issue(factor.id));
      });

      it(`of ${racers} presentations of one code at once, exactly one takes it`, async () => {
        const instances = [
          createEmailCodeRepository(database.db),
          createEmailCodeRepository(database.another()),
        ];
        const user = await newUser(database.db);
        const factor = await factors().createPending(user.id, EMAIL_FACTOR, null);
        const code = (await instances[0]!.issue(factor.id))!;
        const claims = await race(racers, (i) => instances[i % 2]!.claim(factor.id, code));
        assert.equal(countOf(claims, true), 1);
      });
    });

    describe('recovery codes', () => {
      it('a set of codes, each used once however it is typed; a new set voids the old one', async () => {
        const codes = createRecoveryCodeRepository(database.db);
        const user = await newUser(database.db);
        assert.equal(await codes.factorOf(user.id), undefined, 'none yet');
        const set = await codes.generate(user.id);
        assert.equal(set.length, RECOVERY_CODE_COUNT);
        assert.equal(await codes.remaining(user.id), RECOVERY_CODE_COUNT);
        const factor = await codes.factorOf(user.id);
        assert.equal(factor?.id, recoveryFactorId(user.id));
        assert.ok(factor.createdAt instanceof Date);
        assert.equal(await codes.claim(user.id, ` ${set[0]!.toUpperCase().replaceAll('-', ' ')} `), true);
        assert.equal(await codes.claim(user.id, set[0]!), false, 'used');
        assert.equal(await codes.claim((await newUser(database.db)).id, set[1]!), false, 'another user’s');
        assert.equal(await codes.remaining(user.id), RECOVERY_CODE_COUNT - 1);

        const renewed = await codes.generate(user.id);
        assert.equal(await codes.claim(user.id, set[1]!), false, 'the old set is void');
        assert.equal(await codes.claim(user.id, renewed[1]!), true);
        await codes.clear(user.id);
        assert.equal(await codes.remaining(user.id), 0);
        assert.equal(await codes.factorOf(user.id), undefined);
      });

      it(`of ${racers} presentations of one code at once, exactly one is let in`, async () => {
        const instances = [
          createRecoveryCodeRepository(database.db),
          createRecoveryCodeRepository(database.another()),
        ];
        const user = await newUser(database.db);
        const [code] = await instances[0]!.generate(user.id);
        const claims = await race(racers, (i) => instances[i % 2]!.claim(user.id, code!));
        assert.equal(countOf(claims, true), 1);
        assert.equal(await instances[0]!.remaining(user.id), RECOVERY_CODE_COUNT - 1);
      });

      if (kind === 'postgres') {
        it('a new set whose connection is lost leaves the old one working', async () => {
          const codes = createRecoveryCodeRepository(database.db);
          const user = await newUser(database.db);
          const [kept] = await codes.generate(user.id);
          const error = await database.cutWhileWaiting(
            'select 1 from idp_recovery_code where user_id = $1 for update',
            [user.id],
            () => codes.generate(user.id),
          );
          assert.equal(isConnectionLoss(error), true, String(error));
          assert.equal(await codes.remaining(user.id), RECOVERY_CODE_COUNT);
          assert.equal(await codes.claim(user.id, kept!), true);
        });
      }
    });

    describe('WebAuthn credentials', () => {
      const credential = (
        userId: string,
        factorId: string,
        credentialId = randomBytes(16).toString('base64url'),
      ) => ({
        factorId,
        userId,
        credentialId,
        publicKey: randomBytes(32).toString('base64url'),
        signCount: 5,
        transports: ['usb', 'nfc'],
        name: 'YubiKey',
      });

      it('activates a pending factor with its credential once; reads it back as written', async () => {
        const store = createWebauthnRepository(database.db, 300);
        const user = await newUser(database.db);
        const abandoned = await store.createPendingFactor(user.id);
        const factorId = await store.createPendingFactor(user.id);
        assert.equal(await factors().find(user.id, abandoned), undefined, 'an unfinished one goes');
        const written = credential(user.id, factorId);
        assert.equal(await store.activate(written), true);
        assert.equal(await store.activate({ ...written, credentialId: 'another' }), false, 'not pending now');
        assert.deepEqual(await store.ofFactor(user.id, factorId), written);
        assert.deepEqual(await store.byCredentialId(written.credentialId), written);
        assert.deepEqual(await store.ofUser(user.id), [written]);
        assert.equal(await store.credentialExists(written.credentialId), true);
        assert.equal(await store.credentialExists('never-registered'), false);
        assert.equal(
          await store.ofFactor((await newUser(database.db)).id, factorId),
          undefined,
          'not theirs',
        );
      });

      it('one credential activated for several factors at once: exactly one gets it, the others stay pending', async () => {
        const instances = [
          createWebauthnRepository(database.db, 300),
          createWebauthnRepository(database.another(), 300),
        ];
        const pending: Array<{ user: { id: string }; factorId: string }> = [];
        for (let i = 0; i < 10; i += 1) {
          const user = await newUser(database.db);
          pending.push({ user, factorId: await instances[0]!.createPendingFactor(user.id) });
        }
        const shared = randomBytes(16).toString('base64url');
        const outcomes = await race(pending.length, (i) =>
          instances[i % 2]!.activate(credential(pending[i]!.user.id, pending[i]!.factorId, shared)),
        );
        assert.equal(countOf(outcomes, true), 1);
        assert.equal(countOf(outcomes, 'taken'), pending.length - 1);
        const statuses = await Promise.all(
          pending.map(({ user, factorId }) => factors().find(user.id, factorId)),
        );
        assert.equal(statuses.filter((f) => f?.status === 'ACTIVE').length, 1);
      });

      it(`of ${racers} uses of one signature count at once, exactly one moves it on`, async () => {
        const instances = [
          createWebauthnRepository(database.db, 300),
          createWebauthnRepository(database.another(), 300),
        ];
        const user = await newUser(database.db);
        const factorId = await instances[0]!.createPendingFactor(user.id);
        await instances[0]!.activate(credential(user.id, factorId));
        const moved = await race(racers, (i) => instances[i % 2]!.recordUse(factorId, 5, 6));
        assert.equal(countOf(moved, true), 1);
        assert.equal((await instances[0]!.ofFactor(user.id, factorId))?.signCount, 6);
        assert.ok((await factors().find(user.id, factorId))?.lastUsedAt instanceof Date);
        assert.equal(await instances[0]!.recordUse(factorId, 5, 7), false, 'a replayed count');
      });

      if (kind === 'postgres') {
        it('an activation whose connection is lost leaves the factor pending', async () => {
          const store = createWebauthnRepository(database.db, 300);
          const user = await newUser(database.db);
          const other = await newUser(database.db);
          const factorId = await store.createPendingFactor(user.id);
          const otherFactor = await store.createPendingFactor(other.id);
          const written = credential(user.id, factorId);
          // Another uncommitted registration of the same credential makes the activation wait.
          const error = await database.cutWhileWaiting(
            `insert into idp_webauthn_credential (factor_id, user_id, credential_id, public_key, name)
               values ($1, $2, $3, 'key', 'other')`,
            [otherFactor, other.id, written.credentialId],
            () => store.activate(written),
          );
          assert.equal(isConnectionLoss(error), true, String(error));
          assert.equal((await factors().find(user.id, factorId))?.status, 'PENDING_ACTIVATION');
          assert.equal(await store.activate(written), true);
        });
      }
    });
  });
}
