import type { VisibleLoanStatus } from '@customer-core/contracts';
import { useLingui } from '@lingui/react/macro';
import { LOAN_STATUS_LABELS } from './loan-status';
import './loans.css';

const MODIFIERS: Record<VisibleLoanStatus, string> = {
  ACTIVE: 'active',
  'PAST DUE': 'past-due',
  PAID: 'paid',
  'CLOSED LOST': 'closed-lost',
};

/** The loan's status in words and colour (spec: status shown as text and colour). */
export function LoanStatusBadge({ status }: { status: VisibleLoanStatus }) {
  const { i18n } = useLingui();
  return (
    <span
      className={`loan-status loan-status--${MODIFIERS[status]}`}
      data-testid="loan-status"
      data-status={status}
    >
      {i18n._(LOAN_STATUS_LABELS[status])}
    </span>
  );
}
