import type { ReactNode, RefObject } from 'react';

interface FactorScreenProps {
  title: string;
  /** The heading the step moves the focus to when the screen changes. */
  heading: RefObject<HTMLHeadingElement | null>;
  /** The words of the way back to the password form. */
  backLabel: string;
  onBack(): void;
  children: ReactNode;
}

/** A screen of the factor step: its heading, its body, and the way back to the password form. */
export function FactorScreen({ title, heading, backLabel, onBack, children }: FactorScreenProps) {
  return (
    <section className="factor-step" aria-labelledby="factor-step-title" data-testid="factor-step">
      <h2 id="factor-step-title" ref={heading} tabIndex={-1}>
        {title}
      </h2>
      {children}
      <button type="button" className="button button--secondary button--block" onClick={onBack}>
        {backLabel}
      </button>
    </section>
  );
}
