import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import { MICRO_DEPOSIT_TRIES } from '@customer-core/contracts';
import type { SecretBox } from '@customer-core/database';
import { placeIn } from '@customer-core/database';
import { BANK_ACCOUNT_NUMBER, MICRO_AMOUNTS } from '../db/sealed-columns.js';
import type { ApiDatabase, BankAccountTable } from '../db/schema.js';

// The SQL of borrowers' bank accounts. The account number is sealed on its way in and opened only
// for the duplicate check and a NACHA file; every borrower's query names the borrower, so an account
// id alone never reaches another borrower's account.

/** An account as the borrower and staff see it: never its number. */
export type BankAccountRow = Omit<Selectable<BankAccountTable>, 'account_number' | 'micro_amounts'>;

const SHOWN = [
  'id',
  'borrower_id',
  'holder_name',
  'routing_number',
  'bank_name',
  'account_type',
  'account_last4',
  'status',
  'micro_traces',
  'micro_file_id',
  'tries_left',
  'disabled_reason',
  'created_at',
  'verified_at',
  'removed_at',
] as const;

export interface NewBankAccount {
  borrowerId: string;
  holderName: string;
  routingNumber: string;
  bankName: string | null;
  type: 'checking' | 'savings';
  accountNumber: string;
}

export type VerifyOutcome =
  | { ok: true; account: BankAccountRow }
  | { ok: false; problem: 'not_found' | 'not_verifiable' }
  | { ok: false; problem: 'wrong_amounts'; account: BankAccountRow };

