import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isConnectionLoss, oneTimeTokenHash } from '@customer-core/database';
import { testDatabaseKinds } from '@customer-core/database/testing';
import {
  countOf,
  race,
  racersOn,
  type ContractDatabase,
} from '@customer-core/database/testing/storage-contract';
import { EMAIL_LINK_AMR } from '@customer-core/contracts/server';
import {
  createAuthnTransactionRepository,
  PASSWORD_AMR,
} from '../../src/factors/authn-transaction-repository.js';
import { createWebauthnRepository } from '../../src/factors/webauthn/webauthn-repository.js';
import type { IdpDatabase } from '../../src/index.js';
import { createSessionTokenRepository } from '../../src/session-token-repository.js';
import { toUser } from '../../src/user-repository.js';
import { fromNow, newEmailFactor, newUser, openIdpStorage } from './support.js';

// The identity provider's one-time tokens, each used once however many uses race for it: session
// tokens (from /api/v1/authn to /v1/authorize), the state tokens of a sign-in waiting for its second
// factor, and WebAuthn challenges.

for (const kind of testDatabaseKinds()) {
  const racers = racersOn(kind);
  describe(`identity provider one-time tokens (${kind})`, () => {
    let database: ContractDatabase<IdpDatabase>;
    before(async () => {
      database = await openIdpStorage(kind);
    });
    after(() => database?.close());

    describe('session tokens', () => {
      const TTL = 300;

      it('is redeemed once, in one IdP session, with how the user signed in; only its hash is kept', async () => {
        const tokens = createSessionTokenRepository(database.db, TTL);
        const user = await newUser(database.db);
        const authenticatedAt = new Date(Math.floor(Date.now() / 1000) * 1000);
        const { sessionToken, expiresAt } = await tokens.issue(user.id, {
          amr: ['pwd', 'otp', 'mfa'],
          authenticatedAt,
        });
        const row = await database.db
          .selectFrom('idp_session_token')
          .selectAll()
          .where('token_hash', '=', oneTimeTokenHash(sessionToken))
          .executeTakeFirstOrThrow();
        assert.equal(Math.round((expiresAt.getTime() - row.created_at.getTime()) / 1000), TTL);
        // The user comes with the token (the authorize that redeems it needs the account next).
        const stored = toUser(
          await database.db
            .selectFrom('idp_user')
            .selectAll()
            .where('id', '=', user.id)
            .executeTakeFirstOrThrow(),
        );
        const redeemed = {
          userId: user.id,
          user: stored,
          authentication: { amr: ['pwd', 'otp', 'mfa'], authenticatedAt },
        };
        assert.deepEqual(await tokens.present(sessionToken, 'session-1'), { ...redeemed, again: false });
        assert.equal(await tokens.present(sessionToken, 'session-2'), undefined, 'another browser');
        assert.deepEqual(
          await tokens.present(sessionToken, 'session-1'),
          { ...redeemed, again: true },
          'presented again by the redirect',
        );

        const plain = await tokens.issue(user.id);
        assert.deepEqual(await tokens.present(plain.sessionToken, 'session-3'), {
          userId: user.id,
          user: stored,
          again: false,
        });
      });

      it('refuses an expired token; revoking ends every one of the user', async () => {
        const tokens = createSessionTokenRepository(database.db, TTL);
        const user = await newUser(database.db);
        const expired = await tokens.issue(user.id);
        await database.db
          .updateTable('idp_session_token')
          .set({ expires_at: fromNow(-1) })
          .where('token_hash', '=', oneTimeTokenHash(expired.sessionToken))
          .execute();
        assert.equal(await tokens.present(expired.sessionToken, 's'), undefined);
        const revoked = await tokens.issue(user.id);
        await tokens.revokeAll(user.id);
        assert.equal(await tokens.present(revoked.sessionToken, 's'), undefined);
      });

      it(`of ${racers} concurrent redemptions of one token on two instances, exactly one succeeds`, async () => {
        const instances = [
          createSessionTokenRepository(database.db, TTL),
          createSessionTokenRepository(database.another(), TTL),
        ];
        const user = await newUser(database.db);
        const { sessionToken } = await instances[0]!.issue(user.id);
        const redeemed = await race(racers, (i) => instances[i % 2]!.present(sessionToken, `browser-${i}`));
        assert.equal(redeemed.filter(Boolean).length, 1);
      });

      if (kind === 'postgres') {
        it('a redemption whose connection is lost spends nothing', async () => {
          const tokens = createSessionTokenRepository(database.db, TTL);
          const user = await newUser(database.db);
          const { sessionToken } = await tokens.issue(user.id);
          const error = await database.cutWhileWaiting(
            'select 1 from idp_session_token where token_hash = $1 for update',
            [oneTimeTokenHash(sessionToken)],
            () => tokens.present(sessionToken, 'cut'),
          );
          assert.equal(isConnectionLoss(error), true, String(error));
          assert.equal((await tokens.present(sessionToken, 'after'))?.userId, user.id);
        });
      }
    });

    describe('a sign-in waiting for its second factor', () => {
      const TTL = 300;

      it('each step names a new state token and voids the one before; the end is taken once', async () => {
        const transactions = createAuthnTransactionRepository(database.db, TTL);
        const user = await newUser(database.db);
        const started = await transactions.start(user.id, 'MFA_REQUIRED');
        assert.match(started.stateToken, /^00/);
        assert.deepEqual(started.transaction.primaryAmr, PASSWORD_AMR);
        assert.deepEqual(await transactions.find(started.stateToken), started.transaction);

        const factorId = await newEmailFactor(database.db, user.id);
        const challenged = await transactions.advance(started.stateToken, 'MFA_CHALLENGE', factorId);
        assert.ok(challenged);
        assert.equal(challenged.transaction.factorId, factorId);
        assert.equal(await transactions.find(started.stateToken), undefined, 'the earlier token is void');
        assert.equal(await transactions.advance(started.stateToken, 'MFA_CHALLENGE', factorId), undefined);
        assert.equal((await transactions.find(challenged.stateToken))?.status, 'MFA_CHALLENGE');
        assert.equal(await transactions.end(challenged.stateToken), true);
        assert.equal(await transactions.end(challenged.stateToken), false);

        const byLink = await transactions.start(user.id, 'MFA_REQUIRED', EMAIL_LINK_AMR);
        assert.deepEqual((await transactions.find(byLink.stateToken))?.primaryAmr, EMAIL_LINK_AMR);
      });

      it('a state token unused past its time is gone', async () => {
        const transactions = createAuthnTransactionRepository(database.db, TTL);
        const user = await newUser(database.db);
        const { stateToken } = await transactions.start(user.id, 'MFA_ENROLL');
        await database.db
          .updateTable('idp_authn_transaction')
          .set({ expires_at: fromNow(-1) })
          .where('state_token_hash', '=', oneTimeTokenHash(stateToken))
          .execute();
        assert.equal(await transactions.find(stateToken), undefined);
        assert.equal(await transactions.advance(stateToken, 'MFA_ENROLL_ACTIVATE', null), undefined);
        assert.equal(await transactions.end(stateToken), false);
      });

      it(`of ${racers} concurrent uses of one state token, exactly one moves on and exactly one ends it`, async () => {
        const instances = [
          createAuthnTransactionRepository(database.db, TTL),
          createAuthnTransactionRepository(database.another(), TTL),
        ];
        const user = await newUser(database.db);
        const { stateToken } = await instances[0]!.start(user.id, 'MFA_ENROLL');
        const advanced = await race(racers, (i) => instances[i % 2]!.advance(stateToken, 'MFA_ENROLL', null));
        const [next, ...others] = advanced.filter(Boolean);
        assert.deepEqual(others, []);
        const ended = await race(racers, (i) => instances[i % 2]!.end(next!.stateToken));
        assert.equal(countOf(ended, true), 1);
      });
    });

    describe('WebAuthn challenges', () => {
      it('is taken once, for its purpose, user and factor only, while it lives', async () => {
        const store = createWebauthnRepository(database.db, 300);
        const user = await newUser(database.db);
        const factorId = await store.createPendingFactor(user.id);
        const challenge = await store.issueChallenge('enrol', user.id, factorId);
        assert.equal(
          await store.takeChallenge(challenge, 'verify', user.id, factorId),
          undefined,
          'another purpose',
        );
        assert.equal(
          await store.takeChallenge(challenge, 'enrol', user.id, null),
          undefined,
          'another factor',
        );
        assert.deepEqual(await store.takeChallenge(challenge, 'enrol', user.id, factorId), {
          userId: user.id,
          factorId,
        });
        assert.equal(await store.takeChallenge(challenge, 'enrol', user.id, factorId), undefined, 'taken');

        const passkey = await store.issueChallenge('passkey', null, null);
        await database.db
          .updateTable('idp_webauthn_challenge')
          .set({ expires_at: fromNow(-1) })
          .where('challenge', '=', passkey)
          .execute();
        assert.equal(await store.takeChallenge(passkey, 'passkey', null, null), undefined, 'expired');
      });

      it(`of ${racers} concurrent presentations of one challenge, exactly one takes it`, async () => {
        const instances = [
          createWebauthnRepository(database.db, 300),
          createWebauthnRepository(database.another(), 300),
        ];
        const challenge = await instances[0]!.issueChallenge('passkey', null, null);
        const taken = await race(racers, (i) =>
          instances[i % 2]!.takeChallenge(challenge, 'passkey', null, null),
        );
        assert.equal(taken.filter(Boolean).length, 1);
      });
    });
  });
}
