import { Trans } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';
import { Loading } from '../../components/loading';

// The parts every section of the account page shares: what its last action came to, and its list
// while it loads or when it could not.

export interface SectionNoticeText {
  tone: 'done' | 'problem';
  text: string;
}

/**
 * What the section's last action came to, announced as it changes. Where the button pressed is gone
 * (a device signed out) it takes the focus too; a row's form closed gives the focus to the row's button.
 */
export function SectionNotice({
  notice,
  testId,
  takeFocus = true,
}: {
  notice: SectionNoticeText | null;
  testId: string;
  takeFocus?: boolean;
}) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (notice && takeFocus) ref.current?.focus();
  }, [notice, takeFocus]);
  return (
    <p
      className={`account__notice${notice ? ` account__notice--${notice.tone}` : ''}`}
      role="status"
      tabIndex={-1}
      ref={ref}
      data-testid={testId}
    >
      {notice?.text}
    </p>
  );
}

/** The section's list while it loads, or why it could not, with "Try again"; nothing once loaded. */
export function SectionLoading({
  state,
  retry,
}: {
  state: { kind: string; message?: string };
  retry: () => void;
}) {
  if (state.kind === 'loading') return <Loading />;
  if (state.kind !== 'failed') return null;
  return (
    <p className="account__failure" role="alert">
      {state.message}{' '}
      <button type="button" className="button button--secondary" onClick={retry}>
        <Trans>Try again</Trans>
      </button>
    </p>
  );
}
