import { LOAN_PURPOSES, applicationEndpoints, type BorrowerApplication } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { sessionRequest } from '../../lib/auth/session-request';
import { useLoad } from '../../lib/use-load';
import { formatInstant, formatMoney } from '../../loans/loan-format';
import { inPortalLanguage } from '../../i18n/in-portal-language';

type ApplicationsOutcome = { kind: 'loaded'; applications: BorrowerApplication[] } | { kind: 'failed' };

async function getApplications(signal: AbortSignal): Promise<ApplicationsOutcome> {
  const result = await sessionRequest(applicationEndpoints.borrowerApplications, { signal });
  return result.isError ? { kind: 'failed' } : { kind: 'loaded', applications: result.data.applications };
}

/**
 * The borrower's loan applications, newest first, each with where it stands: shown once there is one
 * (nothing while it loads, or if it cannot: the loans below are what the home is for).
 */
export function ApplicationsSection() {
  const { i18n } = useLingui();
  const { state } = useLoad(getApplications, []);
  if (state.kind !== 'loaded' || state.applications.length === 0) return null;
  return (
    <section className="applications" aria-labelledby="applications-title" data-testid="applications">
      <h2 id="applications-title">
        <Trans>Your applications</Trans>
      </h2>
      <ul className="applications__list">
        {state.applications.map((application) => {
          const amount = formatMoney(application.amountRequested * 100, i18n.locale);
          // The purposes' names are the shared contract's (packages/contracts).
          const purpose = inPortalLanguage(LOAN_PURPOSES[application.purpose]);
          const sentAt = formatInstant(application.submittedAt, i18n.locale);
          return (
            <li key={application.id} className="application" data-testid="application">
              <div className="application__what">
                <p className="application__name">{application.businessName}</p>
                <p className="application__facts">
                  <Trans>
                    {amount} · {purpose} · Sent {sentAt}
                  </Trans>
                </p>
              </div>
              <p className="application__state" data-testid="application-state">
                <Trans>
                  <strong>Received.</strong> A lending specialist will contact you.
                </Trans>
              </p>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
