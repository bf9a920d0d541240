import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createSecretBox, isConnectionLoss } from '@customer-core/database';
import type { ContractDatabase } from '@customer-core/database/testing/storage-contract';
import { testDatabaseKinds } from '@customer-core/database/testing';
import type { ApiDatabase } from '../../src/db/schema.js';
import { bankAccountRepository } from '../../src/payments/bank-account-repository.js';
import { paymentFileRepository } from '../../src/payments/payment-file-repository.js';
import { paymentRepository } from '../../src/payments/payment-repository.js';
import { newBorrower, openApiStorage } from './support.js';

// Payments' storage when the database goes away mid-way (PostgreSQL: a connection cut while it waits
// for a lock): a payment, or a file taking payments to the bank, is written whole or not at all, and
// the same call afterwards writes it once. Races of one idempotency key: payments.test.ts.

const secrets = createSecretBox([{ id: 'k1', key: Buffer.alloc(32, 7) }]);
const AUTHORIZATION = {
  text: 'You authorize…',
  sha256: '0'.repeat(64),
  version: 1,
  at: new Date(),
  clientAddress: '192.0.2.1',
  userAgent: null,
};

for (const kind of testDatabaseKinds().filter((k) => k === 'postgres')) {
  describe(`payments when the connection is lost (${kind})`, () => {
    let database: ContractDatabase<ApiDatabase>;
    before(async () => {
      database = await openApiStorage(kind);
    });
    after(() => database?.close());

    /** A borrower with a loan and a verified bank account. */
    async function payer() {
      const borrower = await newBorrower(database.db);
      const { id: loanId } = await database.db
        .insertInto('loan')
        .values({
          borrower_id: borrower.id,
          reference: `LN-${randomUUID().slice(0, 8)}`,
          product: 'Term loan',
          amount_cents: 1_000_000,
          balance_cents: 1_000_000,
          status: 'ACTIVE',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const added = await bankAccountRepository(database.db, secrets).add(
        {
          borrowerId: borrower.id,
          holderName: 'Demo Supplies LLC',
          routingNumber: '021000021',
          bankName: null,
          type: 'checking',
          accountNumber: '12345678',
        },
        5,
      );
      assert.ok(added.ok);
      await database.db
        .updateTable('bank_account')
        .set({ status: 'verified' })
        .where('id', '=', added.account.id)
        .execute();
      return { borrowerId: borrower.id, loanId, bankAccountId: added.account.id };
    }

    it('a payment whose connection is lost is not written; the same submission then is, once', async () => {
      const { borrowerId, loanId, bankAccountId } = await payer();
      const payments = paymentRepository(database.db);
      const key = randomUUID();
      const pay = () =>
        payments.forBorrower(borrowerId, (trx) =>
          payments.insert(trx, {
            borrowerId,
            loanId,
            bankAccountId,
            kind: 'one_time',
            amountCents: 10_000,
            effectiveOn: '2026-12-01',
            idempotencyKey: key,
            requestSha256: 'a'.repeat(64),
            instalmentDueOn: null,
            authorization: AUTHORIZATION,
          }),
        );
      const error = await database.cutWhileWaiting(
        'select 1 from borrower where id = $1 for update',
        [borrowerId],
        pay,
      );
      assert.equal(isConnectionLoss(error), true, String(error));
      const count = async () =>
        (await database.db.selectFrom('payment').select('id').where('borrower_id', '=', borrowerId).execute())
          .length;
      assert.equal(await count(), 0);
      assert.ok(await pay());
      assert.equal(await pay(), undefined, 'the same key writes no second one');
      assert.equal(await count(), 1);
    });

    it('a file whose connection is lost takes nothing: its payments stay scheduled for the next one', async () => {
      const { borrowerId, loanId, bankAccountId } = await payer();
      const payments = paymentRepository(database.db);
      await payments.forBorrower(borrowerId, (trx) =>
        payments.insert(trx, {
          borrowerId,
          loanId,
          bankAccountId,
          kind: 'one_time',
          amountCents: 20_000,
          effectiveOn: '2026-12-01',
          idempotencyKey: randomUUID(),
          requestSha256: null,
          instalmentDueOn: null,
          authorization: AUTHORIZATION,
        }),
      );
      const files = paymentFileRepository(database.db, secrets);
      let taken = 0;
      const take = () =>
        files.asFileWriter(async (trx) => {
          const due = await files.dueDebits(trx, '2026-12-31');
          const id = randomUUID();
          await files.insertFile(trx, {
            id,
            creation_day: '2026-11-30',
            file_id_modifier: String.fromCharCode(65 + taken++),
            batch_count: 1,
            entry_count: due.length,
            entry_hash: '0000000000',
            debit_total_cents: 20_000,
            credit_total_cents: 0,
            sha256: 'b'.repeat(64),
            content: 'the file',
            created_by: 'system:payments',
          });
          await files.markSent(
            trx,
            id,
            due.map((d, i) => ({
              id: d.id,
              trace: `09100001${String(i + 1).padStart(7, '0')}`,
              effectiveOn: d.effectiveOn,
            })),
            [],
          );
          return due.length;
        });
      // Another writer holds the file lock; this one's connection is cut while it waits for it.
      const error = await database.cutWhileWaiting(
        "select pg_advisory_xact_lock(hashtext('customer-core:payment-file'))",
        [],
        take,
      );
      assert.equal(isConnectionLoss(error), true, String(error));
      const statuses = async () =>
        (
          await database.db
            .selectFrom('payment')
            .select('status')
            .where('borrower_id', '=', borrowerId)
            .execute()
        ).map((p) => p.status);
      assert.deepEqual(await statuses(), ['scheduled']);
      assert.ok((await take()) >= 1);
      assert.deepEqual(await statuses(), ['pending']);
    });
  });
}
