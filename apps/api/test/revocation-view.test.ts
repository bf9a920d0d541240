import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { pino } from 'pino';
import { migrateToLatest, openDatabase } from '@customer-core/database';
import { createTestDatabase, type TestDatabase } from '@customer-core/database/testing';
import { apiMigrations } from '../src/db/migrations.js';
import type { ApiDatabase } from '../src/db/schema.js';
import { REVOCATION_CHANNEL, revocationRepository } from '../src/session/revocation-repository.js';
import { revocations, type Revocations } from '../src/session/revocations.js';
import { untilAfter } from '../testing/index.js';
import { logCollector } from './support/mail.js';

const silent = pino({ level: 'silent' });

describe(
  'revocations kept in memory, told to every instance (PostgreSQL)',
  { skip: !process.env.TEST_DATABASE_URL && 'needs TEST_DATABASE_URL' },
  () => {
    let database: TestDatabase;
    let db: Kysely<ApiDatabase>;
    let a: Revocations;
    let b: Revocations;
    let borrowerId: string;
    const bLog = logCollector();
    const claims = (sid: string, iat = Math.floor(Date.now() / 1000)) => ({ sid, sub: borrowerId, iat });
    const later = () => new Date(Date.now() + 3_600_000);

    before(async () => {
      database = await createTestDatabase('postgres');
      db = openDatabase<ApiDatabase>(database.location);
      await migrateToLatest(db, 'api', apiMigrations);
      ({ id: borrowerId } = await db
        .insertInto('borrower')
        .values({ email: 'view@example.com', first_name: null, last_name: null })
        .returning('id')
        .executeTakeFirstOrThrow());
      // Two instances' revocations on one database.
      a = revocations(revocationRepository(db), database.location, {
        accessTokenTtlSeconds: 900,
        log: silent,
      });
      b = revocations(revocationRepository(db), database.location, {
        accessTokenTtlSeconds: 900,
        log: pino({ level: 'debug' }, bLog.stream),
      });
      await b.isRevoked(claims('warm-up')); // b learns the borrower (one query)
    });
    after(async () => {
      await a.close();
      await b.close();
      await db.destroy();
      await database.drop();
    });

    it('answers from memory, and hears a revocation made by another instance', async () => {
      const eitherChanged = () => Promise.race([a.afterChange(), b.afterChange()]);
      await untilAfter(
        'listening and loaded',
        eitherChanged,
        () => a.answersFromMemory() && b.answersFromMemory(),
      );
      await db
        .insertInto('revoked_session')
        .values({ sid: 'silent', borrower_id: borrowerId, expires_at: later() })
        .execute();
      assert.equal(await b.isRevoked(claims('silent')), false, 'memory, not a query');

      await a.revoke('s1', borrowerId, later());
      assert.equal(await a.isRevoked(claims('s1')), true, 'the revoking instance at once');
      await untilAfter('b refuses the revoked session', b.afterChange, () => b.isRevoked(claims('s1')));
      assert.equal(await b.isRevoked(claims('s2')), false);
      assert.ok(
        bLog.lines.some((l) => l.msg === 'revocation notice heard' && l.revocation === 'session'),
        'b says when it heard',
      );
    });

    it('hears a borrower-wide cut-off: earlier tokens refused, later ones not', async () => {
      const before = Math.floor(Date.now() / 1000) - 5;
      await a.revokeAllOf(borrowerId);
      await untilAfter('b refuses tokens from before', b.afterChange, () =>
        b.isRevoked(claims('old', before)),
      );
      assert.equal(await b.isRevoked(claims('new', Math.floor(Date.now() / 1000) + 1)), false);
    });

    it('hears a refresh: earlier generations of the session superseded, from memory', async () => {
      const token = (gen: number) => ({
        ...claims('rotating'),
        gen,
        auth_time: Math.floor(Date.now() / 1000),
      });
      assert.deepEqual(await a.rotate(token(0)), {
        ok: true,
        generation: 1,
        email: 'view@example.com',
        externalIds: [],
      });
      assert.equal(await a.refusal(token(0)), 'superseded', 'the refreshing instance at once');
      assert.equal(await a.refusal(token(1)), null);
      await untilAfter(
        'b hears the refresh',
        b.afterChange,
        async () => (await b.refusal(token(0))) === 'superseded',
      );
      assert.equal(await b.refusal(token(1)), null);
      // Spent: a second refresh of generation 0, from either instance, gets nothing.
      assert.deepEqual(await b.rotate(token(0)), { ok: false, reason: 'spent' });
      assert.deepEqual(await a.rotate(token(0)), { ok: false, reason: 'spent' });
      assert.equal((await b.rotate(token(1))).ok, true);
    });

    it('refreshes at once, several of one session among them: one each, and b hears them all', async () => {
      const authTime = Math.floor(Date.now() / 1000);
      const token = (sid: string, gen: number) => ({ ...claims(sid), gen, auth_time: authTime });
      const sids = Array.from({ length: 150 }, (_, i) => `together-${i}`);
      // Every session refreshed at once, each three times over: 450 rotations in flight on one instance.
      const rotations = await Promise.all(
        sids.flatMap((sid) => [a.rotate(token(sid, 0)), a.rotate(token(sid, 0)), a.rotate(token(sid, 0))]),
      );
      for (const [i, sid] of sids.entries()) {
        const mine = rotations.slice(i * 3, i * 3 + 3);
        assert.equal(mine.filter((r) => r.ok).length, 1, `exactly one refresh of ${sid}`);
        assert.deepEqual(
          mine.filter((r) => !r.ok),
          [
            { ok: false, reason: 'spent' },
            { ok: false, reason: 'spent' },
          ],
        );
      }
      await untilAfter('b hears every refresh', b.afterChange, async () => {
        const refusals = await Promise.all(sids.map((sid) => b.refusal(token(sid, 0))));
        return refusals.every((r) => r === 'superseded');
      });
      for (const sid of sids) assert.equal(await b.refusal(token(sid, 1)), null);
    });

    it('asks the database while its connection is lost, and reloads when it is back', async () => {
      const admin = await sql<{ n: number }>`
        select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
        where datname = current_database() and query ilike 'listen%'
      `.execute(db);
      assert.equal(admin.rows[0]!.n, 2, 'both listeners cut off');
      await untilAfter('b knows its listener is gone', b.afterChange, async () => !b.answersFromMemory());
      // Written without a notice while nobody listens: the fallback query finds it.
      await db
        .insertInto('revoked_session')
        .values({ sid: 'while-lost', borrower_id: borrowerId, expires_at: later() })
        .execute();
      assert.equal(await b.isRevoked(claims('while-lost')), true);
      // After reconnecting (1 s), the reload has it, memory answers again, and notices flow again.
      await untilAfter('listening and loaded again', b.afterChange, async () => b.answersFromMemory());
      assert.equal(await b.isRevoked(claims('while-lost')), true);
      await db
        .insertInto('revoked_session')
        .values({ sid: 'silent-again', borrower_id: borrowerId, expires_at: later() })
        .execute();
      assert.equal(await b.isRevoked(claims('silent-again')), false, 'memory again');
      await a.revoke('after-reconnect', borrowerId, later());
      await untilAfter('notices flow again', b.afterChange, () => b.isRevoked(claims('after-reconnect')));
    });

    it('takes a notice it cannot read as a reason to ask the database until it has reloaded', async () => {
      await untilAfter('listening and loaded', b.afterChange, async () => b.answersFromMemory());
      await db
        .insertInto('revoked_session')
        .values({ sid: 'unannounced', borrower_id: borrowerId, expires_at: later() })
        .execute();
      assert.equal(await b.isRevoked(claims('unannounced')), false, 'memory, not a query');
      // Anyone who can reach the database may NOTIFY on the channel.
      await sql`select pg_notify(${REVOCATION_CHANNEL}, ${'{"kind":'})`.execute(db);
      await untilAfter(
        'b reloads the tables',
        b.afterChange,
        async () => b.answersFromMemory() && (await b.isRevoked(claims('unannounced'))),
      );
      assert.ok(bLog.lines.some((l) => l.level === 40 && /unreadable revocation notice/.test(String(l.msg))));
    });
  },
);
