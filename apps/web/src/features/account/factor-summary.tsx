import type { SecondFactor } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { formatInstant } from '../../loans/loan-format';

interface FactorSummaryProps {
  factor: SecondFactor;
  /** What the list calls it: the kind of factor, or the borrower's name for a passkey. */
  name: string;
  /** The id of its name, which labels the row and describes its Remove button. */
  headingId: string;
  /** Whether its Remove button shows (not while its form is open, nor for the only one under `required`). */
  removable: boolean;
  onRemove(): void;
  removeTestId: string;
  /** Where the focus returns when the form the button opens is cancelled (data-opens). */
  opens?: string;
}

/** A second factor's line in its list: its name, when it was added and last used, and Remove. */
export function FactorSummary({
  factor,
  name,
  headingId,
  removable,
  onRemove,
  removeTestId,
  opens,
}: FactorSummaryProps) {
  const { t } = useLingui();
  const added = formatInstant(factor.addedAt);
  const lastUsed = factor.lastUsedAt && formatInstant(factor.lastUsedAt);
  return (
    <div className="account-factors__row">
      <div className="account-sessions__text">
        <p className="account-sessions__device" id={headingId}>
          {name}
        </p>
        <p>
          <Trans>Added {added}</Trans>
        </p>
        <p>{lastUsed ? t`Last used ${lastUsed}` : t`Not used yet`}</p>
      </div>
      {removable && (
        <button
          type="button"
          className="button button--secondary"
          onClick={onRemove}
          aria-describedby={headingId}
          data-testid={removeTestId}
          data-opens={opens}
        >
          <Trans>Remove</Trans>
        </button>
      )}
    </div>
  );
}
