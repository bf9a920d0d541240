import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { pino } from 'pino';
import { isConnectionLoss } from '@customer-core/database';
import { testDatabaseKinds } from '@customer-core/database/testing';
import { race, racersOn, type ContractDatabase } from '@customer-core/database/testing/storage-contract';
import type { ApiDatabase } from '../../src/db/schema.js';
import { securityEventValues } from '../../src/activity/security-event-repository.js';
import type { BorrowerIdentity } from '../../src/borrowers/borrower-repository.js';
import { exchangedIdTokenRepository } from '../../src/session/exchanged-id-token-repository.js';
import { knownDeviceRepository } from '../../src/account/known-device-repository.js';
import { sessionRepository } from '../../src/session/session-repository.js';
import { revocationRepository } from '../../src/session/revocation-repository.js';
import { revocations, type Revocations } from '../../src/session/revocations.js';
import { fromNow, identityOf, newBorrower, openApiStorage } from './support.js';

// Sign-in sessions: each sign-in's row and which of a borrower's sessions are active, and what is
// revoked or superseded, shared by every instance through the database. (How instances hear of it by
// NOTIFY, and fall back to queries while not listening, is revocation-view.test.ts, on PostgreSQL.)

const LIMITS = { accessTokenTtlSeconds: 900, sessionMaxAgeSeconds: 43_200 };
const now = () => Math.floor(Date.now() / 1000);

