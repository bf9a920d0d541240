import { randomUUID } from 'node:crypto';
import { MAX_BANK_ACCOUNTS, type AddBankAccountRequest, type BankAccount } from '@customer-core/contracts';
import type { ChangeSource, SecurityActivity } from '../activity/security-activity.js';
import type { BankAccountRepository, BankAccountRow, VerifyOutcome } from './bank-account-repository.js';
import type { BankDirectory } from './bank-directory.js';
import type { BorrowerNotices } from './borrower-notices.js';

// A borrower's bank accounts: added (after a recent sign-in, checked by the route), proven with the
// two micro-deposits the lender's next file carries, removed. Each addition and removal is in the
// borrower's security activity and e-mailed to them.

export function bankAccountViewOf(row: BankAccountRow): BankAccount {
  return {
    id: row.id,
    holderName: row.holder_name,
    bankName: row.bank_name,
    routingNumber: row.routing_number,
    last4: row.account_last4,
    type: row.account_type,
    status: row.status,
    microDepositsSent: row.micro_file_id !== null,
    triesLeft: row.status === 'pending_verification' ? row.tries_left : 0,
    returnCode: row.disabled_reason,
    createdAt: row.created_at.toISOString(),
  };
}

export function bankAccounts({
  repository,
  directory,
  activity,
  notices,
}: {
  repository: BankAccountRepository;
  directory: BankDirectory;
  activity: SecurityActivity;
  notices: BorrowerNotices;
}) {
  return {
    list: async (borrowerId: string) => (await repository.list(borrowerId)).map(bankAccountViewOf),

    async add(borrowerId: string, request: AddBankAccountRequest, from: ChangeSource) {
      const outcome = await repository.add(
        {
          borrowerId,
          holderName: request.holderName,
          routingNumber: request.routingNumber,
          bankName: directory.nameOf(request.routingNumber),
          type: request.type,
          accountNumber: request.accountNumber,
        },
        MAX_BANK_ACCOUNTS,
      );
      if (!outcome.ok) return outcome;
      const { account } = outcome;
      await activity.record(borrowerId, { kind: 'bank_account_added', ...from });
      await notices.tell(
        borrowerId,
        {
          kind: 'bank-account-added',
          last4: account.account_last4,
          bankName: account.bank_name,
        },
        `bank-account-added:${account.id}`,
      );
      return { ok: true, account: bankAccountViewOf(account) } as const;
    },

    async verify(borrowerId: string, id: string, amounts: [number, number]) {
      const outcome: VerifyOutcome = await repository.verify(borrowerId, id, amounts);
      if (outcome.ok) return { ok: true, account: bankAccountViewOf(outcome.account) } as const;
      if (outcome.problem === 'wrong_amounts')
        return { ok: false, problem: outcome.problem, account: bankAccountViewOf(outcome.account) } as const;
      return { ok: false, problem: outcome.problem } as const;
    },

    /** A disabled account verified again: in the activity, and the borrower told, as an addition is. */
    async reverify(borrowerId: string, id: string, from: ChangeSource) {
      const account = await repository.one(borrowerId, id);
      if (!account) return undefined;
      const reopened = await repository.reverify(borrowerId, id);
      if (!reopened) return 'not_verifiable' as const;
      await activity.record(borrowerId, { kind: 'bank_account_added', ...from });
      await notices.tell(
        borrowerId,
        { kind: 'bank-account-added', last4: reopened.account_last4, bankName: reopened.bank_name },
        `bank-account-reverified:${id}:${randomUUID()}`,
      );
      return bankAccountViewOf(reopened);
    },

    async remove(borrowerId: string, id: string, from: ChangeSource) {
      const account = await repository.one(borrowerId, id);
      if (!account) return undefined;
      const outcome = await repository.remove(borrowerId, id);
      if (outcome === 'removed') {
        await activity.record(borrowerId, { kind: 'bank_account_removed', ...from });
        await notices.tell(
          borrowerId,
          { kind: 'bank-account-removed', last4: account.account_last4, bankName: account.bank_name },
          `bank-account-removed:${id}:${randomUUID()}`,
        );
      }
      return outcome;
    },
  };
}

export type BankAccounts = ReturnType<typeof bankAccounts>;
