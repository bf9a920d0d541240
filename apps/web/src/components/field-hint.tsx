import type { ReactNode } from 'react';
import './field-hint.css';

export function fieldHintId(id: string): string {
  return `${id}-hint`;
}

/** A line under a field that says what to enter; the field points at it with aria-describedby. */
export function FieldHint({ fieldId, children }: { fieldId: string; children: ReactNode }) {
  return (
    <p className="field-hint" id={fieldHintId(fieldId)}>
      {children}
    </p>
  );
}