for (const kind of testDatabaseKinds()) {
  const racers = racersOn(kind);
  describe(`sign-in sessions (${kind})`, () => {
    let database: ContractDatabase<ApiDatabase>;
    const registries: Revocations[] = [];
    /** The revocations of one more instance. */
    const instance = (db = database.db) => {
      const registry = revocations(revocationRepository(db), database.location, {
        ...LIMITS,
        log: pino({ level: 'silent' }),
      });
      registries.push(registry);
      return registry;
    };
    /** Whether an exchange refuses an ID token of `identity` issued at `issuedAt` (a fresh one each time). */
    const idTokenRefused = async (identity: BorrowerIdentity, issuedAt: number) => {
      const use = { hash: randomUUID(), issuedAt, acceptedUntil: now() + 300 };
      const spending = await exchangedIdTokenRepository(database.db).spend(
        { ...use, sessionId: null, amr: null, authTime: null, groups: null },
        identity,
      );
      return spending.kind === 'revoked';
    };
    before(async () => {
      database = await openApiStorage(kind);
    });
    after(async () => {
      for (const registry of registries) await registry.close();
      await database?.close();
    });

    describe('the borrower’s list of sessions', () => {
      const insert = (borrowerId: string, sid: string, createdAt = new Date(), deviceHash?: string) =>
        sessionRepository(database.db, LIMITS).insert(
          {
            sid,
            borrowerId,
            generation: 0,
            createdAt,
            method: 'password',
            userAgent: 'Firefox',
            clientNetwork: '192.0.2.0/24',
            idpSessionId: 'idp-session',
          },
          securityEventValues(borrowerId, {
            kind: 'signed_in',
            sessionId: sid,
            method: 'password',
            endedBy: null,
            factor: null,
            userAgent: 'Firefox',
            clientNetwork: '192.0.2.0/24',
          }),
          deviceHash,
        );

      it('lists the active sessions newest first, as they were written', async () => {
        const repository = sessionRepository(database.db, LIMITS);
        const { id } = await newBorrower(database.db);
        await insert(id, 'older', new Date(Date.now() - 60_000));
        await insert(id, 'newer');
        const active = await repository.active(id);
        assert.deepEqual(
          active.map((s) => s.sid),
          ['newer', 'older'],
        );
        const [newer] = active;
        assert.equal(newer!.borrower_id, id);
        assert.equal(newer!.method, 'password');
        assert.equal(newer!.user_agent, 'Firefox');
        assert.equal(newer!.client_network, '192.0.2.0/24');
        assert.equal(newer!.idp_session_id, 'idp-session');
        assert.ok(newer!.created_at instanceof Date && newer!.last_active_at instanceof Date);
        assert.equal((await repository.activeOne(id, 'older'))?.sid, 'older');
        assert.equal(await repository.ownerOf('older'), id);
        assert.equal(await repository.ownerOf('nobody’s'), undefined);
        // Each session's signed_in event was written with it.
        const events = await database.db
          .selectFrom('security_event')
          .select(['session_id', 'kind', 'method'])
          .where('borrower_id', '=', id)
          .orderBy('session_id')
          .execute();
        assert.deepEqual(events, [
          { session_id: 'newer', kind: 'signed_in', method: 'password' },
          { session_id: 'older', kind: 'signed_in', method: 'password' },
        ]);
      });

      it('writes neither the session nor its event when either fails', async () => {
        const { id } = await newBorrower(database.db);
        await insert(id, 'taken');
        // The same sid again: the session's row is refused, and its event goes with it.
        await assert.rejects(insert(id, 'taken'));
        const events = await database.db
          .selectFrom('security_event')
          .select('session_id')
          .where('borrower_id', '=', id)
          .execute();
        assert.deepEqual(events, [{ session_id: 'taken' }]);
      });

      it('marks the borrower’s known device seen as the session begins, and says whether it was theirs', async () => {
        const { id } = await newBorrower(database.db);
        const other = await newBorrower(database.db);
        const devices = knownDeviceRepository(database.db);
        await devices.add(id, 'laptop');
        await devices.add(other.id, 'phone');
        const lastSeen = async (borrowerId: string, hash: string) =>
          (
            await database.db
              .selectFrom('known_device')
              .select('last_seen_at')
              .where('borrower_id', '=', borrowerId)
              .where('device_hash', '=', hash)
              .executeTakeFirstOrThrow()
          ).last_seen_at;
        // Seen a minute ago: a session begun now marks it seen later than that.
        await database.db
          .updateTable('known_device')
          .set({ last_seen_at: sql<Date>`now() - interval '1 minute'` })
          .execute();
        const before = await lastSeen(id, 'laptop');
        assert.deepEqual(await insert(id, randomUUID(), new Date(), 'laptop'), { deviceSeen: true });
        assert.ok((await lastSeen(id, 'laptop')) > before);
        assert.deepEqual(
          await insert(id, randomUUID(), new Date(), 'phone'),
          { deviceSeen: false },
          'another’s',
        );
        assert.deepEqual(await insert(id, randomUUID(), new Date(), 'tablet'), { deviceSeen: false });
        assert.deepEqual(await insert(id, randomUUID()), { deviceSeen: false }, 'no device cookie');
        // A session refused marks nothing seen.
        const seenAt = await lastSeen(id, 'laptop');
        const sid = randomUUID();
        await insert(id, sid);
        await assert.rejects(insert(id, sid, new Date(), 'laptop'));
        assert.deepEqual(await lastSeen(id, 'laptop'), seenAt);
      });

      it('leaves out sessions revoked, too old, idle past a token’s life, or begun before the cut-off', async () => {
        const repository = sessionRepository(database.db, LIMITS);
        const { id } = await newBorrower(database.db);
        const other = await newBorrower(database.db);
        await insert(id, 'live', new Date(Date.now() - 5000));
        await insert(id, 'revoked');
        await instance().revoke('revoked', id, new Date(Date.now() + 3_600_000));
        await insert(id, 'too-old', new Date(Date.now() - (LIMITS.sessionMaxAgeSeconds + 60) * 1000));
        await insert(id, 'idle');
        await database.db
          .updateTable('product_session')
          .set({ last_active_at: fromNow(-LIMITS.accessTokenTtlSeconds - 1) })
          .where('sid', '=', 'idle')
          .execute();
        assert.deepEqual(
          (await repository.active(id)).map((s) => s.sid),
          ['live'],
        );
        assert.equal(await repository.activeOne(other.id, 'live'), undefined, 'another borrower’s');
        await insert(id, 'before', new Date(Date.now() - 2000));

        // A cut-off ends the sessions begun before it; one begun within its second goes on.
        await database.db
          .updateTable('borrower')
          .set({ tokens_not_before: sql<Date>`date_trunc('second', now()) + interval '500 milliseconds'` })
          .where('id', '=', id)
          .execute();
        await insert(id, 'same-second', new Date((await cutOffOf(id)).getTime() - 400));
        await insert(id, 'after', new Date(Date.now() + 2000));
        assert.deepEqual((await repository.active(id)).map((s) => s.sid).sort(), ['after', 'same-second']);
      });

      const cutOffOf = async (id: string) =>
        (
          await database.db
            .selectFrom('borrower')
            .select('tokens_not_before')
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        ).tokens_not_before!;
    });

    describe('revocations and cut-offs', () => {
      it('a revoked session is refused by every instance; revoking it again changes nothing', async () => {
        const { id } = await newBorrower(database.db);
        const a = instance();
        const b = instance(database.another());
        const sid = randomUUID();
        const claims = { sid, sub: id, iat: now() };
        assert.equal(await b.isRevoked(claims), false);
        await a.revoke(sid, id, new Date(Date.now() + 3_600_000));
        await a.revoke(sid, id, new Date(Date.now() + 7_200_000));
        assert.equal(await a.refusal(claims), 'revoked');
        assert.equal(await instance().refusal(claims), 'revoked', 'a new instance reads it');
        assert.equal(await a.isRevoked({ ...claims, sid: randomUUID() }), false);
        const rows = await database.db
          .selectFrom('revoked_session')
          .select('sid')
          .where('sid', '=', sid)
          .execute();
        assert.equal(rows.length, 1);
      });

      it('a borrower-wide cut-off refuses the tokens and ID tokens issued before it, not those after', async () => {
        const borrower = await newBorrower(database.db);
        const identity = identityOf(borrower);
        const registry = instance();
        const before = now() - 5;
        assert.equal(await idTokenRefused(identity, before), false, 'no cut-off yet');
        await registry.revokeAllOf(borrower.id);
        assert.equal(await registry.refusal({ sid: randomUUID(), sub: borrower.id, iat: before }), 'revoked');
        assert.equal(await instance().isRevoked({ sid: randomUUID(), sub: borrower.id, iat: before }), true);
        assert.equal(
          await registry.isRevoked({ sid: randomUUID(), sub: borrower.id, iat: now() + 1 }),
          false,
        );
        assert.equal(await idTokenRefused(identity, before), true);
        assert.equal(await idTokenRefused(identity, now() + 1), false);
        await registry.revokeAllOf(randomUUID()); // no such borrower: nothing to cut off
      });

      it('ending the other sessions refuses earlier ID tokens only: access tokens go on', async () => {
        const borrower = await newBorrower(database.db);
        const identity = identityOf(borrower);
        const registry = instance();
        const before = now() - 5;
        await registry.revokeIdTokensOf(borrower.id);
        assert.equal(await idTokenRefused(identity, before), true);
        assert.equal(await idTokenRefused(identity, now() + 1), false);
        assert.equal(await instance().isRevoked({ sid: randomUUID(), sub: borrower.id, iat: before }), false);
        assert.equal(
          await idTokenRefused({ ...identity, subject: 'someone else' }, before),
          false,
          'an identity no borrower has',
        );
      });

      it('refuses a token of a borrower the database does not know', async () => {
        assert.equal(
          await instance().refusal({ sid: randomUUID(), sub: randomUUID(), iat: now() }),
          'revoked',
        );
      });
    });

    describe('refreshes', () => {
      const signedInAt = now() - 60;
      const token = (sub: string, sid: string, gen: number) => ({
        sid,
        sub,
        iat: now(),
        gen,
        auth_time: signedInAt,
      });

      it('each generation is refreshed once; the earlier ones are superseded everywhere', async () => {
        const borrower = await newBorrower(database.db);
        const a = instance();
        const sid = randomUUID();
        assert.deepEqual(await a.rotate(token(borrower.id, sid, 0)), {
          ok: true,
          generation: 1,
          email: borrower.email,
          externalIds: [],
        });
        assert.deepEqual(await a.rotate(token(borrower.id, sid, 0)), { ok: false, reason: 'spent' });
        assert.equal((await a.rotate(token(borrower.id, sid, 1))).ok, true);
        assert.equal(await a.refusal(token(borrower.id, sid, 1)), 'superseded');
        assert.equal(await instance().refusal(token(borrower.id, sid, 0)), 'superseded', 'read by another');
        assert.equal(await instance().refusal(token(borrower.id, sid, 2)), null);
        // The first refresh wrote the session's row, begun when the borrower signed in.
        const row = await database.db
          .selectFrom('product_session')
          .select(['generation', 'created_at'])
          .where('sid', '=', sid)
          .executeTakeFirstOrThrow();
        assert.equal(row.generation, 2);
        assert.equal(row.created_at.getTime(), token(borrower.id, sid, 0).auth_time * 1000);
      });

      it('an instance not yet told of a sign-out or a cut-off cannot refresh past it: the database refuses', async () => {
        const borrower = await newBorrower(database.db);
        const registry = instance();
        // Written as another instance does, before its notice reaches this one.
        const unannounced = revocationRepository(database.db);
        const signedOut = randomUUID();
        assert.equal((await registry.rotate(token(borrower.id, signedOut, 0))).ok, true);
        await unannounced.insertRevokedSession(signedOut, borrower.id, new Date(Date.now() + 3_600_000));
        assert.deepEqual(await registry.rotate(token(borrower.id, signedOut, 1)), {
          ok: false,
          reason: 'revoked',
        });

        const issuedBefore = { ...token(borrower.id, randomUUID(), 0), iat: now() - 5 };
        await unannounced.cutOffTokens(borrower.id);
        assert.deepEqual(await registry.rotate(issuedBefore), { ok: false, reason: 'revoked' });
        assert.equal((await registry.rotate({ ...issuedBefore, iat: now() + 1 })).ok, true, 'issued after');
        // Neither refusal spent a generation: each session is at its one refresh that went through.
        const generationOf = async (sid: string) =>
          (
            await database.db
              .selectFrom('product_session')
              .select('generation')
              .where('sid', '=', sid)
              .executeTakeFirstOrThrow()
          ).generation;
        assert.equal(await generationOf(signedOut), 1);
        assert.equal(await generationOf(issuedBefore.sid), 1);
      });

      it(`of ${racers} concurrent refreshes of one token on four instances, exactly one gets the next generation`, async () => {
        const borrower = await newBorrower(database.db);
        const instances = [
          instance(),
          instance(database.another()),
          instance(),
          instance(database.another()),
        ];
        const sid = randomUUID();
        const rotations = await race(racers, (i) => instances[i % 4]!.rotate(token(borrower.id, sid, 0)));
        assert.equal(rotations.filter((r) => r.ok).length, 1);
        const rotated = await race(racers, (i) => instances[i % 4]!.rotate(token(borrower.id, sid, 1)));
        assert.deepEqual(
          rotated.filter((r) => r.ok).map((r) => r.ok && r.generation),
          [2],
        );
      });

      it('refreshes of many sessions at once on one instance: one statement, one each', async () => {
        const borrower = await newBorrower(database.db);
        const registry = instance();
        const sids = Array.from({ length: racers }, () => randomUUID());
        const rotations = await Promise.all(sids.map((sid) => registry.rotate(token(borrower.id, sid, 0))));
        assert.ok(rotations.every((r) => r.ok && r.generation === 1));
      });

      if (kind === 'postgres') {
        it('a refresh whose connection is lost spends nothing', async () => {
          const borrower = await newBorrower(database.db);
          const registry = instance();
          const sid = randomUUID();
          assert.equal((await registry.rotate(token(borrower.id, sid, 0))).ok, true);
          const error = await database.cutWhileWaiting(
            'select 1 from product_session where sid = $1 for update',
            [sid],
            () => registry.rotate(token(borrower.id, sid, 1)),
          );
          assert.equal(isConnectionLoss(error), true, String(error));
          assert.equal(await instance().refusal(token(borrower.id, sid, 1)), null, 'generation 1 is current');
          assert.deepEqual(await registry.rotate(token(borrower.id, sid, 1)), {
            ok: true,
            generation: 2,
            email: borrower.email,
            externalIds: [],
          });
        });

        it('a sign-out whose connection is lost revokes nothing, and tells no one', async () => {
          const borrower = await newBorrower(database.db);
          const registry = instance();
          const sid = randomUUID();
          // An uncommitted revocation of the same session makes the sign-out wait.
          const error = await database.cutWhileWaiting(
            "insert into revoked_session (sid, borrower_id, expires_at) values ($1, $2, now() + interval '1 hour')",
            [sid, borrower.id],
            () => registry.revoke(sid, borrower.id, new Date(Date.now() + 3_600_000)),
          );
          assert.equal(isConnectionLoss(error), true, String(error));
          assert.equal(await instance().isRevoked({ sid, sub: borrower.id, iat: now() }), false);
          await registry.revoke(sid, borrower.id, new Date(Date.now() + 3_600_000));
          assert.equal(await instance().isRevoked({ sid, sub: borrower.id, iat: now() }), true);
        });
      }
    });
  });
}
