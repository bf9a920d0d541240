import { useLingui } from '@lingui/react/macro';
import { SignedInPage } from '../../components/signed-in-shell/signed-in-page';
import { LoansSection } from './loans-section';
import './dashboard.css';

/** /ui/dashboard/loans: every loan of the borrower, open ones first. */
export function LoansScreen() {
  const { t } = useLingui();
  return (
    <SignedInPage
      title={t`Your loans`}
      intro={t`Every loan you have with us: open ones first, then closed ones.`}
      titleId="loans-page-title"
      testId="loans-page"
    >
      <LoansSection title={t`Open loans`} />
    </SignedInPage>
  );
}
