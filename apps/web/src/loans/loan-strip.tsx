import type { VisibleLoanStatus } from '@customer-core/contracts';
import type { ReactNode } from 'react';
import { LoanStatusBadge } from './loan-status-badge';
import './loans.css';

/** The loan a flow is about, in a strip under its heading: product, a line of detail, its status. */
export function LoanStrip({
  product,
  status,
  detail,
  testId,
}: {
  product: string;
  status: VisibleLoanStatus;
  detail: ReactNode;
  testId: string;
}) {
  return (
    <div className="loan-strip" data-testid={testId}>
      <p>
        <strong>{product}</strong>
        <span className="loan-strip__detail">{detail}</span>
      </p>
      <LoanStatusBadge status={status} />
    </div>
  );
}
