import {
  routes,
  type BankAccount,
  type LoanDetail,
  type LoanPayments,
  type Payment,
} from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Loading } from '../../components/loading';
import { PageTitle } from '../../components/page-title';
import { BackLink } from '../../components/signed-in-shell/back-link';
import { useLoad } from '../../lib/use-load';
import { formatMoney } from '../../loans/loan-format';
import { LoanLoadFailed } from '../../loans/loan-load-failed';
import { LoanNotFound } from '../../loans/loan-not-found';
import { LoanStrip } from '../../loans/loan-strip';
import { isOpenLoan } from '../../loans/loan-status';
import { getLoan } from '../../loans/loans-api';
import { NoUsableAccount, verifiedAccounts } from './bank-account-choice';
import { DONE_TITLE_ID, PayDoneStep } from './pay-done-step';
import {
  DETAILS_TITLE_ID,
  PayDetailsStep,
  initialDetails,
  type DetailsForm,
  type PaymentTerms,
} from './pay-details-step';
import { PayReviewStep, REVIEW_TITLE_ID } from './pay-review-step';
import { getBankAccounts, getLoanPayments } from './payments-api';
import './payments.css';

type PayState =
  | { kind: 'not-found' }
  | { kind: 'failed'; message: string }
  | { kind: 'ready'; loan: LoanDetail; facts: LoanPayments; accounts: BankAccount[] };

async function openPayment(loanId: string, signal: AbortSignal): Promise<PayState> {
  const [loan, facts, accounts] = await Promise.all([
    getLoan(loanId, signal),
    getLoanPayments(loanId, signal),
    getBankAccounts(signal),
  ]);
  if (loan.kind === 'not-found' || facts.kind === 'not-found') return { kind: 'not-found' };
  if (loan.kind !== 'loaded') return { kind: 'failed', message: loan.message };
  if (facts.kind !== 'loaded') return { kind: 'failed', message: facts.message };
  if (accounts.kind !== 'loaded') return { kind: 'failed', message: accounts.message };
  return { kind: 'ready', loan: loan.loan, facts: facts.value, accounts: accounts.value };
}

/** /ui/dashboard/loans/{loanId}/pay: a one-time payment by ACH debit, in steps. */
export function PayLoanScreen() {
  const { t } = useLingui();
  const { loanId = '' } = useParams();
  const { state, retry, reload } = useLoad((signal) => openPayment(loanId, signal), [loanId]);
  switch (state.kind) {
    case 'loading':
      return <Loading />;
    case 'not-found':
      return <LoanNotFound />;
    case 'failed':
      return (
        <LoanLoadFailed
          message={state.message}
          retry={retry}
          back={{ to: routes.loanDetails.href({ loanId }), label: t`Back to your loan` }}
          testId="pay-load-error"
        />
      );
    case 'ready':
      return <PayLoan loan={state.loan} facts={state.facts} accounts={state.accounts} reload={reload} />;
  }
}

type Step =
  { name: 'details' } | { name: 'review'; terms: PaymentTerms } | { name: 'done'; payment: Payment };

const TITLE_OF_STEP = { details: DETAILS_TITLE_ID, review: REVIEW_TITLE_ID, done: DONE_TITLE_ID };

interface PayLoanProps {
  loan: LoanDetail;
  facts: LoanPayments;
  accounts: BankAccount[];
  /** Asks for the loan's options and the accounts again (a refusal says they changed). */
  reload: () => void;
}

/**
 * The payment's steps: details (amount, day, account), review (the authorization, accepted), and the
 * payment made. Each step's heading takes the focus as it shows.
 */
export function PayLoan({ loan, facts, accounts, reload }: PayLoanProps) {
  const { t, i18n } = useLingui();
  const [step, setStep] = useState<Step>({ name: 'details' });
  const [draft, setDraft] = useState<DetailsForm>(() => initialDetails(facts.options, accounts));
  const [notice, setNotice] = useState<string | null>(null);
  // The idempotency key of each authorization shown (its words say what is paid, when, from where).
  const keys = useRef(new Map<string, string>());
  const keyFor = useCallback((authorization: string) => {
    let key = keys.current.get(authorization);
    if (!key) keys.current.set(authorization, (key = crypto.randomUUID()));
    return key;
  }, []);

  // The first step's heading is the page's; each later one takes the focus as it shows.
  const moved = useRef(false);
  useEffect(() => {
    if (!moved.current) {
      moved.current = true;
      return;
    }
    document.getElementById(TITLE_OF_STEP[step.name])?.focus();
  }, [step]);

  const reference = loan.reference;
  const balance = formatMoney(loan.balanceCents, i18n.locale);
  const usable = verifiedAccounts(accounts).length > 0;
  const payable = isOpenLoan(loan) && facts.options.payoffCents > 0;
  return (
    <section className="pay" aria-labelledby="pay-title" data-testid="pay-loan" data-step={step.name}>
      <PageTitle title={t`Make a payment`} />
      <BackLink to={routes.loanDetails.href({ loanId: loan.id })} label={t`Back to your loan`} />
      <header className="pay__header">
        <h1 id="pay-title">
          <Trans>Make a payment</Trans>
        </h1>
        <LoanStrip
          product={loan.product}
          status={loan.status}
          testId="pay-loan-summary"
          detail={
            <Trans>
              Loan {reference} · Balance {balance}
            </Trans>
          }
        />
      </header>

      {!payable ? (
        <div className="pay-unavailable" data-testid="pay-unavailable">
          <p>
            {isOpenLoan(loan) ? (
              <Trans>
                There’s nothing to pay on this loan now: the payments on their way cover its balance.
              </Trans>
            ) : (
              <Trans>This loan can’t take payments online.</Trans>
            )}
          </p>
          <Link className="button button--secondary" to={routes.loanDetails.href({ loanId: loan.id })}>
            <Trans>Back to your loan</Trans>
          </Link>
        </div>
      ) : step.name === 'done' ? (
        <PayDoneStep loan={loan} payment={step.payment} />
      ) : step.name === 'review' ? (
        <PayReviewStep
          loan={loan}
          facts={facts}
          terms={step.terms}
          keyFor={keyFor}
          onBack={() => setStep({ name: 'details' })}
          onPaid={(payment) => setStep({ name: 'done', payment })}
          onRefused={(message) => {
            // The days, the limits or the account may have changed: the details are shown as they are now.
            reload();
            setNotice(message);
            setStep({ name: 'details' });
          }}
        />
      ) : usable ? (
        <PayDetailsStep
          options={facts.options}
          accounts={accounts}
          defaults={draft}
          notice={notice}
          onDismissNotice={() => setNotice(null)}
          onReview={(form, terms) => {
            setDraft(form);
            setNotice(null);
            setStep({ name: 'review', terms });
          }}
        />
      ) : (
        <NoUsableAccount accounts={accounts} purpose="pay" />
      )}
    </section>
  );
}
