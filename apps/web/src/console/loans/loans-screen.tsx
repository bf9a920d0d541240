import { Trans, useLingui } from '@lingui/react/macro';
import { ConsolePage } from '../components/console-page';
import { AddLoanForm } from './add-loan-form';
import { ChangeLoanForm } from './change-loan-form';
import { InstalmentForm } from './instalment-form';
import { InviteBorrowerForm } from './invite-form';

/** Loan officers' work on the book: invitations, loans added and changed, instalments recorded. */
export function LoansScreen() {
  const { t } = useLingui();
  return (
    <ConsolePage
      title={t`Loans`}
      intro={
        <Trans>
          Invite borrowers, add loans, change their terms and record their instalments. Amounts are in
          dollars.
        </Trans>
      }
      testId="console-loans"
    >
      <div className="console-grid">
        <InviteBorrowerForm />
        <AddLoanForm />
        <ChangeLoanForm />
        <InstalmentForm />
      </div>
    </ConsolePage>
  );
}
