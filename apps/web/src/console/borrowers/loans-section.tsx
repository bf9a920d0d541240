import type { LoanSummary } from '@customer-core/contracts';
import { useLingui } from '@lingui/react/macro';
import { formatCalendarDate, formatMoney } from '../../loans/loan-format';
import { LoanStatusBadge } from '../../loans/loan-status-badge';
import { ConsoleSection } from '../components/console-section';
import { ConsoleTable } from '../components/console-table';
import { CHECKOUT_STATUS_LABELS } from './borrower-words';

/** The borrower's loans as they see them, with where each one's checkout is. */
export function LoansSection({ loans }: { loans: LoanSummary[] }) {
  const { t, i18n } = useLingui();
  return (
    <ConsoleSection id="borrower-loans" title={t`Loans`}>
      {loans.length === 0 ? (
        <p className="console-empty">{t`No loans yet.`}</p>
      ) : (
        <ConsoleTable
          caption={t`Loans`}
          testId="borrower-loans-table"
          head={
            <>
              <th scope="col">{t`Reference`}</th>
              <th scope="col">{t`Product`}</th>
              <th scope="col">{t`Status`}</th>
              <th scope="col" className="console-table__number">
                {t`Amount`}
              </th>
              <th scope="col" className="console-table__number">
                {t`Balance`}
              </th>
              <th scope="col">{t`Next payment`}</th>
              <th scope="col">{t`Checkout`}</th>
              <th scope="col" className="console-table__number">
                {t`Documents done`}
              </th>
            </>
          }
        >
          {loans.map((loan) => {
            const { documents, documentsDone, status } = loan.checkout;
            const next = loan.nextPayment;
            const amount = next ? formatMoney(next.amountCents) : '';
            const due = next ? formatCalendarDate(next.dueOn) : '';
            return (
              <tr key={loan.id}>
                <th scope="row" className="console-code">
                  {loan.reference}
                </th>
                <td>{loan.product}</td>
                <td>
                  <LoanStatusBadge status={loan.status} />
                </td>
                <td className="console-table__number">{formatMoney(loan.amountCents)}</td>
                <td className="console-table__number">{formatMoney(loan.balanceCents)}</td>
                <td>{next ? t`${amount} on ${due}` : '—'}</td>
                <td>{i18n._(CHECKOUT_STATUS_LABELS[status])}</td>
                <td className="console-table__number">{t`${documentsDone} of ${documents}`}</td>
              </tr>
            );
          })}
        </ConsoleTable>
      )}
    </ConsoleSection>
  );
}
