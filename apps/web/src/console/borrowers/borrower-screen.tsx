import { consoleEndpoints, consoleRoutes } from '@customer-core/contracts';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { isLoading } from '../../lib/use-load';
import { Loading } from '../../components/loading';
import { ActionNotice, type Notice } from '../components/action-notice';
import { ConsolePage } from '../components/console-page';
import { ConsoleSection } from '../components/console-section';
import { useConsoleLoad } from '../components/load-state';
import { useConsoleApi } from '../session/console-api';
import { ActivitySection } from './activity-section';
import { BorrowerActions, type ErasureReport } from './borrower-actions';
import { BorrowerFacts } from './borrower-facts';
import { borrowerName } from './borrower-words';
import { LoansSection } from './loans-section';
import { MailSection } from './mail-section';
import { PaymentsSection } from './payments-section';
import { SessionsSection } from './sessions-section';

const NOTICE_ID = 'borrower-notice';
const NOT_FOUND = msg`No borrower has this id. They may have been erased, or the link is wrong.`;

/** How the borrower page was reached from a search: its ?q=, so that the way back shows its results. */
export interface FromSearch {
  q?: string;
}

/** Back to the borrowers' search, with its results when the page was opened from them. */
function BackToSearch() {
  const q = (useLocation().state as FromSearch | null)?.q;
  const to = q
    ? `${consoleRoutes.borrowers.path}?${new URLSearchParams({ q }).toString()}`
    : consoleRoutes.borrowers.path;
  return (
    <p className="console-back">
      <Link to={to}>{q ? <Trans>Back to results for “{q}”</Trans> : <Trans>Find a borrower</Trans>}</Link>
    </p>
  );
}

/**
 * One borrower for support: who they are and where their account is, their loans and payments,
 * sessions, security activity and the email sent to them, and what staff can do for them. After an
 * action the page says what it did and loads everything again.
 */
export function BorrowerScreen() {
  const { t } = useLingui();
  const { borrowerId = '' } = useParams();
  const api = useConsoleApi();
  const [refresh, setRefresh] = useState(0);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [erasure, setErasure] = useState<ErasureReport | null>(null);
  const { state, retry } = useConsoleLoad(
    (signal) =>
      api.call(consoleEndpoints.borrowerFile, { params: { borrowerId }, signal }, { fallback: NOT_FOUND }),
    [borrowerId, refresh],
  );
  const done = useCallback((next: Notice) => {
    setNotice(next);
    setRefresh((count) => count + 1);
  }, []);

  const report = erasure && <ErasureReportSection report={erasure} />;
  if (isLoading(state)) return <Loading />;
  if (state.kind === 'failed') {
    if (state.quiet) return null;
    return (
      <ConsolePage title={t`Borrower`} back={<BackToSearch />} testId="console-borrower">
        <ActionNotice id={NOTICE_ID} notice={notice} onDismiss={() => setNotice(null)} />
        {/* Erased just now: what the erasure did stays, though the borrower is gone. */}
        {report ?? (
          <div className="console-problem" role="alert">
            <p>{state.message}</p>
            <button type="button" className="button button--secondary console-button--small" onClick={retry}>
              <Trans>Try again</Trans>
            </button>
          </div>
        )}
      </ConsolePage>
    );
  }

  const file = state.data;
  const { borrower } = file;
  const name = borrowerName(borrower);
  return (
    <ConsolePage
      title={name ?? borrower.email}
      intro={name ? <p>{borrower.email}</p> : undefined}
      back={<BackToSearch />}
      testId="console-borrower"
    >
      <ActionNotice id={NOTICE_ID} notice={notice} onDismiss={() => setNotice(null)} />
      <section className="console-section" aria-label={t`Summary`}>
        <BorrowerFacts file={file} />
        <BorrowerActions file={file} noticeId={NOTICE_ID} onDone={done} onErased={setErasure} />
      </section>
      {report}
      <LoansSection loans={file.loans} />
      <PaymentsSection
        borrowerId={borrower.id}
        who={name ?? borrower.email}
        refresh={refresh}
        noticeId={NOTICE_ID}
        onDone={done}
      />
      <SessionsSection
        email={borrower.email}
        who={name ?? borrower.email}
        refresh={refresh}
        noticeId={NOTICE_ID}
        onDone={done}
      />
      <ActivitySection email={borrower.email} refresh={refresh} />
      <MailSection email={borrower.email} refresh={refresh} />
    </ConsolePage>
  );
}

/** What an erasure did: what was erased, and what was kept and why. */
function ErasureReportSection({ report }: { report: ErasureReport }) {
  const { t } = useLingui();
  return (
    <ConsoleSection id="borrower-erasure" title={t`What the erasure did`}>
      <div className="console-columns">
        <div>
          <h3>{t`Erased`}</h3>
          <ul className="console-plain-list">
            {report.erased.map((what) => (
              <li key={what}>{what}</li>
            ))}
          </ul>
        </div>
        <div>
          <h3>{t`Kept, and why`}</h3>
          <ul className="console-plain-list">
            {report.kept.map((kept) => (
              <li key={kept.what}>
                <strong>{kept.what}</strong>: {kept.why}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </ConsoleSection>
  );
}
