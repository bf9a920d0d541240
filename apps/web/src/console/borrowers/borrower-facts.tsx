import type { BorrowerFile } from '@customer-core/contracts';
import type { MessageDescriptor } from '@lingui/core';
import { Plural, useLingui } from '@lingui/react/macro';
import { formatInstant } from '../../loans/loan-format';
import { BorrowerStateBadge } from './borrower-state-badge';
import { FACTOR_STATUS_LABELS, FACTOR_TYPE_LABELS } from './borrower-words';

/** The borrower at a glance: their account's state, lockout, legal hold and second factors. */
export function BorrowerFacts({ file }: { file: BorrowerFile }) {
  const { t, i18n } = useLingui();
  const { borrower, factors } = file;
  const holdSince = borrower.legalHoldSince ? formatInstant(borrower.legalHoldSince) : null;
  const loans = file.loans.length;
  // A factor the directory names otherwise is shown by its own name.
  const label = (table: Record<string, MessageDescriptor>, key: string) => {
    const words = table[key];
    return words ? i18n._(words) : key;
  };
  return (
    <dl className="console-facts" data-testid="borrower-facts">
      <div>
        <dt>{t`Account`}</dt>
        <dd>
          <BorrowerStateBadge state={borrower.state} />
        </dd>
      </div>
      <div>
        <dt>{t`Sign-in`}</dt>
        <dd data-testid="borrower-locked">
          {borrower.locked === null ? (
            <span className="console-muted">{t`No account yet`}</span>
          ) : borrower.locked ? (
            <span className="console-tag console-tag--bad">{t`Locked`}</span>
          ) : (
            <span className="console-tag console-tag--good">{t`Not locked`}</span>
          )}
        </dd>
      </div>
      <div>
        <dt>{t`Legal hold`}</dt>
        <dd data-testid="borrower-legal-hold">
          {borrower.legalHold ? (
            <>
              <span className="console-tag console-tag--warn">{t`On`}</span>
              {borrower.legalHoldReason && (
                <span className="console-cell-note" data-testid="borrower-legal-hold-reason">
                  {borrower.legalHoldReason}
                </span>
              )}
              {holdSince && <span className="console-cell-note">{t`Since ${holdSince}`}</span>}
            </>
          ) : (
            <span className="console-muted">{t`Off`}</span>
          )}
        </dd>
      </div>
      <div>
        <dt>{t`Second factors`}</dt>
        <dd data-testid="borrower-factors">
          {factors.length === 0 ? (
            <span className="console-muted">{t`None set up`}</span>
          ) : (
            <ul className="console-plain-list">
              {factors.map((factor, index) => (
                <li key={`${factor.type}-${index}`}>
                  {label(FACTOR_TYPE_LABELS, factor.type)}
                  {factor.status !== 'ACTIVE' && <> · {label(FACTOR_STATUS_LABELS, factor.status)}</>}
                </li>
              ))}
            </ul>
          )}
        </dd>
      </div>
      <div>
        <dt>{t`Loans`}</dt>
        <dd>
          <Plural value={loans} _0="None" one="# loan" other="# loans" />
        </dd>
      </div>
      <div>
        <dt>{t`Added`}</dt>
        <dd>
          <time dateTime={borrower.createdAt}>{formatInstant(borrower.createdAt)}</time>
        </dd>
      </div>
    </dl>
  );
}
