import type { Kysely, Transaction } from 'kysely';
import type { ApiDatabase } from '../db/schema.js';

/** The queries of the borrowers' known devices, over the database or over one transaction. */
function knownDeviceQueries(db: Kysely<ApiDatabase>) {
  return {
    /** Adds the borrower's device; false when it is theirs already (added by a concurrent sign-in too). */
    async add(borrowerId: string, deviceHash: string): Promise<boolean> {
      const added = await db
        .insertInto('known_device')
        .values({ borrower_id: borrowerId, device_hash: deviceHash })
        .onConflict((oc) => oc.columns(['borrower_id', 'device_hash']).doNothing())
        .executeTakeFirst();
      return (added.numInsertedOrUpdatedRows ?? 0n) > 0n;
    },

    /** Whether the borrower has a device other than this one. */
    async hasOther(borrowerId: string, deviceHash: string): Promise<boolean> {
      const other = await db
        .selectFrom('known_device')
        .select('device_hash')
        .where('borrower_id', '=', borrowerId)
        .where('device_hash', '<>', deviceHash)
        .limit(1)
        .executeTakeFirst();
      return other !== undefined;
    },
  };
}

export type KnownDeviceQueries = ReturnType<typeof knownDeviceQueries>;

/** The SQL of the browsers each borrower has signed in with (known_device, by the device cookie's hash). */
export function knownDeviceRepository(db: Kysely<ApiDatabase>) {
  return {
    ...knownDeviceQueries(db),

    /**
     * Runs `work` in one transaction: `devices` are these queries inside it, `trx` is for the request
     * limits, the link tokens and the outbox to join it.
     */
    transaction: <T>(
      work: (devices: KnownDeviceQueries, trx: Transaction<ApiDatabase>) => Promise<T>,
    ): Promise<T> => db.transaction().execute((trx) => work(knownDeviceQueries(trx), trx)),
  };
}

export type KnownDeviceRepository = ReturnType<typeof knownDeviceRepository>;
