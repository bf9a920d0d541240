import { useLingui } from '@lingui/react/macro';
import type { BorrowerList } from '@customer-core/contracts';
import { BORROWER_STATE_LABELS } from './borrower-words';

type BorrowerState = BorrowerList['borrowers'][number]['state'];
const TONES: Record<BorrowerState, string> = { registered: 'good', invited: 'info', not_registered: 'muted' };

/** Where the borrower is with their account, in words and colour. */
export function BorrowerStateBadge({ state }: { state: BorrowerState }) {
  const { i18n } = useLingui();
  return (
    <span className={`console-tag console-tag--${TONES[state]}`} data-state={state}>
      {i18n._(BORROWER_STATE_LABELS[state])}
    </span>
  );
}