export function bankAccountRepository(db: Kysely<ApiDatabase>, secrets: SecretBox) {
  const numberOf = (id: string, sealed: string) => secrets.open(sealed, placeIn(BANK_ACCOUNT_NUMBER, id));

  return {
    /** The borrower's accounts not removed, oldest first. */
    list: (borrowerId: string, executor: Kysely<ApiDatabase> = db): Promise<BankAccountRow[]> =>
      executor
        .selectFrom('bank_account')
        .select(SHOWN)
        .where('borrower_id', '=', borrowerId)
        .where('removed_at', 'is', null)
        .orderBy('created_at')
        .execute(),

    one: (borrowerId: string, id: string, executor: Kysely<ApiDatabase> = db) =>
      executor
        .selectFrom('bank_account')
        .select(SHOWN)
        .where('borrower_id', '=', borrowerId)
        .where('id', '=', id)
        .where('removed_at', 'is', null)
        .executeTakeFirst(),

    /**
     * Adds an account unless the borrower has this one (routing and number) or as many as they may.
     * The borrower's row is locked first, so two adds at once are counted one after the other.
     */
    async add(
      account: NewBankAccount,
      maxAccounts: number,
    ): Promise<
      | { ok: true; account: BankAccountRow }
      | { ok: false; problem: 'exists' | 'too_many' | 'too_many_lately' }
    > {
      return db.transaction().execute(async (trx) => {
        await trx
          .selectFrom('borrower')
          .select('id')
          .where('id', '=', account.borrowerId)
          .forUpdate()
          .execute();
        const kept = await trx
          .selectFrom('bank_account')
          .select(['id', 'routing_number', 'account_number'])
          .where('borrower_id', '=', account.borrowerId)
          .where('removed_at', 'is', null)
          .execute();
        const same = kept.some(
          (row) =>
            row.routing_number === account.routingNumber &&
            numberOf(row.id, row.account_number) === account.accountNumber,
        );
        if (same) return { ok: false, problem: 'exists' } as const;
        if (kept.length >= maxAccounts) return { ok: false, problem: 'too_many' } as const;
        // Each account added sends money to it (the micro-deposits): removing and adding again is no
        // way around the ceiling, so those added lately count, removed or not.
        const { added } = await trx
          .selectFrom('bank_account')
          .select(sql<number>`count(*)::int`.as('added'))
          .where('borrower_id', '=', account.borrowerId)
          .where(sql<boolean>`created_at > now() - interval '30 days'`)
          .executeTakeFirstOrThrow();
        if (added >= maxAccounts) return { ok: false, problem: 'too_many_lately' } as const;
        const id = randomUUID();
        const row = await trx
          .insertInto('bank_account')
          .values({
            id,
            borrower_id: account.borrowerId,
            holder_name: account.holderName,
            routing_number: account.routingNumber,
            bank_name: account.bankName,
            account_type: account.type,
            account_number: secrets.seal(account.accountNumber, placeIn(BANK_ACCOUNT_NUMBER, id)),
            account_last4: account.accountNumber.slice(-4),
          })
          .returning(SHOWN)
          .executeTakeFirstOrThrow();
        return { ok: true, account: row } as const;
      });
    },

    /**
     * Checks the two amounts (in either order) against those the file carried, in constant time; a
     * wrong pair spends a try, the last one fails the account. The row is locked, so tries at once
     * are counted one after the other.
     */
    async verify(borrowerId: string, id: string, amounts: [number, number]): Promise<VerifyOutcome> {
      return db.transaction().execute(async (trx): Promise<VerifyOutcome> => {
        const row = await trx
          .selectFrom('bank_account')
          .select(['status', 'micro_amounts', 'tries_left'])
          .where('borrower_id', '=', borrowerId)
          .where('id', '=', id)
          .where('removed_at', 'is', null)
          .forUpdate()
          .executeTakeFirst();
        if (!row) return { ok: false, problem: 'not_found' };
        if (row.status !== 'pending_verification' || !row.micro_amounts || row.tries_left <= 0)
          return { ok: false, problem: 'not_verifiable' };
        const sent = secrets.open(row.micro_amounts, placeIn(MICRO_AMOUNTS, id));
        if (sameAmounts(sent, amounts)) {
          const account = await trx
            .updateTable('bank_account')
            .set({ status: 'verified', verified_at: new Date(), micro_amounts: null })
            .where('id', '=', id)
            .returning(SHOWN)
            .executeTakeFirstOrThrow();
          return { ok: true, account };
        }
        const triesLeft = row.tries_left - 1;
        const account = await trx
          .updateTable('bank_account')
          .set({
            tries_left: triesLeft,
            ...(triesLeft === 0 ? { status: 'failed', micro_amounts: null } : {}),
          })
          .where('id', '=', id)
          .returning(SHOWN)
          .executeTakeFirstOrThrow();
        return { ok: false, problem: 'wrong_amounts', account };
      });
    },

    /** A disabled account back to pending verification, for new micro-deposits; undefined: not disabled. */
    reverify: (borrowerId: string, id: string) =>
      db
        .updateTable('bank_account')
        .set({
          status: 'pending_verification',
          tries_left: MICRO_DEPOSIT_TRIES,
          micro_file_id: null,
          micro_traces: null,
          micro_amounts: null,
        })
        .where('borrower_id', '=', borrowerId)
        .where('id', '=', id)
        .where('status', '=', 'disabled')
        .where('removed_at', 'is', null)
        .returning(SHOWN)
        .executeTakeFirst(),

    /** Removes an account no payment on its way or autopay uses; undefined: no such account. */
    async remove(borrowerId: string, id: string): Promise<'removed' | 'in_use' | undefined> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('bank_account')
          .select('id')
          .where('borrower_id', '=', borrowerId)
          .where('id', '=', id)
          .where('removed_at', 'is', null)
          .forUpdate()
          .executeTakeFirst();
        if (!row) return undefined;
        const { used } = await trx
          .selectNoFrom((eb) =>
            eb
              .or([
                eb.exists(
                  eb
                    .selectFrom('payment')
                    .select('id')
                    .where('bank_account_id', '=', id)
                    .where('status', 'in', ['scheduled', 'pending']),
                ),
                eb.exists(
                  eb
                    .selectFrom('autopay')
                    .select('loan_id')
                    .where('bank_account_id', '=', id)
                    .where('enabled', '=', true),
                ),
              ])
              .as('used'),
          )
          .executeTakeFirstOrThrow();
        if (used) return 'in_use';
        await trx
          .updateTable('bank_account')
          .set({ removed_at: new Date(), micro_amounts: null })
          .where('id', '=', id)
          .execute();
        return 'removed';
      });
    },
  };
}

export type BankAccountRepository = ReturnType<typeof bankAccountRepository>;

/** "a,b" against the two amounts typed, in either order, without an early exit. */
function sameAmounts(sent: string, typed: [number, number]): boolean {
  const [a, b] = sent.split(',').map(Number) as [number, number];
  const [x, y] = typed;
  // Zero when either order matches: no branch on which digits differ.
  return ((a ^ x) | (b ^ y)) * ((a ^ y) | (b ^ x)) === 0;
}

/** The sealed form of the amounts a file carries for an account. */
export const sealedMicroAmounts = (secrets: SecretBox, id: string, amounts: [number, number]) =>
  secrets.seal(amounts.join(','), placeIn(MICRO_AMOUNTS, id));

/** An account's number, opened for a file. */
export const openedAccountNumber = (secrets: SecretBox, id: string, sealed: string) =>
  secrets.open(sealed, placeIn(BANK_ACCOUNT_NUMBER, id));
