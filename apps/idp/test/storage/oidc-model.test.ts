import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createSecretBox, isSealed, resealColumns, statementsSent } from '@customer-core/database';
import { testDatabaseKinds } from '@customer-core/database/testing';
import { race, racersOn, type ContractDatabase } from '@customer-core/database/testing/storage-contract';
import { createFactorRepository } from '../../src/factors/factor-repository.js';
import { IDP_SEALED_COLUMNS } from '../../src/identity-provider.js';
import type { IdpDatabase } from '../../src/index.js';
import {
  accountReadAhead,
  combineModelWrites,
  destroyAccountArtefacts,
  destroySession,
  findSession,
  PostgresOidcAdapter,
  purgeExpiredModels,
  sessionExists,
} from '../../src/oidc-model-repository.js';
import { loadCookieKeys, loadSigningKeys, publicJwks } from '../../src/provider-key-repository.js';
import { fromNow, newUser, openIdpStorage } from './support.js';

// oidc-provider's sessions, grants, codes and tokens, and the provider's keys, shared by every
// instance through the database.

const k1 = { id: 'k1', key: randomBytes(32) };
const secrets = createSecretBox([k1]);
const STARTING = 3;

for (const kind of testDatabaseKinds()) {
  const racers = racersOn(kind);
  describe(`identity provider sessions, tokens and keys (${kind})`, () => {
    let database: ContractDatabase<IdpDatabase>;
    before(async () => {
      database = await openIdpStorage(kind);
    });
    after(() => database?.close());

    const adapter = (model: string, db = database.db) => new PostgresOidcAdapter(db, model);

    describe('the models', () => {
      it('finds what was stored by id, uid or user code; consumed ones say when; expired ones are gone', async () => {
        const codes = adapter('AuthorizationCode');
        const id = randomUUID();
        const payload = {
          accountId: 'u1',
          grantId: `g-${id}`,
          uid: `uid-${id}`,
          userCode: `UC-${id}`,
          scope: 'openid',
        };
        await codes.upsert(id, payload, 60);
        assert.deepEqual(await codes.find(id), payload);
        assert.deepEqual(await codes.findByUid(payload.uid), payload);
        assert.deepEqual(await codes.findByUserCode(payload.userCode), payload);
        assert.equal(await adapter('AccessToken').find(id), undefined, 'another model');

        await codes.upsert(id, { ...payload, scope: 'openid email' }, 60);
        assert.equal((await codes.find(id))?.scope, 'openid email', 'written again in place');

        const before = Math.floor(Date.now() / 1000);
        await codes.consume(id);
        const consumed: unknown = (await codes.find(id))?.consumed;
        assert.equal(typeof consumed, 'number');
        assert.ok((consumed as number) >= before - 1);

        await database.db
          .updateTable('idp_oidc_model')
          .set({ expires_at: fromNow(-1) })
          .where('id', '=', id)
          .execute();
        assert.equal(await codes.find(id), undefined, 'expired');

        const forever = randomUUID();
        await adapter('Grant').upsert(forever, { accountId: 'u1' }, 0);
        assert.deepEqual(await adapter('Grant').find(forever), { accountId: 'u1' }, 'no expiry');
        assert.equal(await adapter('Client').find('customer-portal'), undefined, 'clients are configured');
      });

      it('destroys one, or every one of a grant; control characters find and destroy nothing', async () => {
        const tokens = adapter('AccessToken');
        const grantId = `g-${randomUUID()}`;
        const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
        await tokens.upsert(a, { accountId: 'u1', grantId }, 60);
        await tokens.upsert(b, { accountId: 'u1', grantId }, 60);
        await tokens.upsert(c, { accountId: 'u1', grantId: 'another' }, 60);
        await tokens.destroy(`${c}\u0000`);
        await tokens.consume(`${c}\n`);
        assert.equal(await tokens.find(`${c}\u0000`), undefined);
        assert.ok(await tokens.find(c));
        await tokens.destroy(a);
        assert.equal(await tokens.find(a), undefined);
        await tokens.revokeByGrantId(grantId);
        assert.equal(await tokens.find(b), undefined);
        assert.ok(await tokens.find(c), 'another grant’s');
      });

      it(`${racers} writes of one model at once on two instances leave one row, the last written`, async () => {
        const id = randomUUID();
        await race(racers, (i) =>
          adapter('Session', i % 2 ? database.another() : database.db).upsert(
            id,
            { accountId: 'u1', n: i },
            60,
          ),
        );
        const rows = await database.db
          .selectFrom('idp_oidc_model')
          .select('id')
          .where('id', '=', id)
          .execute();
        assert.equal(rows.length, 1);
        assert.equal(typeof (await adapter('Session').find(id))?.n, 'number');
      });

      it('purges what has expired, from several instances at once', async () => {
        const expired = randomUUID();
        const live = randomUUID();
        await adapter('Interaction').upsert(expired, { accountId: 'u1' }, 60);
        await adapter('Interaction').upsert(live, { accountId: 'u1' }, 60);
        await database.db
          .updateTable('idp_oidc_model')
          .set({ expires_at: fromNow(-1) })
          .where('id', '=', expired)
          .execute();
        await race(4, (i) => purgeExpiredModels(i % 2 ? database.another() : database.db));
        const left = await database.db
          .selectFrom('idp_oidc_model')
          .select('id')
          .where('id', 'in', [expired, live])
          .execute();
        assert.deepEqual(
          left.map((row) => row.id),
          [live],
        );
      });
    });

    describe('one request’s writes, combined', () => {
      // A request of the provider, as its middleware runs one: `handle` is what oidc-provider does in it.
      const inRequest = (handle: () => Promise<void>) =>
        combineModelWrites(database.db)({} as never, handle) as Promise<void>;
      const grantOf = (id: string) => ({ accountId: 'u1', clientId: 'c1', jti: id });

      it('a grant and a code go to the database with the session saved after them', async () => {
        const id = randomUUID();
        await inRequest(async () => {
          await adapter('Grant').upsert(`g-${id}`, grantOf(`g-${id}`), 60);
          await adapter('AuthorizationCode').upsert(`c-${id}`, { grantId: `g-${id}` }, 60);
          // Read back in the same request: what it saved is there.
          assert.deepEqual(await adapter('Grant').find(`g-${id}`), grantOf(`g-${id}`));
          await adapter('AuthorizationCode').upsert(`c-${id}`, { grantId: `g-${id}`, scope: 'openid' }, 60);
          await adapter('Session').upsert(`s-${id}`, { uid: `uid-${id}`, accountId: 'u1' }, 60);
          // All three are in the table once the session is saved, before the request ends (read
          // straight from the table: the adapter would first send what is pending).
          const stored = await database.db
            .selectFrom('idp_oidc_model')
            .select(['model', 'payload'])
            .where('id', 'in', [`g-${id}`, `c-${id}`, `s-${id}`])
            .execute();
          const payloadOf = (model: string) => stored.find((row) => row.model === model)?.payload;
          const [grant, code, session] = [
            payloadOf('Grant'),
            payloadOf('AuthorizationCode'),
            payloadOf('Session'),
          ];
          assert.deepEqual(grant, grantOf(`g-${id}`));
          assert.deepEqual(code, { grantId: `g-${id}`, scope: 'openid' }, 'the later save of the code');
          assert.deepEqual(session, { uid: `uid-${id}`, accountId: 'u1' });
        });
      });

      it('what no later write took along is in the database when the request has been handled', async () => {
        const id = randomUUID();
        await inRequest(async () => {
          await adapter('AccessToken').upsert(`a-${id}`, { grantId: `g-${id}` }, 60);
          const pending = await database.db
            .selectFrom('idp_oidc_model')
            .select('id')
            .where('id', '=', `a-${id}`)
            .execute();
          assert.deepEqual(pending, [], 'waits for a later write');
        });
        assert.deepEqual(await adapter('AccessToken').find(`a-${id}`), { grantId: `g-${id}` });
      });

      it('a code consumed in the request it was saved in is saved, then consumed', async () => {
        const id = randomUUID();
        await inRequest(async () => {
          await adapter('AuthorizationCode').upsert(`c-${id}`, { grantId: `g-${id}` }, 60);
          await adapter('AuthorizationCode').consume(`c-${id}`);
        });
        assert.equal(typeof (await adapter('AuthorizationCode').find(`c-${id}`))?.consumed, 'number');
      });
      it('a code is read with its grant and session, which the request then reads without a statement', async () => {
        const id = randomUUID();
        const grant = grantOf(`g-${id}`);
        await adapter('Grant').upsert(`g-${id}`, grant, 60);
        await adapter('Session').upsert(`s-${id}`, { uid: `uid-${id}`, accountId: 'u1' }, 60);
        const user = await newUser(database.db);
        await adapter('AuthorizationCode').upsert(
          `c-${id}`,
          { grantId: `g-${id}`, sessionUid: `uid-${id}`, accountId: user.id },
          60,
        );
        await adapter('AuthorizationCode').upsert(
          `lone-${id}`,
          { grantId: `gone-${id}`, sessionUid: `gone-${id}` },
          60,
        );
        await inRequest(async () => {
          const sent = statementsSent(database.db)!;
          assert.deepEqual(await adapter('AuthorizationCode').find(`c-${id}`), {
            grantId: `g-${id}`,
            sessionUid: `uid-${id}`,
            accountId: user.id,
          });
          assert.equal(accountReadAhead('someone else'), undefined);
          assert.equal(accountReadAhead(user.id)?.login, user.login, 'the account, with the code');
          assert.equal(accountReadAhead(user.id), undefined, 'given once');
          assert.deepEqual(await adapter('Grant').find(`g-${id}`), grant);
          assert.deepEqual(await adapter('Session').findByUid(`uid-${id}`), {
            uid: `uid-${id}`,
            accountId: 'u1',
          });
          assert.equal(statementsSent(database.db)! - sent, 1, 'the four in one statement');
          // Read once: asked again, the database answers (the grant may have changed meanwhile).
          await database.db.deleteFrom('idp_oidc_model').where('id', '=', `g-${id}`).execute();
          assert.equal(await adapter('Grant').find(`g-${id}`), undefined);
        });
        await inRequest(async () => {
          // A code whose grant and session are gone: they are not found, without another statement.
          assert.ok(await adapter('AuthorizationCode').find(`lone-${id}`));
          const sent = statementsSent(database.db)!;
          assert.equal(await adapter('Grant').find(`gone-${id}`), undefined);
          assert.equal(await adapter('Session').findByUid(`gone-${id}`), undefined);
          assert.equal(statementsSent(database.db)! - sent, 0);
        });
        await inRequest(async () => {
          // Once the request writes, what was read ahead is read again from the database.
          await adapter('AuthorizationCode').find(`c-${id}`);
          await adapter('Session').upsert(`s-${id}`, { uid: `uid-${id}`, accountId: 'u2' }, 60);
          assert.equal((await adapter('Session').findByUid(`uid-${id}`))?.accountId, 'u2');
        });
      });

      it('a code is consumed with the tokens issued for it; of two redemptions at once, one gets them', async () => {
        const id = randomUUID();
        await adapter('AuthorizationCode').upsert(`c-${id}`, { grantId: `g-${id}` }, 60);
        // Both find the code unconsumed before either consumes it: each waits for the other's find.
        let found = 0;
        let bothFound!: () => void;
        const barrier = new Promise<void>((resolve) => (bothFound = resolve));
        // The token endpoint, as oidc-provider runs it: the code found unconsumed, consumed, tokens saved.
        const redeem = (db: typeof database.db, n: number) =>
          combineModelWrites(db)({} as never, async () => {
            const codes = new PostgresOidcAdapter(db, 'AuthorizationCode');
            assert.equal((await codes.find(`c-${id}`))?.consumed, undefined);
            if (++found === 2) bothFound();
            await barrier;
            await codes.consume(`c-${id}`);
            await new PostgresOidcAdapter(db, 'AccessToken').upsert(
              `a${n}-${id}`,
              { grantId: `g-${id}` },
              60,
            );
            await new PostgresOidcAdapter(db, 'RefreshToken').upsert(
              `r${n}-${id}`,
              { grantId: `g-${id}` },
              60,
            );
          }) as Promise<void>;
        const outcomes = await Promise.allSettled([redeem(database.db, 1), redeem(database.another(), 2)]);
        const won = outcomes.findIndex((o) => o.status === 'fulfilled');
        assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1, JSON.stringify(outcomes));
        const lost = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
        assert.equal(
          (lost.reason as { error_detail?: string }).error_detail,
          'authorization code already consumed',
        );
        const tokens = await database.db
          .selectFrom('idp_oidc_model')
          .select('id')
          .where('grant_id', '=', `g-${id}`)
          .where('model', 'in', ['AccessToken', 'RefreshToken'])
          .orderBy('id')
          .execute();
        assert.deepEqual(
          tokens.map((t) => t.id),
          [`a${won + 1}-${id}`, `r${won + 1}-${id}`],
          'only the winner’s tokens',
        );
        assert.equal(typeof (await adapter('AuthorizationCode').find(`c-${id}`))?.consumed, 'number');
      });
    });

    describe('sign-in sessions', () => {
      const signIn = async (accountId: string, amr?: string[]) => {
        const id = randomUUID();
        const uid = `sid-${id}`;
        await adapter('Session').upsert(id, { accountId, uid, loginTs: 1_700_000_000, amr }, 3600);
        return uid;
      };

      it('finds a live session by its uid, as signed in by its account', async () => {
        const account = randomUUID();
        const uid = await signIn(account, ['pwd', 'otp', 'mfa']);
        const session = await findSession(database.db, uid);
        assert.equal(session?.id, uid);
        assert.equal(session.accountId, account);
        assert.equal(session.signedInAt.getTime(), 1_700_000_000_000);
        assert.deepEqual(session.amr, ['pwd', 'otp', 'mfa']);
        assert.ok(session.expiresAt instanceof Date);
        assert.deepEqual((await findSession(database.db, await signIn(account)))?.amr, ['pwd']);
        assert.equal(await sessionExists(database.db, uid, account), true);
        assert.equal(await sessionExists(database.db, uid, 'someone else'), false);
        // A record of another kind under a uid is no session, whoever it names.
        const interaction = randomUUID();
        await adapter('Interaction').upsert(
          interaction,
          { uid: `uid-${interaction}`, accountId: account },
          3600,
        );
        assert.equal(await sessionExists(database.db, `uid-${interaction}`, account), false);
        assert.equal(await findSession(database.db, 'no such uid'), undefined);
      });

      it('ends one session of its account; signing out everywhere ends its sessions, grants and tokens', async () => {
        const account = randomUUID();
        const one = await signIn(account);
        const two = await signIn(account);
        const others = await signIn(randomUUID());
        assert.equal(await destroySession(database.db, one, 'someone else'), false);
        assert.equal(await destroySession(database.db, one, account), true);
        assert.equal(await sessionExists(database.db, one, account), false);

        const grantId = randomUUID();
        await adapter('Grant').upsert(grantId, { accountId: account }, 3600);
        const token = randomUUID();
        await adapter('RefreshToken').upsert(token, { grantId }, 3600); // names its grant, not the account
        await destroyAccountArtefacts(database.db, account);
        assert.equal(await sessionExists(database.db, two, account), false);
        assert.equal(await adapter('Grant').find(grantId), undefined);
        assert.equal(await adapter('RefreshToken').find(token), undefined);
        assert.ok(await findSession(database.db, others), 'another account’s');
      });
    });

    describe('the provider’s keys', () => {
      it('instances starting at once agree on one set of keys, sealed at rest', async () => {
        await database.db.deleteFrom('idp_key').execute();
        // Each first start-up makes an RSA key before it finds the winner's: a few instances, not dozens.
        const signing = await race(STARTING, (i) =>
          loadSigningKeys(i % 2 ? database.another() : database.db, secrets),
        );
        const cookies = await race(STARTING, (i) =>
          loadCookieKeys(i % 2 ? database.another() : database.db, secrets),
        );
        for (const keys of signing) assert.deepEqual(keys, signing[0]);
        for (const keys of cookies) assert.deepEqual(keys, cookies[0]);
        const rows = await database.db
          .selectFrom('idp_key')
          .select(['name', 'material'])
          .orderBy('name')
          .execute();
        assert.deepEqual(
          rows.map((row) => row.name),
          ['oidc-cookie-keys', 'oidc-signing-keys'],
        );
        for (const row of rows) assert.equal(isSealed(row.material as string), true);
        const [published] = publicJwks(signing[0]!).keys;
        assert.equal(published?.d, undefined, 'no private part published');
        assert.equal(published?.kid, signing[0]!.keys[0]!.kid);
      });

      it('material kept before sealing began is sealed at start-up; every secret is sealed again under a new key', async () => {
        await database.db.deleteFrom('idp_key').execute();
        const plain = { keys: ['kept-before-sealing'] };
        await database.db
          .insertInto('idp_key')
          .values({ name: 'oidc-cookie-keys', material: JSON.stringify(plain) })
          .execute();
        assert.equal(await resealColumns(database.db, secrets, IDP_SEALED_COLUMNS, 'plain'), 1);
        assert.deepEqual(await loadCookieKeys(database.db, secrets), plain);
        await loadSigningKeys(database.db, secrets);
        const user = await newUser(database.db);
        const factor = await createFactorRepository(database.db, secrets).createPendingTotp(
          user.id,
          'JBSWY3DPEHPK3PXP',
        );

        const k2 = { id: 'k2', key: randomBytes(32) };
        assert.equal(
          await resealColumns(database.db, createSecretBox([k2, k1]), IDP_SEALED_COLUMNS, 'stale'),
          3,
        );
        const onlyK2 = createSecretBox([k2]);
        assert.deepEqual(await loadCookieKeys(database.db, onlyK2), plain);
        assert.equal(
          (await createFactorRepository(database.db, onlyK2).find(user.id, factor.id))?.secret,
          'JBSWY3DPEHPK3PXP',
        );
        await database.db.deleteFrom('idp_key').execute(); // the other tests seal with k1
      });
    });
  });
}
