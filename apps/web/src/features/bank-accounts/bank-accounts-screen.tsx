import { MAX_BANK_ACCOUNTS, type BankAccount } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import { Loading } from '../../components/loading';
import { SignedInPage } from '../../components/signed-in-shell/signed-in-page';
import { useLoad } from '../../lib/use-load';
import { AddBankAccountForm } from './add-bank-account-form';
import { BankAccountRow, type RowNotice } from './bank-account-row';
import { getBankAccounts, type RemoveOutcome } from './bank-accounts-api';
import { bankName } from './bank-account-words';
import type { VerifyResult } from './verify-form';
import '../../components/form-screen.css';
import './bank-accounts.css';

const ADD_BUTTON_ID = 'bank-accounts-add';
const ADD_PANEL_ID = 'bank-accounts-add-panel';
const PAGE_NOTICE_ID = 'bank-accounts-notice';

/** Where the focus goes once the screen has rendered what an action changed. */
type FocusTarget = { row: string } | 'notice' | 'add-button' | 'add-form';

/**
 * /ui/dashboard/bank-accounts: the business bank accounts the borrower pays from. Each with its state
 * in words and what to do (wait for the micro-deposits, enter their amounts, call us, add another);
 * adding one (a recent sign-in, then the micro-deposits), removing one (asked first).
 */
