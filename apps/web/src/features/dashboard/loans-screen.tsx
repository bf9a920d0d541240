import { PageTitle } from '../../components/page-title';
import { LoansSection } from './loans-section';
import './dashboard.css';

/** /ui/dashboard/loans: every loan of the borrower, open ones first. */
export function LoansScreen() {
  return (
    <section
      className="dashboard"
      aria-labelledby="loans-page-title"
      data-testid="loans-page"
      data-layout="wide"
    >
      <PageTitle title="Your loans" />
      <header className="dashboard__header">
        <h1 id="loans-page-title">Your loans</h1>
        <p className="dashboard__intro">Every loan you have with us: open ones first, then closed ones.</p>
      </header>
      <LoansSection title="Open loans" />
    </section>
  );
}
