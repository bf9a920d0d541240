import { StatusIcon } from './status-icon';
import './success-badge.css';

/** The round check beside a "done" message: a checkout complete, a payment scheduled. */
export function SuccessBadge() {
  return (
    <span className="success-badge">
      <StatusIcon tone="success" />
    </span>
  );
}
