import type { ReactNode } from 'react';
import { StatusIcon } from './status-icon';
import './banner.css';

export type BannerType = 'error' | 'info' | 'success' | 'warning';

interface BannerProps {
  type: BannerType;
  children: ReactNode;
  onDismiss: () => void;
  testId?: string;
}

/** A dismissible message above a form (spec section 3, banner types). Errors are announced at once. */
export function Banner({ type, children, onDismiss, testId }: BannerProps) {
  const tone = type === 'error' ? 'warning' : type;
  return (
    <div
      className={`banner banner--${type}`}
      role={type === 'error' ? 'alert' : 'status'}
      data-testid={testId}
    >
      <StatusIcon tone={tone} />
      <p className="banner__message">{children}</p>
      <button type="button" className="banner__dismiss" onClick={onDismiss} aria-label="Dismiss">
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <path d="m6 6 12 12M18 6 6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
    </div>
  );
}
