import './document-state.css';

/** not-done: a loan past its checkout, where what was not done is no longer asked for. */
export type DocumentTone = 'to-sign' | 'to-review' | 'reviewed' | 'signed' | 'not-done';

/** A document's state as a badge: the tone picks the colour, the label says it in words. */
export function DocumentStateBadge({
  tone,
  state,
  label,
}: {
  tone: DocumentTone;
  state: string;
  label: string;
}) {
  return (
    <span
      className={`document-state document-state--${tone}`}
      data-testid="document-state"
      data-state={state}
    >
      {label}
    </span>
  );
}
