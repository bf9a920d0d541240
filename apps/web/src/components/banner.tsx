import { useLingui } from '@lingui/react/macro';
import { useEffect, useRef, type ReactNode } from 'react';
import { StatusIcon } from './status-icon';
import './banner.css';

export type BannerType = 'error' | 'info' | 'success' | 'warning';

interface BannerProps {
  type: BannerType;
  children: ReactNode;
  onDismiss: () => void;
  testId?: string;
  /**
   * Takes the focus as it appears: an error answering what the borrower just did (a form sent) is where
   * they go next (docs/decisions/0010). False for a message that comes of itself, mid-task.
   */
  takeFocus?: boolean;
}

/** A dismissible message above a form (spec section 3, banner types). Errors are announced at once
 * and take the focus. */
export function Banner({ type, children, onDismiss, testId, takeFocus = type === 'error' }: BannerProps) {
  const { t } = useLingui();
  const tone = type === 'error' ? 'warning' : type;
  const banner = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (takeFocus) banner.current?.focus();
  }, [takeFocus]);
  return (
    <div
      ref={banner}
      tabIndex={takeFocus ? -1 : undefined}
      className={`banner banner--${type}`}
      role={type === 'error' ? 'alert' : 'status'}
      data-testid={testId}
    >
      <StatusIcon tone={tone} />
      <p className="banner__message">{children}</p>
      <button type="button" className="banner__dismiss" onClick={onDismiss} aria-label={t`Dismiss`}>
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <path d="m6 6 12 12M18 6 6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
    </div>
  );
}
