import type { BankAccount, BankAccountStatus } from '@customer-core/contracts';
import { returnReasonOf } from '@customer-core/contracts';
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { inPortalLanguage } from '../../i18n/in-portal-language';

// How the screen names a bank account and says its state: words first, colour second.

const STATUS_LABELS = {
  pending_verification: msg`Waiting for verification`,
  verified: msg`Verified`,
  failed: msg`Not verified`,
  disabled: msg`Disabled`,
} satisfies Record<BankAccountStatus, unknown>;

const TYPE_LABELS = {
  checking: msg`Checking`,
  savings: msg`Savings`,
} satisfies Record<BankAccount['type'], unknown>;

export const statusLabel = (status: BankAccountStatus, i18n: I18n) => i18n._(STATUS_LABELS[status]);

export const typeLabel = (type: BankAccount['type'], i18n: I18n) => i18n._(TYPE_LABELS[type]);

/** The bank's name from the lender's directory, or its routing number where the directory has none. */
export function bankName(account: Pick<BankAccount, 'bankName' | 'routingNumber'>, i18n: I18n): string {
  if (account.bankName) return account.bankName;
  const routing = account.routingNumber;
  return i18n._(msg`Routing ${routing}`);
}

/** What a return code means, in the portal's language (RETURN_REASONS in the contracts). */
export const returnReason = (code: string) => inPortalLanguage(returnReasonOf(code).words);
