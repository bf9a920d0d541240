import { returnReasonOf, type PaymentStatus } from '@customer-core/contracts';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { inPortalLanguage } from '../../i18n/in-portal-language';

// The payment screens' words for what the API says by code: a payment's status and why a bank
// returned it (RETURN_REASONS in the contracts, in English; the catalogue holds them: shared-messages.ts).

/** A payment's status in words (a "pago" in Spanish, whose words agree with it: the context says so). */
export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, MessageDescriptor> = {
  scheduled: msg({ message: 'Scheduled', context: 'payment' }),
  pending: msg({ message: 'Pending', context: 'payment' }),
  settled: msg({ message: 'Paid', context: 'payment' }),
  returned: msg({ message: 'Returned', context: 'payment' }),
  cancelled: msg({ message: 'Cancelled', context: 'payment' }),
};

/** Why the bank returned a payment, in the portal's language (the contracts' RETURN_REASONS). */
export const returnReasonWords = (code: string | null) => inPortalLanguage(returnReasonOf(code ?? '').words);

/** "Chase ••1234", or "Account ••1234" for a bank the lender's directory does not name. */
export function accountLabel(account: { bankName: string | null; last4: string }, i18n: I18n): string {
  const { bankName, last4 } = account;
  return bankName ? [bankName, `••${last4}`].join(' ') : i18n._(msg`Account ••${last4}`);
}
