import { Link } from 'react-router';

/**
 * The way up from a page to the one it belongs to ("Back to your loans"), above the page's heading:
 * one look on every signed-in page that has one.
 */
export function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <Link className="back-link" to={to} data-testid="back-link">
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
        <path d="M15 5 8 12l7 7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      {label}
    </Link>
  );
}
