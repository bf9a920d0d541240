import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { openDatabase } from '@customer-core/database';
import { createTestDatabase, testDatabaseKinds } from '@customer-core/database/testing';
import { apiMigrations } from '../src/db/migrations.js';
import type { ApiDatabase } from '../src/db/schema.js';
import { purgeExpired } from '../src/maintenance.js';

const AGES = { signingKeyRetirementSeconds: 3600, sessionMaxAgeSeconds: 43_200 };

for (const kind of testDatabaseKinds()) {
  describe(`maintenance purge (${kind})`, () => {
    let db: Kysely<ApiDatabase>;
    let drop: () => Promise<void>;
    let borrowerId: string;

    before(async () => {
      const database = await createTestDatabase(kind, { api: apiMigrations });
      drop = database.drop;
      db = openDatabase<ApiDatabase>(database.location);
      ({ id: borrowerId } = await db
        .insertInto('borrower')
        .values({ email: 'purge@example.com', idp_issuer: 'https://idp.example', idp_subject: 'purge' })
        .returning('id')
        .executeTakeFirstOrThrow());
    });
    after(async () => {
      await db.destroy();
      await drop();
    });

    it('forgets sessions past their maximum age and exchanged ID tokens past their expiry, keeps the rest', async () => {
      const ago = (seconds: number) => sql<Date>`now() - make_interval(secs => ${seconds})`;
      await db
        .insertInto('product_session')
        .values([
          {
            sid: 'ended',
            borrower_id: borrowerId,
            generation: 3,
            created_at: ago(AGES.sessionMaxAgeSeconds + 2 * 86_400),
          },
          { sid: 'current', borrower_id: borrowerId, generation: 1, created_at: ago(60) },
        ])
        .execute();
      await db
        .insertInto('exchanged_id_token')
        .values([
          { token_hash: 'expired', expires_at: ago(1) },
          { token_hash: 'live', expires_at: sql<Date>`now() + interval '5 minutes'` },
        ])
        .execute();

      await purgeExpired(db, AGES);

      const sessions = await db.selectFrom('product_session').select('sid').execute();
      assert.deepEqual(
        sessions.map((s) => s.sid),
        ['current'],
      );
      const exchanged = await db.selectFrom('exchanged_id_token').select('token_hash').execute();
      assert.deepEqual(
        exchanged.map((t) => t.token_hash),
        ['live'],
      );
    });

    it('forgets security events older than 90 days, keeps the newer ones', async () => {
      const daysAgo = (days: number) => sql<Date>`now() - make_interval(days => ${days})`;
      await db
        .insertInto('security_event')
        .values([
          { borrower_id: borrowerId, kind: 'signed_in', occurred_at: daysAgo(91), method: 'password' },
          { borrower_id: borrowerId, kind: 'password_changed', occurred_at: daysAgo(89) },
        ])
        .execute();

      await purgeExpired(db, AGES);

      const kept = await db.selectFrom('security_event').select('kind').execute();
      assert.deepEqual(
        kept.map((e) => e.kind),
        ['password_changed'],
      );
    });
  });
}
