import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { testDatabaseKinds } from '@customer-core/database/testing';
import { race, type ContractDatabase } from '@customer-core/database/testing/storage-contract';
import type { ApiDatabase } from '../../src/db/schema.js';
import { DEVICE_COOKIE_DAYS } from '../../src/http/device-cookie.js';
import { purgeRepository } from '../../src/maintenance/purge-repository.js';
import { fromNow, newBorrower, openApiStorage } from './support.js';

// The purge every instance runs: rows that can no longer matter go, the rest stay.

const AGES = { signingKeyRetirementSeconds: 3600, sessionMaxAgeSeconds: 43_200, auditRetentionDays: 365 };
const DAY = 86_400;
const daysAgo = (days: number) => fromNow(-days * DAY);

for (const kind of testDatabaseKinds()) {
  describe(`maintenance purge (${kind})`, () => {
    let database: ContractDatabase<ApiDatabase>;
    let borrowerId: string;

    before(async () => {
      database = await openApiStorage(kind);
      ({ id: borrowerId } = await newBorrower(database.db));
    });
    after(() => database?.close());

    const left = async <T extends keyof ApiDatabase>(table: T, column: string) =>
      (
        await sql<{ value: string }>`select ${sql.ref(column)}::text as value from ${sql.table(table)}
          order by 1`.execute(database.db)
      ).rows.map((row) => row.value);

    it('forgets sessions past their maximum age and exchanged ID tokens past their expiry, keeps the rest', async () => {
      const ago = (seconds: number) => fromNow(-seconds);
      await database.db
        .insertInto('product_session')
        .values([
          {
            sid: 'ended',
            borrower_id: borrowerId,
            generation: 3,
            created_at: ago(AGES.sessionMaxAgeSeconds + 2 * DAY),
          },
          { sid: 'current', borrower_id: borrowerId, generation: 1, created_at: ago(60) },
        ])
        .execute();
      await database.db
        .insertInto('exchanged_id_token')
        .values([
          { token_hash: 'expired', expires_at: ago(1) },
          { token_hash: 'live', expires_at: fromNow(300) },
        ])
        .execute();
      await database.db
        .insertInto('revoked_session')
        .values([
          { sid: 'revoked-over', borrower_id: borrowerId, expires_at: ago(1) },
          { sid: 'revoked-live', borrower_id: borrowerId, expires_at: fromNow(300) },
        ])
        .execute();

      await purgeRepository(database.db).purgeExpired(AGES);

      assert.deepEqual(await left('product_session', 'sid'), ['current']);
      assert.deepEqual(await left('exchanged_id_token', 'token_hash'), ['live']);
      assert.deepEqual(await left('revoked_session', 'sid'), ['revoked-live']);
    });

    it('forgets security events older than 90 days, keeps the newer ones', async () => {
      await database.db
        .insertInto('security_event')
        .values([
          { borrower_id: borrowerId, kind: 'signed_in', occurred_at: daysAgo(91), method: 'password' },
          { borrower_id: borrowerId, kind: 'password_changed', occurred_at: daysAgo(89) },
        ])
        .execute();

      await purgeRepository(database.db).purgeExpired(AGES);

      assert.deepEqual(await left('security_event', 'kind'), ['password_changed']);
    });

    it('forgets webhook events 90 days old and done with, keeps newer ones and one still to deliver', async () => {
      const { id: endpointId } = await database.db
        .insertInto('webhook_endpoint')
        .values({
          url: 'https://los.lender.example/hooks',
          event_types: ['borrower.registered'],
          secret: 'sealed',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const event = (id: string, days: number) => ({
        id,
        type: 'borrower.registered',
        payload: '{}',
        created_at: daysAgo(days),
      });
      await database.db
        .insertInto('webhook_event')
        .values([event('old-done', 91), event('old-waiting', 91), event('new-done', 89)])
        .execute();
      await database.db
        .insertInto('webhook_delivery')
        .values([
          { event_id: 'old-done', endpoint_id: endpointId, status: 'delivered' },
          { event_id: 'old-waiting', endpoint_id: endpointId, status: 'pending' },
          { event_id: 'new-done', endpoint_id: endpointId, status: 'dead' },
        ])
        .execute();

      await purgeRepository(database.db).purgeExpired(AGES);

      assert.deepEqual(await left('webhook_event', 'id'), ['new-done', 'old-waiting']);
      assert.deepEqual(await left('webhook_delivery', 'event_id'), ['new-done', 'old-waiting']);
    });

    it('forgets one-time tokens and invitations a day after they expired, old counts and unseen devices', async () => {
      const other = await newBorrower(database.db, { linked: false });
      await database.db
        .insertInto('lookup_token')
        .values([
          { token_hash: 'lookup-old', borrower_id: borrowerId, minted_by: 'crm', expires_at: daysAgo(2) },
          {
            token_hash: 'lookup-recent',
            borrower_id: borrowerId,
            minted_by: 'crm',
            expires_at: fromNow(-60),
          },
        ])
        .execute();
      const link = (tokenHash: string, expiresAt: ReturnType<typeof fromNow>) => ({
        id: randomUUID(),
        token_hash: tokenHash,
        purpose: 'magic_link' as const,
        idp_user_id: 'u1',
        expires_at: expiresAt,
      });
      await database.db
        .insertInto('link_token')
        .values([link('link-old', daysAgo(2)), link('link-recent', fromNow(-60))])
        .execute();
      await database.db
        .insertInto('invitation')
        .values([
          {
            id: randomUUID(),
            token_hash: 'invitation-old',
            borrower_id: borrowerId,
            invited_by: 'op',
            expires_at: daysAgo(2),
            consumed_at: fromNow(-3 * DAY),
          },
          {
            id: randomUUID(),
            token_hash: 'invitation-recent',
            borrower_id: other.id,
            invited_by: 'op',
            expires_at: fromNow(-60),
          },
        ])
        .execute();
      await database.db
        .insertInto('link_request_count')
        .values([
          { bucket: 'count-old', window_started_at: daysAgo(2), requests: 3 },
          { bucket: 'count-recent', window_started_at: fromNow(-60), requests: 3 },
        ])
        .execute();
      await database.db
        .insertInto('known_device')
        .values([
          {
            borrower_id: borrowerId,
            device_hash: 'device-unseen',
            last_seen_at: daysAgo(DEVICE_COOKIE_DAYS + 1),
          },
          {
            borrower_id: borrowerId,
            device_hash: 'device-seen',
            last_seen_at: daysAgo(DEVICE_COOKIE_DAYS - 1),
          },
        ])
        .execute();

      // Every instance runs it, at any time: at once too.
      await race(4, (i) => purgeRepository(i % 2 ? database.another() : database.db).purgeExpired(AGES));

      assert.deepEqual(await left('lookup_token', 'token_hash'), ['lookup-recent']);
      assert.deepEqual(await left('link_token', 'token_hash'), ['link-recent']);
      assert.deepEqual(await left('invitation', 'token_hash'), ['invitation-recent']);
      assert.deepEqual(await left('link_request_count', 'bucket'), ['count-recent']);
      assert.deepEqual(await left('known_device', 'device_hash'), ['device-seen']);
    });
  });
}