export function BankAccountsScreen() {
  const { t, i18n } = useLingui();
  const { state, setState, retry, reload } = useLoad(getBankAccounts, []);
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [rowNotice, setRowNotice] = useState<{ id: string; notice: RowNotice } | null>(null);
  const focusNext = useRef<FocusTarget | null>(null);
  const pageNotice = useRef<HTMLParagraphElement>(null);

  // Kept until what takes the focus is on the page: a render in between must not lose it.
  useEffect(() => {
    const target = focusNext.current;
    if (!target) return;
    const element =
      target === 'notice'
        ? pageNotice.current
        : target === 'add-button'
          ? document.getElementById(ADD_BUTTON_ID)
          : target === 'add-form'
            ? document.querySelector<HTMLElement>(`#${ADD_PANEL_ID} input`)
            : document.getElementById(`bank-account-${target.row}`);
    if (!element) return;
    element.focus();
    focusNext.current = null;
  });

  const accounts = state.kind === 'loaded' ? state.accounts : [];
  const focus = (target: FocusTarget) => (focusNext.current = target);
  const clearNotices = () => (setNotice(null), setRowNotice(null));

  const added = (account: BankAccount) => {
    setState({ kind: 'loaded', accounts: [...accounts.filter((a) => a.id !== account.id), account] });
    setAdding(false);
    setNotice(null);
    setRowNotice({
      id: account.id,
      notice: {
        tone: 'done',
        text: t`Your bank account is added.`,
      },
    });
    focus({ row: account.id });
  };

  const verified = (account: BankAccount) => (result: VerifyResult) => {
    clearNotices();
    if (result.kind === 'verified') {
      setState({ kind: 'loaded', accounts: accounts.map((a) => (a.id === account.id ? result.account : a)) });
      setRowNotice({
        id: account.id,
        notice: { tone: 'done', text: t`This account is verified. You can pay your loans from it now.` },
      });
      focus({ row: account.id });
      return;
    }
    if (result.kind === 'gone') {
      setNotice(result.message);
      focus('notice');
      return reload();
    }
    // The tries left (the form says them), or the account refused after the last one: the row says so
    // once the list is back.
    void getBankAccounts().then((list) => {
      if (list.kind !== 'loaded') return;
      setState(list);
      const now = list.accounts.find((a) => a.id === account.id);
      if (now && now.status !== 'pending_verification')
        setRowNotice({
          id: account.id,
          notice: {
            tone: 'problem',
            text: t`Those aren’t the amounts we sent, and that was the last try.`,
            takeFocus: true,
          },
        });
    });
  };

  const removed = (account: BankAccount) => (outcome: Exclude<RemoveOutcome, { kind: 'step-up' }>) => {
    clearNotices();
    if (outcome.kind === 'failed') {
      setRowNotice({ id: account.id, notice: { tone: 'problem', text: outcome.message, takeFocus: true } });
      return;
    }
    const name = bankName(account, i18n);
    const last4 = account.last4;
    if (outcome.kind === 'removed') {
      setState({ kind: 'loaded', accounts: outcome.accounts });
      setNotice(t`${name} ending in ${last4} is removed.`);
    } else {
      setNotice(outcome.message);
      reload();
    }
    focus('notice');
  };

  const cancelAdding = () => {
    setAdding(false);
    focus('add-button');
  };

  const full = accounts.length >= MAX_BANK_ACCOUNTS;
  const max = MAX_BANK_ACCOUNTS;

  return (
    <SignedInPage
      title={t`Bank accounts`}
      intro={t`The business bank accounts you pay your loans from. We check that each one is yours before you can use it.`}
      titleId="bank-accounts-title"
      testId="bank-accounts-page"
    >
      <p
        id={PAGE_NOTICE_ID}
        ref={pageNotice}
        className={`bank-accounts__notice${notice ? ' bank-accounts__notice--done' : ''}`}
        role="status"
        tabIndex={-1}
        data-testid="bank-accounts-notice"
      >
        {notice}
      </p>
      {state.kind === 'loading' && <Loading />}
      {state.kind === 'failed' && (
        <p className="bank-accounts__failure" role="alert">
          {state.message}{' '}
          <button type="button" className="button button--secondary" onClick={retry}>
            <Trans>Try again</Trans>
          </button>
        </p>
      )}
      {state.kind === 'loaded' && (
        <>
          <section className="bank-accounts__card" aria-labelledby="bank-accounts-list-title">
            {/* The page's heading says what the list is: named for screen readers' list of headings. */}
            <h2 id="bank-accounts-list-title" className="visually-hidden">
              <Trans>Your bank accounts</Trans>
            </h2>
            {accounts.length === 0 ? (
              <p className="bank-accounts__empty" data-testid="bank-accounts-empty">
                <Trans>You haven’t added a bank account yet.</Trans>
              </p>
            ) : (
              <ul className="bank-accounts__list">
                {accounts.map((account) => (
                  <BankAccountRow
                    key={account.id}
                    account={account}
                    notice={rowNotice?.id === account.id ? rowNotice.notice : null}
                    onVerified={verified(account)}
                    onRemoved={removed(account)}
                  />
                ))}
              </ul>
            )}
          </section>
          <section
            className="bank-accounts__card bank-accounts__add"
            aria-labelledby="bank-accounts-add-title"
          >
            <div className="bank-accounts__add-summary">
              <div className="bank-accounts__add-text">
                <h2 id="bank-accounts-add-title" className="bank-accounts__card-title">
                  <Trans>Add a bank account</Trans>
                </h2>
                <p className="bank-accounts__add-intro">
                  {full ? (
                    <Trans>
                      You have {max} bank accounts, as many as you can keep. Remove one to add another.
                    </Trans>
                  ) : (
                    <Trans>A business checking or savings account in the United States.</Trans>
                  )}
                </p>
              </div>
              {!full && !adding && (
                <button
                  id={ADD_BUTTON_ID}
                  type="button"
                  className="button button--secondary bank-accounts__add-button"
                  aria-describedby="bank-accounts-add-title"
                  onClick={() => {
                    clearNotices();
                    setAdding(true);
                    focus('add-form');
                  }}
                  data-testid="bank-accounts-add"
                >
                  <Trans>Add account</Trans>
                </button>
              )}
            </div>
            {adding && (
              <div
                id={ADD_PANEL_ID}
                className="bank-accounts__add-panel"
                onKeyDown={(event) => {
                  // Escape closes the form, unless it belongs to the step-up dialog over it.
                  if (event.key !== 'Escape' || event.defaultPrevented) return;
                  if ((event.target as Element).closest('[role="dialog"], [role="alertdialog"]')) return;
                  cancelAdding();
                }}
              >
                <AddBankAccountForm onAdded={added} onCancel={cancelAdding} />
              </div>
            )}
          </section>
        </>
      )}
    </SignedInPage>
  );
}
