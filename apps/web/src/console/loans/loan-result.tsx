import type { OperatorLoan } from '@customer-core/contracts';
import { useLingui } from '@lingui/react/macro';
import { formatCalendarDate, formatMoney } from '../../loans/loan-format';
import { STATUS_LABELS } from './loan-fields';

/** A loan as the API answered it after a change: its terms now, and what the borrower would see amiss. */
export function LoanResult({ loan }: { loan: OperatorLoan }) {
  const { t, i18n } = useLingui();
  const next = loan.nextPayment;
  const amount = next ? formatMoney(next.amountCents) : '';
  const due = next ? formatCalendarDate(next.dueOn) : '';
  return (
    <div className="console-result" data-testid="loan-result">
      <dl className="console-facts">
        <div>
          <dt>{t`Reference`}</dt>
          <dd className="console-code">{loan.reference}</dd>
        </div>
        <div>
          <dt>{t`Borrower`}</dt>
          <dd className="console-table__wrap">{loan.borrowerEmail}</dd>
        </div>
        <div>
          <dt>{t`Status`}</dt>
          <dd>{i18n._(STATUS_LABELS[loan.status])}</dd>
        </div>
        <div>
          <dt>{t`Amount`}</dt>
          <dd>{formatMoney(loan.amountCents)}</dd>
        </div>
        <div>
          <dt>{t`Balance`}</dt>
          <dd>{formatMoney(loan.balanceCents)}</dd>
        </div>
        <div>
          <dt>{t`Next payment`}</dt>
          <dd>{next ? t`${amount} on ${due}` : t`No next payment`}</dd>
        </div>
      </dl>
      {loan.warnings.length > 0 && (
        <div className="console-warnings" role="status">
          <p>{t`The borrower would see this amiss (the schedule may follow):`}</p>
          <ul>
            {loan.warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
